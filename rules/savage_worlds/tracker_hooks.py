"""Savage Worlds in the shared combat tracker (``rules/tracker.py``, issue 8).

The tracker owns the turn order (``world.data["tracker"]``); this module fills it
in with the same pure functions the system's own combat actions use, and keeps
the system's data (``sw_combat``, ``deck``, the ``on_hold``/``joker`` statuses)
in step with it:

- round start: Bleeding Out rolls, 'al comienzo de cada ronda ... antes de que se
  reparta ninguna carta' (ruling 22), every round including the first;
- initiative: the deal (reshuffle first after a round with a Joker, held units
  keep their card, Temple/Rápido), one slot per card in the count's order, the
  card public on the slot, the deck GM-only;
- turn start: the Shaken recovery (Spirit) roll of each actor of the slot, once
  per actor and round (an interrupted slot does not roll again);
- hold: the tracker's ``held`` list becomes the ``on_hold`` status at the next
  hook (``sw_combat.holding`` remembers which holds were seen, so a hold lost to
  Shaken is not given back);
- interrupt: opposed Athletics against whoever's turn it is;
- end: the cards go to the discards, Jokers and holds are cleared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Action, Card, Line, Outcome, Resolution, World, t
from rules.savage_worlds.act_rounds import (
    bleeding_checks,
    card_text,
    finish_combat,
    new_round,
)
from rules.savage_worlds.act_turn import opposed_athletics, shaken_recovery
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.initiative import is_joker
from rules.savage_worlds.state import COMBAT, Draft, combat, in_combat
from rules.tracker import Combat, Initiative, Slot

Settings = Mapping[str, Any]
ACTION = Action("combat", "", by_gm=True)
"""A tracker step's Resolution: no actor acts, the table does."""


def sync_holds(draft: Draft, held: tuple[str, ...]) -> None:
    """The tracker's new holds become ``on_hold``; holds that left the tracker are forgotten."""
    fight = combat(draft)
    seen = list(fight.get("holding", []))
    holding = [a for a in seen if a in held]
    for actor_id in held:
        if actor_id in holding:
            continue
        holding.append(actor_id)
        if actor_id in draft.world.actors and not draft.is_out(actor_id):
            draft.add(actor_id, "on_hold")
    if holding != seen:
        fight["holding"] = holding
        draft.set_data(COMBAT, fight)


def _fight(draft: Draft, combat_state: Combat) -> dict[str, Any]:
    """This system's combat for the tracker's, set up at the first round."""
    fight = combat(draft)
    if not fight.get("tracker"):
        if in_combat(draft):
            # The system's own combat_start is running a combat: one at a time.
            raise refuse("already_in_combat", "action")
        fight = {
            "active": True,
            "tracker": True,
            "round": 0,
            "participants": [],
            "no_card": [],
            "cards": {},
            "joker_dealt": bool(fight.get("joker_dealt", False)),
            "holding": [],
            "started": [],
        }
    fight["participants"] = [a for a in combat_state.actor_ids if a in draft.world.actors]
    draft.set_data(COMBAT, fight)
    return fight


def _resolution(draft: Draft, cards: list[Card]) -> Resolution | None:
    effects = draft.effects()
    if not cards and not effects:
        return None
    return Resolution(ACTION, tuple(cards), effects)


# -- round start: Bleeding Out before the deal ----------------------------------------
def round_start(
    world: World, combat_state: Combat, dice: DiceSource, settings: Settings
) -> Resolution | None:
    draft = Draft(world)
    _fight(draft, combat_state)
    sync_holds(draft, combat_state.held)
    lines, rolled = bleeding_checks(draft, dice, settings)
    cards = [card("bleeding", t("card.bleeding"), None, lines, dice=rolled)] if lines else []
    return _resolution(draft, cards)


# -- initiative: the deal --------------------------------------------------------------
def initiative(
    world: World, combat_state: Combat, dice: DiceSource, settings: Settings
) -> Initiative:
    draft = Draft(world)
    fight = _fight(draft, combat_state)
    sync_holds(draft, combat_state.held)
    first = combat_state.round == 1
    lines, rolled = new_round(draft, dice, settings, first=first)
    fight = combat(draft)
    fight.update(round=combat_state.round, started=[])
    draft.set_data(COMBAT, fight)
    deck = draft.data("deck", {"draw": [], "discard": []})
    order = _slots(draft, combat_state, fight)
    kind = "combat_start" if first else "next_round"
    cards = [card(kind, t(f"card.{kind}"), None, lines, dice=_public(rolled))]
    shuffle = [d for d in rolled if d.role == "shuffle"]
    if shuffle:
        cards.append(
            card(
                "shuffle",
                t("card.shuffle"),
                None,
                [Line(t("line.shuffle_dice"))],
                dice=shuffle,
                visibility="gm",
            )
        )
    data = {
        "deck": {"draw": list(deck["draw"]), "discard": list(deck["discard"])},
        "cards": dict(fight.get("cards", {})),
        "units": {u: list(m) for u, m in fight.get("units", {}).items()},
        "joker_dealt": bool(fight.get("joker_dealt", False)),
        "reshuffle_next": bool(fight.get("joker_dealt", False)),
    }
    return Initiative(order, tuple(cards), draft.effects(), data)


