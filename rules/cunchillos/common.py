"""Shared helpers of the actions: a fighter's view, refusals, action accounting, status diffs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.checks import Modifier, TaResult
from rules.cunchillos.health import derived_statuses, hit_points, timers_of
from rules.cunchillos.initiative import declaration_of
from rules.cunchillos.modifiers import incapacitated
from rules.cunchillos.sheet import Sheet, parse_sheet
from rules.model import Actor, ActorChange, Line, RulesError, Text, World, t

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


def use_actions(f: Fighter, count: int = 1) -> tuple[dict[str, Any], int]:
    """Spend ``count`` of the declared actions; returns the new declaration and the first index."""
    declared = dict(declaration_of(f.state))
    actions = int(declared.get("actions", 1) or 1)
    used = int(declared.get("used", 0) or 0)
    if used + count > actions:
        raise refuse("no_actions_left", "no_actions_left", "actor", actor=f.name, actions=actions)
    declared["actions"] = actions
    declared["used"] = used + count
    return declared, used


def change(f: Fighter, state: Mapping[str, Any]) -> ActorChange:
    """Set ``state`` keys and bring the actor's statuses in line with the new state."""
    merged = {**f.state, **state}
    manual = merged.get("manual", [])
    wanted = derived_statuses(merged, f.sheet) | frozenset(m for m in manual if isinstance(m, str))
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
