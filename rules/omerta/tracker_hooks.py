"""Omertà in the shared combat tracker (:mod:`rules.tracker`).

'Antes de empezar una ronda de combate, los PJ's y PNJs hacen una tirada de Iniciativa ...
1D10+AGI ... de mayor a menor ... En caso de empate ... mayor puntuación en el valor de AGI.
Si aún existe un empate, actuará primero el PJ antes que el PNJ. Si hay empate entre PJ's sus
acciones ocurren al unísono.'

- Initiative is rolled before every round, for every combatant able to act (the dead and the
  unconscious do not act), in the order the combatants joined; one slot per tie (tied PJs at
  once; tied PNJs by the ``npc_ties`` setting). Each slot shows its total publicly; the dice
  and AGI of each actor, and the timers running, are the Don's (``Initiative.data``).
- No declarations: the text has every combatant act in initiative order with no plan first.
- The end of a round is one round of game time (``advance_time``): the dodge ends, jams finish
  clearing, the First Aid window counts down and the bleeding die, per-round counters start
  again. Ending the fight ends the round under way the same way, once.
- The system's own ``initiative`` and ``combat_end`` actions stand aside while the tracker
  runs (``tracker_combat``); they share the functions used here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    Card,
    Line,
    Resolution,
    Section,
    Text,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.omerta.gm import initiative_line, order_from, order_line, with_order, without_order
from rules.omerta.initiative import roll_initiative
from rules.omerta.sheet import parse_sheet
from rules.omerta.state import DATA_KEY, Clock, clock
from rules.omerta.tables import BLEED_GRACE_ROUNDS
from rules.omerta.timeflow import advance
from rules.tracker import Combat, Initiative, Slot

HOOK_ACTION = Action("combat", "", by_gm=True)


def _can_act(actor: Actor) -> bool:
    return not ({"dead", "unconscious"} & actor.statuses)


def _timers(world: World, now: Clock) -> dict[str, dict[str, int]]:
    """What counts down for each actor, in rounds: First Aid's free window, bleeding out,
    a jam being cleared (the Don's view of the timers)."""
    bleed_out = int(world.settings.get("bleed_out_rounds", 15))
    found: dict[str, dict[str, int]] = {}
    for actor_id in sorted(world.actors):
        actor = world.actors[actor_id]
        timers: dict[str, int] = {}
        since = actor.state.get("bleeding_since")
        if since is not None and "bleeding" in actor.statuses:
            elapsed = max(0, (now.time - int(since)) // now.round_seconds)
            timers["first_aid_free"] = max(0, BLEED_GRACE_ROUNDS - elapsed)
            timers["bleed_out"] = max(0, bleed_out - elapsed)
        for key, jam in (actor.state.get("jams") or {}).items():
            ready = jam.get("ready_at") if isinstance(jam, dict) else None
            if ready is not None:
                left = -(-(int(ready) - now.time) // now.round_seconds)
                timers[f"jam.{key}"] = max(0, left)
        if timers:
            found[actor_id] = timers
    return found


def round_initiative(world: World, combat: Combat, dice: DiceSource) -> Initiative:
    """1D10 + AGI for each combatant able to act, one die each in the order they joined."""
    hidden = {c.actor_id for c in combat.combatants if c.hidden}
    unknown = t("name.hidden")

    def shown(actor_id: str) -> Text | str:
        actor = world.actors.get(actor_id)
        return unknown if actor_id in hidden or actor is None else actor.name

    stored: dict[str, Any] = {}
    rolled: list[Die] = []
    lines: list[Line] = [Line(t("line.round_begins", round=combat.round))]
    out: list[str] = []
    for actor_id in combat.actor_ids:
        actor = world.actors.get(actor_id)
        if actor is None or not _can_act(actor):
            out.append(actor_id)
            lines.append(Line(t("line.initiative_out", actor=shown(actor_id))))
            continue
        sheet = parse_sheet(actor.sheet)
        entry = roll_initiative(dice, actor_id, sheet.char("agi"), sheet.pc)
        rolled.append(entry.die)
        stored[actor_id] = {**entry.to_json(), "total": entry.total}
        lines.append(initiative_line(shown(actor_id), entry))
    order = order_from(world, stored)
    lines.append(
        order_line(order, lambda a: "?" if a in hidden else world.actors[a].name),
    )
    slots = tuple(_slot(ids, stored, hidden) for ids in order)
    card = Card(
        kind="initiative",
        title=t("card.initiative"),
        speaker=None,
        dice=tuple(rolled),
        sections=(Section(None, tuple(lines)),),
    )
    now = clock(world)
    data = {
        "round": combat.round,
        "clock_round": now.round,
        "rolls": stored,
        "out": out,
        "timers": _timers(world, now),
    }
    effect = WorldChange({DATA_KEY: with_order(world, stored, order)})
    return Initiative(slots, (card,), (effect,), data)


def _slot(ids: tuple[str, ...], stored: dict[str, Any], hidden: set[str]) -> Slot:
    """A tie's actors share total, AGI and side, so one label says it for all of them; a slot
    of hidden combatants shows its total only."""
    first = stored[ids[0]]
    total = int(first["total"])
    if all(a in hidden for a in ids):
        return Slot(ids, t("slot.initiative_hidden", total=total), {"total": total})
    die, agi = int(first["die"]), int(first["agi"])
    label = t("slot.initiative", total=total, die=die, agi=agi)
    return Slot(ids, label, {"total": total, "die": die, "agi": agi, "pc": bool(first["pc"])})


def round_end(world: World, dice: DiceSource) -> Resolution:
    """One round of game time: every timed rule of the round runs once (``timeflow``)."""
    return advance(world, TimeStep("round"), dice)


def end_combat(world: World, dice: DiceSource) -> Resolution:
    """The round under way ends (once), then the fight: the order is forgotten."""
    ended = round_end(world, dice)
    after = world
    for effect in ended.effects:
        if isinstance(effect, WorldChange):
            after = replace(after, data={**after.data, **effect.data})
    closing = Card(
        kind="combat_end",
        title=t("card.combat_end"),
        speaker=None,
        sections=(Section(None, (Line(t("line.combat_ends_round")),)),),
    )
    clear = WorldChange({DATA_KEY: without_order(after)})
    return Resolution(HOOK_ACTION, (*ended.cards, closing), (*ended.effects, clear))