def _public(rolled: list[Die]) -> list[Die]:
    return [d for d in rolled if d.role != "shuffle"]


def card_data(code: str, unit: str, kept: bool) -> dict[str, Any]:
    """A slot's public data: the card (``"KS"``, ``"10H"``, ``"JK1"``), its rank and suit."""
    joker = is_joker(code)
    return {
        "card": code,
        "rank": "JK" if joker else code[:-1],
        "suit": None if joker else code[-1],
        "joker": joker,
        "unit": unit,
        "kept": kept,
    }


def _slots(draft: Draft, combat_state: Combat, fight: Mapping[str, Any]) -> tuple[Slot, ...]:
    """One slot per card from the first to act; held members act by interrupting, not here."""
    cards: Mapping[str, str] = fight.get("cards", {})
    units: Mapping[str, list[str]] = fight.get("units", {})
    position = {a: i for i, a in enumerate(combat_state.actor_ids)}
    slots: list[Slot] = []
    for unit in fight.get("order", []):
        members = [m for m in units.get(unit, []) if not draft.has(m, "on_hold")]
        if not members:
            continue
        members.sort(key=lambda m: position.get(m, len(position)))
        held_card = any(draft.has(m, "on_hold") for m in units.get(unit, []))
        code = cards[unit]
        slots.append(Slot(tuple(members), card_text(code), card_data(code, unit, held_card)))
    return tuple(slots)


# -- turn start: Shaken recovery -------------------------------------------------------
def turn_start(
    world: World, combat_state: Combat, slot: Slot, dice: DiceSource, settings: Settings
) -> Resolution | None:
    draft = Draft(world)
    sync_holds(draft, combat_state.held)
    fight = combat(draft)
    started = list(fight.get("started", []))
    cards: list[Card] = []
    for actor_id in slot.actors:
        if actor_id in started or actor_id not in draft.world.actors:
            continue
        started.append(actor_id)
        if draft.is_out(actor_id):
            continue
        lines, rolled, outcome = shaken_recovery(draft, actor_id, dice, settings)
        if lines:
            name = draft.actor(actor_id).name
            cards.append(
                card(
                    "start_turn",
                    t("card.start_turn", actor=name),
                    actor_id,
                    lines,
                    dice=rolled,
                    outcome=outcome,
                )
            )
    fight["started"] = started
    draft.set_data(COMBAT, fight)
    return _resolution(draft, cards)


# -- interrupt: opposed Athletics --------------------------------------------------------
def interrupt(
    world: World, combat_state: Combat, actor_id: str, dice: DiceSource, settings: Settings
) -> Resolution | None:
    draft = Draft(world)
    sync_holds(draft, combat_state.held)
    name = draft.actor(actor_id).name
    fight = combat(draft)
    fight["holding"] = [a for a in fight.get("holding", []) if a != actor_id]
    draft.set_data(COMBAT, fight)
    if not draft.has(actor_id, "on_hold"):
        # Shaken (or acting) cost the hold: 'actúa justo después', no roll.
        lines = [Line(t("line.hold_was_lost", actor=name))]
        return _resolution(
            draft, [card("interrupt", t("card.interrupt", actor=name), actor_id, lines)]
        )
    slot = combat_state.current
    other = next(
        (a for a in (slot.actors if slot else ()) if a != actor_id and not draft.is_out(a)), None
    )
    if other is None:
        lines = [Line(t("line.interrupt_first", actor=name))]
        result: Outcome | None = None
        rolled: tuple[Die, ...] = ()
    else:
        lines, rolled, result = opposed_athletics(draft, actor_id, other, dice, settings)
    draft.remove(actor_id, "on_hold")
    return _resolution(
        draft,
        [
            card(
                "interrupt",
                t("card.interrupt", actor=name),
                actor_id,
                lines,
                dice=rolled,
                outcome=result,
                target=other,
            )
        ],
    )


# -- end ---------------------------------------------------------------------------------
def end(world: World, combat_state: Combat, dice: DiceSource, settings: Settings) -> Resolution:
    draft = Draft(world)
    if combat(draft).get("tracker"):
        finish_combat(draft)
    lines = [Line(t("line.combat_over"))]
    return Resolution(
        ACTION, (card("combat_end", t("card.combat_end"), None, lines),), draft.effects()
    )
