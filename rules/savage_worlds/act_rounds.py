"""Combat start (with surprise), each new round (Bleeding Out first, then the deal), combat end, time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Action, Card, Line, Resolution, Text, TimeStep, World, t
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.health import bleed_check
from rules.savage_worlds.initiative import deal, is_joker, new_deck, turn_order, units_for
from rules.savage_worlds.sheet import Sheet
from rules.savage_worlds.state import COMBAT, Draft, combat, in_combat, refuse_in_tracker
from rules.savage_worlds.tables import BLEEDING_MAX_MINUTES
from rules.savage_worlds.traits import roll_trait_check, situation_modifiers, trait_die

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
TURN_RESET = {"declared": 0, "used": 0, "full_round": False, "moved": False, "readied": 0}


def card_text(code: str) -> Text:
    if is_joker(code):
        return t("deck.joker")
    return t("raw", text=code[:-1] + SUIT_SYMBOL[code[-1]])


def _unit_name(draft: Draft, unit: str, members: list[str]) -> Text:
    names = ", ".join(draft.actor(m).name for m in members)
    if unit.startswith("side:"):
        return t("line.unit_side", side=t(f"side.{unit[5:]}"), members=names)
    return t("raw", text=names)


def new_round(
    draft: Draft, dice: DiceSource, settings: Mapping[str, Any], first: bool
) -> tuple[list[Line], list[Die]]:
    """Deal the round's cards; held units keep theirs; reshuffle after a round with a Joker."""
    fight = combat(draft)
    participants = [p for p in fight.get("participants", []) if p in draft.world.actors]
    no_card = set(fight.get("no_card", [])) if first else set()
    active = {p: draft.sheet(p) for p in participants if not draft.is_out(p)}
    units = units_for(active, str(settings.get("initiative", "individual")))
    old_cards: dict[str, str] = dict(fight.get("cards", {}))
    held = {u for u, members in units.items() if any(draft.has(m, "on_hold") for m in members)}
    deck = draft.data("deck", None)
    draw, discard = (list(deck["draw"]), list(deck["discard"])) if deck else (new_deck(), [])
    kept = {u: c for u, c in old_cards.items() if u in held}
    discard += [c for u, c in old_cards.items() if u not in held]
    to_deal = [
        u
        for u in units
        if u not in held
        and not (set(units[u]) & no_card)
        and not (first and _ambusher(draft, units[u]))
    ]
    sheets: Mapping[str, Sheet] = active
    dealt = deal(
        draw,
        discard,
        to_deal,
        dice,
        reshuffle=bool(fight.get("joker_dealt", False)) or deck is None,
        level_headed=[u for u in to_deal if any(sheets[m].has_edge("temple") for m in units[u])],
        quick=[u for u in to_deal if any(sheets[m].has_edge("rapido") for m in units[u])],
    )
    cards = {**kept, **dealt.cards}
    for actor_id in participants:
        draft.remove(actor_id, "joker")
        draft.put(actor_id, **TURN_RESET)
    for unit, code in cards.items():
        if is_joker(code):
            for member in units.get(unit, []):
                draft.add(member, "joker")
    order = turn_order(cards)
    fight.update(
        active=True,
        round=int(fight.get("round", 0)) + 1,
        units=units,
        cards=cards,
        order=order,
        joker_dealt=dealt.joker_dealt,
    )
    draft.set_data(COMBAT, fight)
    draft.set_data("deck", {"draw": dealt.draw, "discard": dealt.discard})
    lines = [Line(t("line.round", round=fight["round"]))]
    lines += [Line(_unit_name(draft, u, units[u]), card_text(cards[u])) for u in order]
    lines += [Line(t("line.keeps_hold", unit=_unit_name(draft, u, units[u]))) for u in kept]
    waiting = [u for u in units if u not in cards]
    lines += [Line(t("line.no_card", unit=_unit_name(draft, u, units[u]))) for u in waiting]
    if dealt.shuffled and deck is not None:
        lines.append(Line(t("line.shuffled")))
    if dealt.joker_dealt:
        lines.append(Line(t("line.joker_reshuffle")))
    return lines, list(dealt.dice)


def _ambusher(draft: Draft, members: list[str]) -> bool:
    return all(draft.has(m, "on_hold") for m in members)


