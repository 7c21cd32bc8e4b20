"""Shared helpers of the actions: a fighter's view, refusals, action accounting, status diffs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.checks import Modifier, TaResult
from rules.cunchillos.health import derived_statuses, hit_points, timers_of
from rules.cunchillos.initiative import declaration_of, entry_for, step_of_action
from rules.cunchillos.modifiers import incapacitated
from rules.cunchillos.settings import rules_of
from rules.cunchillos.sheet import Sheet, parse_sheet
from rules.memo import by_identity
from rules.model import Actor, ActorChange, Line, RulesError, Text, World, t
from rules.system import sets_nothing_new
from rules.tracker import Combat, combat_of

MANAGED: frozenset[str] = frozenset(
    {
        "dead",
        "unconscious",
        "bleeding",
        "stunned",
        "incapacitated",
        "impaired",
        "wounded",
        "prone",
        "grappled",
    }
)
"""Statuses the state drives; any other status a GM sets stays as it is."""


@dataclass(frozen=True)
class Fighter:
    actor: Actor
    sheet: Sheet
    state: Mapping[str, Any]

    @property
    def id(self) -> str:
        return self.actor.id

    @property
    def name(self) -> str:
        return self.actor.name


def fighter(world: World, actor_id: str, field: str = "actor") -> Fighter:
    actor = world.actor(actor_id, field)
    return Fighter(actor, parse_sheet(actor.sheet), actor.state)


def refuse(code: str, key: str, field: str | None = None, **params: Any) -> RulesError:
    return RulesError(code, t(f"error.{key}", **params), field)


def check_can_act(f: Fighter, *, physical: bool) -> None:
    """The dead, the unconscious and (for physical acts) the incapacitated cannot act."""
    if f.state.get("dead"):
        raise refuse("actor_dead", "actor_dead", "actor", actor=f.name)
    if hit_points(f.state, f.sheet) <= 0 or timers_of(f.state)["unconscious"] > 0:
        raise refuse("actor_unconscious", "actor_unconscious", "actor", actor=f.name)
    if physical and incapacitated(f.state):
        raise refuse("actor_incapacitated", "actor_incapacitated", "actor", actor=f.name)
    if physical and declaration_of(f.state).get("movement") == "sprint":
        raise refuse("sprinting", "sprinting", "actor", actor=f.name)


def running_order(world: World) -> list[str] | None:
    """The order of the round the GM started with ``initiative`` (highest first), while it
    runs and ``enforce_order`` is on; None otherwise."""
    data = world.data.get("cunchillos")
    if not isinstance(data, Mapping) or not data.get("running"):
        return None
    if not rules_of(world.settings).enforce_order:
        return None
    order = data.get("order", [])
    return [a for a in order if isinstance(a, str) and a in world.actors] if order else None


def able(f: Fighter) -> bool:
    """Can take part in the round's order (alive, conscious, not incapacitated)."""
    return not (
        f.state.get("dead")
        or hit_points(f.state, f.sheet) <= 0
        or timers_of(f.state)["unconscious"] > 0
        or incapacitated(f.state)
    )


def first_round_of(world: World) -> bool:
    """The ambush penalty's '1º turno': the world's first round (or the tracker's)."""
    data = world.data.get("cunchillos")
    return int(data.get("round", 1) or 1) <= 1 if isinstance(data, Mapping) else True


def next_slot(world: World, f: Fighter) -> tuple[int, int] | None:
    """(initiative, secondary) of the fighter's next declared action, None when none is left."""
    declared = declaration_of(f.state)
    if declared.get("movement") == "sprint":
        return None
    actions = int(declared.get("actions", 1) or 1)
    used = int(declared.get("used", 0) or 0)
    if used >= actions:
        return None
    entry = entry_for(f.id, f.name, f.sheet, f.state, first_round_of(world))
    step = step_of_action(entry.primary, used, bool(declared.get("two_weapons")))
    return step, entry.secondary


def tracked(world: World, f: Fighter) -> Combat | None:
    """The shared combat tracker's combat when it runs with ``f`` in it and the order is
    enforced: then the tracker's order is the round's order (RULES.md 42)."""
    if not rules_of(world.settings).enforce_order:
        return None
    combat = combat_of(world)
    return combat if combat is not None and f.id in combat.actor_ids else None


def slot_actions(combat: Combat, actor_id: str) -> tuple[int, ...] | None:
    """The action numbers (1-based) ``actor_id`` has in the tracker's current slot; ()
    for a slot the tracker made itself (interrupt, delay, joined: any next action);
    None when it is not the actor's turn."""
    slot = combat.current
    if slot is None or actor_id not in slot.actors:
        return None
    raw = slot.data.get("actions")
    numbers = raw.get(actor_id) if isinstance(raw, Mapping) else None
    if not isinstance(numbers, list):
        return ()
    return tuple(n for n in numbers if isinstance(n, int) and not isinstance(n, bool))


def _check_tracker_turn(world: World, combat: Combat, f: Fighter) -> None:
    if combat.phase == "declare":
        raise refuse(
            "declarations_pending",
            "declarations_pending",
            "actor",
            actor=f.name,
            first=_name(world, combat.next_to_declare or ""),
        )
    numbers = slot_actions(combat, f.id)
    if numbers is None:
        slot = combat.current
        first = ", ".join(_name(world, a) for a in slot.actors) if slot else ""
        raise refuse("out_of_order", "out_of_order", "actor", actor=f.name, first=first)
    used = int(declaration_of(f.state).get("used", 0) or 0)
    if numbers and used >= max(numbers):
        raise refuse("out_of_order", "next_step", "actor", actor=f.name)


