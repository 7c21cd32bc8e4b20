"""Initiative through the bridge, and the Don's levers (damage, healing, conditions)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    Line,
    Resolution,
    RulesError,
    Section,
    Text,
    World,
    WorldChange,
    t,
)
from rules.omerta.combat import context, tracker_running
from rules.omerta.damage import DamageKind, Hit, take_hits
from rules.omerta.initiative import Initiative, NpcTies, initiative_order, roll_initiative
from rules.omerta.sheet import parse_sheet
from rules.omerta.state import DATA_KEY, clock, hp, world_data
from rules.rolls import roll_die


def refuse_under_tracker(world: World) -> None:
    """The system's own ``initiative`` and ``combat_end`` stand aside while the shared
    tracker runs the fight (it rolls initiative each round and ends the fight itself)."""
    if tracker_running(world):
        raise RulesError("tracker_combat", t("error.tracker_combat"), "action")


def initiative_line(name: Text | str, entry: Initiative) -> Line:
    return Line(t("line.initiative", actor=name, die=entry.die.total, agi=entry.agi), entry.total)


def order_from(world: World, stored: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """The acting order (slots acting at once) of the stored rolls, by the world's settings."""
    entries = [
        Initiative(key, int(v["agi"]), bool(v["pc"]), Die(10, (int(v["die"]),), "initiative"))
        for key, v in stored.items()
    ]
    ties: NpcTies = "listed" if world.settings.get("npc_ties") == "listed" else "simultaneous"
    return initiative_order(entries, ties)


def order_line(order: tuple[tuple[str, ...], ...], name: Callable[[str], str]) -> Line:
    names = (" + ".join(name(a) for a in slot) for slot in order)
    return Line(t("line.order"), t("raw", text=" → ".join(names)))


def with_order(
    world: World, stored: Mapping[str, Any], order: tuple[tuple[str, ...], ...]
) -> dict[str, Any]:
    """The system's data with this round's rolls and order (what ``in_combat`` reads)."""
    data = world_data(world)
    data.update(
        initiative=dict(stored),
        initiative_round=clock(world).round,
        order=[list(slot) for slot in order],
    )
    return data


def without_order(world: World) -> dict[str, Any]:
    """The system's data once the fight is over."""
    data = world_data(world)
    for key in ("initiative", "initiative_round", "order"):
        data.pop(key, None)
    return data


def resolve_initiative(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Roll 1D10 + AGI for the actor (and, for the Don, every target); store the order."""
    refuse_under_tracker(world)
    if action.targets and not action.by_gm:
        raise RulesError("gm_only", t("error.gm_only"), "targets")
    now = clock(world)
    data = world_data(world)
    stored: dict[str, Any] = (
        dict(data.get("initiative", {})) if data.get("initiative_round") == now.round else {}
    )
    ids = tuple(dict.fromkeys((action.actor_id, *action.targets)))
    lines: list[Line] = []
    rolled: list[Die] = []
    for actor_id in ids:
        actor = world.actor(actor_id)
        if "dead" in actor.statuses:
            continue
        sheet = parse_sheet(actor.sheet)
        entry = roll_initiative(dice, actor_id, sheet.char("agi"), sheet.pc)
        rolled.append(entry.die)
        stored[actor_id] = entry.to_json()
        lines.append(initiative_line(actor.name, entry))
    order = order_from(world, stored)
    lines.append(order_line(order, lambda a: world.actors[a].name if a in world.actors else a))
    card = Card(
        kind="initiative",
        title=t("card.initiative"),
        speaker=action.actor_id,
        dice=tuple(rolled),
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), (WorldChange({DATA_KEY: with_order(world, stored, order)}),))


def resolve_gm_damage(world: World, action: Action, dice: DiceSource) -> Resolution:
    now = clock(world)
    params = action.params
    effects: list[Effect] = []
    lines: list[Line] = []
    for index, target_id in enumerate(action.targets):
        target = world.actor(target_id, f"targets.{index}")
        kind: DamageKind = "contusion" if params.get("kind") == "contusion" else "lethal"
        location = params.get("location")
        hit = Hit(
            int(params["amount"]),
            kind,
            str(location) if location else None,
            bool(params.get("bullet", False)),
        )
        outcome = take_hits(
            target,
            parse_sheet(target.sheet),
            (hit,),
            now,
            is_attack=bool(params.get("attack", False)),
            armour=False,
        )
        lines.extend(outcome.lines)
        effects.append(outcome.change)
    card = Card(
        kind="gm_damage",
        title=t("card.gm_damage"),
        speaker=None,
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_gm_heal(world: World, action: Action, dice: DiceSource) -> Resolution:
    effects: list[Effect] = []
    lines: list[Line] = []
    for index, target_id in enumerate(action.targets):
        target = world.actor(target_id, f"targets.{index}")
        if "dead" in target.statuses:
            raise RulesError(
                "target_dead", t("error.target_dead", actor=target.name), f"targets.{index}"
            )
        sheet = parse_sheet(target.sheet)
        amount = int(action.params["amount"])
        after = min(sheet.hp, hp(target) + amount)
        state: dict[str, Any] = {"hp": after}
        if action.params.get("contusion"):
            state["contusion"] = max(0, int(target.state.get("contusion", 0)) - amount)
        lines.append(
            Line(t("line.healed", actor=target.name, amount=amount, before=hp(target), after=after))
        )
        effects.append(ActorChange(target.id, state))
    card = Card(
        kind="gm_heal",
        title=t("card.gm_heal"),
        speaker=None,
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), tuple(effects))


CONDITIONS: tuple[str, ...] = (
    "wake",
    "stabilize",
    "not_resting",
    "resting",
    "clear_jams",
    "new_round_state",
)


def resolve_gm_condition(world: World, action: Action, dice: DiceSource) -> Resolution:
    change = str(action.params["change"])
    effects: list[Effect] = []
    lines: list[Line] = []
    for index, target_id in enumerate(action.targets):
        ctx = context(world, target_id, f"targets.{index}")
        state: dict[str, Any] = {}
        add: set[str] = set()
        remove: set[str] = set()
        if change == "wake":
            state.update(unconscious_until=None, bleeding_since=None)
            remove.update({"unconscious", "bleeding"})
        elif change == "stabilize":
            if "bleeding" not in ctx.actor.statuses:
                raise RulesError(
                    "not_bleeding",
                    t("error.not_bleeding", actor=ctx.actor.name),
                    f"targets.{index}",
                )
            amount = roll_die(dice, 4, "healing").total
            state.update(hp=amount, bleeding_since=None, unconscious_until=None)
            remove.update({"unconscious", "bleeding"})
        elif change == "not_resting":
            state["active_day"] = ctx.now.day
        elif change == "resting":
            state["active_day"] = None
        elif change == "clear_jams":
            state["jams"] = {}
            remove.add("jammed")
        else:
            state.update(round_of=-1, dodge_penalty_until=None, no_delicate_until=None)
            remove.add("dodging")
        lines.append(Line(t(f"line.gm_{change}", actor=ctx.actor.name)))
        effects.append(ActorChange(target_id, state, frozenset(add), frozenset(remove)))
    card = Card(
        kind="gm_condition",
        title=t("card.gm_condition"),
        speaker=None,
        visibility="public",
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_combat_end(world: World, action: Action, dice: DiceSource) -> Resolution:
    refuse_under_tracker(world)
    card = Card(kind="combat_end", title=t("card.combat_end"), speaker=None)
    return Resolution(action, (card,), (WorldChange({DATA_KEY: without_order(world)}),))