def bleeding_checks(
    draft: Draft, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[list[Line], list[Die]]:
    lines: list[Line] = []
    rolled: list[Die] = []
    for actor_id in sorted(draft.world.actors):
        if draft.has(actor_id, "bleeding") and not draft.has(actor_id, "dead"):
            roll, verdict = bleed_check(draft, actor_id, dice, settings)
            rolled += roll.dice
            lines.append(
                Line(t(f"line.bleed_{verdict}", actor=draft.actor(actor_id).name), roll.total)
            )
    return lines, rolled


def _resolution(
    action: Action, draft: Draft, lines: list[Line], rolled: list[Die], kind: str
) -> Resolution:
    cards: list[Card] = [
        card(kind, t(f"card.{kind}"), None, lines, dice=[d for d in rolled if d.role != "shuffle"])
    ]
    shuffle_dice = [d for d in rolled if d.role == "shuffle"]
    if shuffle_dice:
        cards.append(
            card(
                "shuffle",
                t("card.shuffle"),
                None,
                [Line(t("line.shuffle_dice"))],
                dice=shuffle_dice,
                visibility="gm",
            )
        )
    return Resolution(action, tuple(cards), draft.effects())


def resolve_combat_start(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """Deal the first round; with surprise the ambushers start on hold and victims roll Notice."""
    refuse_in_tracker(world)
    draft = Draft(world)
    if in_combat(draft):
        raise refuse("already_in_combat", "action")
    participants = list(action.targets) or sorted(world.actors)
    surprise = str(action.params["surprise"])
    lines: list[Line] = []
    rolled: list[Die] = []
    no_card: list[str] = []
    if surprise != "none":
        for actor_id in participants:
            if draft.is_out(actor_id):
                continue
            sheet = draft.sheet(actor_id)
            if sheet.side == surprise:
                draft.add(actor_id, "on_hold")
                lines.append(Line(t("line.ambusher", actor=draft.actor(actor_id).name)))
                continue
            notice = trait_die(sheet, draft.state(actor_id), "notar", settings, "actor")
            roll = roll_trait_check(
                dice,
                notice,
                wild_card=sheet.wild_card,
                modifiers=situation_modifiers(draft, actor_id, sheet),
                role="notice",
                critical_failure_rule=bool(settings.get("critical_failure", True)),
            )
            rolled += roll.dice
            verdict = "line.surprise_ok" if roll.success else "line.surprised"
            lines.append(Line(t(verdict, actor=draft.actor(actor_id).name), roll.total))
            if not roll.success:
                no_card.append(actor_id)
    draft.set_data(
        COMBAT,
        {
            "active": True,
            "round": 0,
            "participants": participants,
            "no_card": no_card,
            "cards": {},
            "joker_dealt": False,
        },
    )
    round_lines, round_dice = new_round(draft, dice, settings, first=True)
    return _resolution(action, draft, lines + round_lines, rolled + round_dice, "combat_start")


def resolve_next_round(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    refuse_in_tracker(world)
    draft = Draft(world)
    if not in_combat(draft):
        raise refuse("not_in_combat", "action")
    lines, rolled = run_round(draft, dice, settings)
    return _resolution(action, draft, lines, rolled, "next_round")


def run_round(
    draft: Draft, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[list[Line], list[Die]]:
    """'una tirada de Vigor al comienzo de cada ronda ... antes de que se reparta ninguna carta'."""
    lines, rolled = bleeding_checks(draft, dice, settings)
    if in_combat(draft):
        more, more_dice = new_round(draft, dice, settings, first=False)
        lines += more
        rolled += more_dice
    return lines, rolled


def resolve_combat_end(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    refuse_in_tracker(world)
    draft = Draft(world)
    if not combat(draft).get("active"):
        raise refuse("not_in_combat", "action")
    finish_combat(draft)
    return _resolution(action, draft, [Line(t("line.combat_over"))], [], "combat_end")


def finish_combat(draft: Draft) -> None:
    """The cards go to the discards; Jokers, holds and the turn's counters are cleared."""
    fight = combat(draft)
    deck = draft.data("deck", {"draw": new_deck(), "discard": []})
    deck["discard"] = [*deck["discard"], *fight.get("cards", {}).values()]
    draft.set_data("deck", deck)
    for actor_id in fight.get("participants", []):
        if actor_id in draft.world.actors:
            draft.remove(actor_id, "joker", "on_hold", "overwatch")
            draft.put(actor_id, **TURN_RESET)
    draft.set_data(
        COMBAT,
        {
            "active": False,
            "round": 0,
            "participants": [],
            "cards": {},
            "joker_dealt": bool(fight.get("joker_dealt")),
        },
    )


def advance_time(
    world: World, step: TimeStep, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution | None:
    """Rounds: Bleeding Out then the deal; minutes out of combat: Bleeding Out each minute;
    hours and days: the 24-hour injuries wear off (minutes of bleeding run first)."""
    draft = Draft(world)
    lines: list[Line] = []
    rolled: list[Die] = []
    count = max(0, step.count)
    if step.unit == "round":
        # With the tracker, rounds pass with combat_next_round (its hooks roll and deal).
        refuse_in_tracker(world, "unit")
        for _ in range(min(count, BLEEDING_MAX_MINUTES)):
            more, more_dice = run_round(draft, dice, settings)
            lines += more
            rolled += more_dice
    else:
        minutes = count * {"minute": 1, "hour": 60, "day": 1440}[step.unit]
        for _ in range(min(minutes, BLEEDING_MAX_MINUTES)):
            more, more_dice = bleeding_checks(draft, dice, settings)
            if not more:
                break
            lines += more
            rolled += more_dice
        hours = count * {"minute": 0, "hour": 1, "day": 24}[step.unit]
        if hours:
            lines += _wear_off(draft, hours)
    if not lines and not draft.effects():
        return None
    action = Action("advance_time", "", {"unit": step.unit, "count": step.count}, by_gm=True)
    return _resolution(action, draft, lines or [Line(t("line.time_passes"))], rolled, "time")


def _wear_off(draft: Draft, hours: int) -> list[Line]:
    lines = []
    for actor_id in sorted(draft.world.actors):
        treated = int(draft.get(actor_id, "treated_hours", 0))
        if treated > 0:
            # One Healing treatment a day: the count runs down with the hours.
            draft.put(actor_id, treated_hours=max(0, treated - hours))
        injuries = draft.get(actor_id, "injuries", [])
        if not injuries:
            continue
        kept = []
        for injury in injuries:
            if injury.get("lasting") == "24h":
                left = int(injury.get("hours_left", 0)) - hours
                if left <= 0:
                    lines.append(
                        Line(
                            t(
                                "line.injury_gone",
                                actor=draft.actor(actor_id).name,
                                injury=t(f"injury.{injury['key']}"),
                            )
                        )
                    )
                    continue
                injury = {**injury, "hours_left": left}
            kept.append(injury)
        if kept != injuries:
            draft.put(actor_id, injuries=kept)
    return lines