def _name(world: World, actor_id: str) -> str:
    actor = world.actors.get(actor_id)
    return actor.name if actor is not None else actor_id


def check_turn(world: World, f: Fighter) -> None:
    """'3º Realizar las acciones siguiendo el orden de la iniciativa': while a round runs,
    nobody acts while another fighter's next action comes at a higher initiative
    (the same initiative and secondary: they act at once). With the combat tracker,
    only the actors of its current slot act."""
    combat = tracked(world, f)
    if combat is not None:
        _check_tracker_turn(world, combat, f)
        return
    order = running_order(world)
    if order is None or f.id not in order:
        return
    mine = next_slot(world, f)
    if mine is None:
        return
    for other_id in order:
        if other_id == f.id:
            continue
        other = fighter(world, other_id)
        theirs = next_slot(world, other) if able(other) else None
        if theirs is not None and theirs > mine:
            raise refuse("out_of_order", "out_of_order", "actor", actor=f.name, first=other.name)


def check_declaration_turn(world: World, f: Fighter) -> None:
    """'2º Decir qué se va a hacer ... de menor iniciativa a mayor': while a round runs,
    everyone with a lower initiative declares first."""
    if tracked(world, f) is not None:
        return  # the tracker's declaration phase orders them (tracker_hooks)
    order = running_order(world)
    if order is None or f.id not in order:
        return
    first = first_round_of(world)
    mine = entry_for(f.id, f.name, f.sheet, f.state, first)
    for other_id in reversed(order):
        other = fighter(world, other_id)
        if other.id == f.id or not able(other) or declaration_of(other.state).get("declared"):
            continue
        theirs = entry_for(other.id, other.name, other.sheet, other.state, first)
        if (theirs.primary, theirs.secondary) < (mine.primary, mine.secondary):
            raise refuse(
                "out_of_order", "out_of_order_declare", "actor", actor=f.name, first=other.name
            )


def use_actions(
    f: Fighter, world: World | None = None, count: int = 1
) -> tuple[dict[str, Any], int]:
    """Spend ``count`` of the declared actions; returns the new declaration and the first index.

    With ``world``, a running round's order is checked first (:func:`check_turn`). In the
    tracker's slot for action k, the earlier actions whose turn passed unused are lost.
    """
    numbers: tuple[int, ...] | None = None
    if world is not None:
        check_turn(world, f)
        combat = tracked(world, f)
        numbers = None if combat is None else slot_actions(combat, f.id)
    declared = dict(declaration_of(f.state))
    actions = int(declared.get("actions", 1) or 1)
    used = int(declared.get("used", 0) or 0)
    if numbers:
        used = max(used, min(numbers) - 1)
    if used + count > actions:
        raise refuse("no_actions_left", "no_actions_left", "actor", actor=f.name, actions=actions)
    declared["actions"] = actions
    declared["used"] = used + count
    return declared, used


@by_identity(1024)
def _actor_statuses(actor: Actor) -> frozenset[str]:
    """The statuses an (immutable) actor's own state implies, once per actor object."""
    return derived_statuses(actor.state, parse_sheet(actor.sheet))


def change(f: Fighter, state: Mapping[str, Any]) -> ActorChange:
    """Set ``state`` keys and bring the actor's statuses in line with the new state."""
    if f.state is f.actor.state and sets_nothing_new(f.state, state):
        # The actor's state stays as it is (a TA's next_ta: 0): its statuses, once per actor
        # (a Fighter with a state of its own, as manoeuvres build, is worked out in full).
        merged: Mapping[str, Any] = f.state
        derived = _actor_statuses(f.actor)
    else:
        merged = {**f.state, **state}
        derived = derived_statuses(merged, f.sheet)
    manual = merged.get("manual", [])
    wanted = derived | frozenset(m for m in manual if isinstance(m, str))
    if merged.get("dead"):
        wanted = frozenset({"dead"}) | (wanted - MANAGED)
    current = f.actor.statuses
    return ActorChange(f.id, dict(state), wanted - current, (current - wanted) & MANAGED)


def modifier_lines(mods: tuple[Modifier, ...]) -> tuple[Line, ...]:
    return tuple(Line(m.label, f"{m.value:+d}") for m in mods)


def ta_lines(who: str, result: TaResult, what: Text) -> tuple[Line, ...]:
    roll = result.roll
    lines = [
        Line(t("line.ta", actor=who, what=what, value=result.value)),
        Line(
            t(
                "line.dice",
                first=roll.first.first,
                second=roll.second.first,
                high=roll.high,
                low=roll.low,
            )
        ),
    ]
    if roll.location is not None:
        lines.append(Line(t("line.location_die", face=roll.location.first)))
    lines.extend(modifier_lines(result.modifiers))
    lines.append(
        Line(t("line.total", total=result.total, value=result.value, margin=result.margin))
    )
    lines.append(Line(t("line.level", actor=who, level=t(f"level.{result.level}"))))
    return tuple(lines)


def what_label(sheet: Sheet, key: str) -> Text:
    skill = sheet.skills.get(key)
    if skill is not None:
        return t("raw", text=skill.label)
    return t(f"char.{key}") if key in ("fue", "coo", "res") else t("raw", text=key)
