"""Combat bookkeeping shared by every action: modifiers with their labels, actions spent,
damage dice, hit location and the card lines of a roll.

'PJ's y PNJ's tienen siempre una acción de combate por turno. Cada acción posterior ... -20%
acumulativo.' The dodge's '-20% a su siguiente acción' and the sprint's '-20% a sus acciones
durante ese asalto' are read from the actor's state here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Actor, Line, Outcome, RulesError, Section, Text, World, t
from rules.omerta.checks import Check
from rules.omerta.sheet import Sheet, Weapon, parse_sheet
from rules.omerta.state import (
    Clock,
    RoundCounters,
    clock,
    counters,
    counters_json,
    dodge_penalty_due,
    world_data,
)
from rules.omerta.tables import (
    DODGE_NEXT_ACTION_PENALTY,
    EXTRA_ACTION_PENALTY,
    FREE_MOVE_M,
    LOCATION_DIE,
    SPRINT_PENALTY,
    location_for,
)
from rules.rolls import parse_expression, roll_die, roll_expression
from rules.tracker import KEY as TRACKER_KEY


@dataclass(frozen=True)
class Modifier:
    key: str
    value: int

    @property
    def line(self) -> Line:
        return Line(t(f"mod.{self.key}"), f"{self.value:+d}")


def total(modifiers: tuple[Modifier, ...]) -> int:
    return sum(m.value for m in modifiers)


@dataclass(frozen=True)
class Ctx:
    """The acting character as the rules see it for one action."""

    world: World
    actor: Actor
    sheet: Sheet
    now: Clock
    rounds: RoundCounters

    @property
    def settings(self) -> Mapping[str, Any]:
        return self.world.settings


def context(world: World, actor_id: str, field: str = "actor") -> Ctx:
    actor = world.actor(actor_id, field)
    now = clock(world)
    return Ctx(world, actor, parse_sheet(actor.sheet), now, counters(actor, now))


def require_able(ctx: Ctx) -> None:
    if "dead" in ctx.actor.statuses:
        raise RulesError("actor_dead", t("error.actor_dead", actor=ctx.actor.name), "actor")
    if "unconscious" in ctx.actor.statuses:
        raise RulesError(
            "actor_unconscious", t("error.actor_unconscious", actor=ctx.actor.name), "actor"
        )


def weapon_of(ctx: Ctx, key: str, field: str = "params.weapon") -> Weapon:
    weapon = ctx.sheet.weapons.get(key)
    if weapon is None:
        raise RulesError(
            "unknown_weapon",
            t("error.unknown_weapon", actor=ctx.actor.name, weapon=key[:40]),
            field,
        )
    return weapon


def in_combat(world: World) -> bool:
    """A fight is on from the first initiative roll until the Don ends it (the system's own
    ``initiative``/``combat_end`` actions, or the shared combat tracker's start and end)."""
    return "order" in world_data(world) or tracker_running(world)


def tracker_running(world: World) -> bool:
    """The shared combat tracker (``world.data["tracker"]``) runs a fight in this world."""
    return bool(world.data.get(TRACKER_KEY))


def action_modifiers(ctx: Ctx, don: int = 0, *, combat: bool = True) -> tuple[Modifier, ...]:
    """What every action of the round carries: the Don's call, extra actions, dodge, sprint.

    ``combat`` False (care given outside a fight) leaves out the round's extra-action penalty.
    """
    found: list[Modifier] = []
    if don:
        found.append(Modifier("don", don))
    if ctx.rounds.actions and combat:
        found.append(Modifier("extra_action", -EXTRA_ACTION_PENALTY * ctx.rounds.actions))
    if dodge_penalty_due(ctx.actor, ctx.now):
        found.append(Modifier("after_dodge", -DODGE_NEXT_ACTION_PENALTY))
    if ctx.rounds.sprint > FREE_MOVE_M:
        found.append(Modifier("sprint", -SPRINT_PENALTY))
    return tuple(found)


def spend_action(
    ctx: Ctx,
    *,
    target: str | None = None,
    weapon: str | None = None,
    shots: int = 0,
    count: bool = True,
    physical: bool = True,
) -> dict[str, Any]:
    """The state after one more action this round (counters, dodge penalty used, aim dropped)."""
    rounds = ctx.rounds
    shots_map = dict(rounds.shots)
    if weapon is not None and shots:
        shots_map[weapon] = shots_map.get(weapon, 0) + shots
    rounds = replace(
        rounds,
        actions=rounds.actions + (1 if count else 0),
        last_target=target if target is not None else rounds.last_target,
        shots=shots_map,
    )
    state = counters_json(rounds, ctx.now)
    if count and dodge_penalty_due(ctx.actor, ctx.now):
        state["dodge_penalty_until"] = None
    if physical:
        state["active_day"] = ctx.now.day
    return state


def roll_damage(
    dice: DiceSource, expression: str, maximum: bool, role: str = "damage"
) -> tuple[int, tuple[Die, ...]]:
    """A weapon's damage; ``maximum`` (a firearm critical) rolls nothing and takes the top."""
    parsed = parse_expression(expression)
    if maximum:
        return parsed.maximum_without_aces, ()
    rolled = roll_expression(dice, parsed, role)
    return rolled.total, rolled.dice


def roll_location(dice: DiceSource, table: str, role: str = "location") -> tuple[str, Die]:
    die = roll_die(dice, LOCATION_DIE, role)
    return location_for(table, die.total), die


def location_table(settings: Mapping[str, Any], ranged: bool) -> str:
    chosen = str(settings.get("location_table", "split"))
    if chosen == "split":
        return "brp_missile" if ranged else "brp_melee"
    return chosen


def outcome_of(check: Check) -> Outcome:
    margin = None if check.roll is None else check.category
    return _outcome(check.grade, check.success, margin)


@lru_cache(maxsize=256)
def _outcome(grade: str, success: bool, margin: int | None) -> Outcome:
    """Outcomes are frozen values: equal ones are shared."""
    return Outcome(grade, t(f"outcome.{grade}"), success, margin)


@lru_cache(maxsize=1024)
def _figure_line(key: str, value: int | str) -> Line:
    """A card line of a label and a figure (chance, die, category): frozen, shared."""
    return Line(t(key), value)


@lru_cache(maxsize=8)
def _automatic_line(automatic: str) -> Line:
    return Line(t(f"line.automatic_{automatic}"))


def check_lines(check: Check, skill_label: Text, modifiers: tuple[Modifier, ...]) -> Section:
    lines = [Line(t("line.skill", skill=skill_label), f"{check.base}%")]
    lines.extend(m.line for m in modifiers)
    lines.append(_figure_line("line.chance", f"{check.chance}%"))
    if check.automatic != "none":
        lines.append(_automatic_line(check.automatic))
    else:
        lines.append(_figure_line("line.rolled", check.roll if check.roll is not None else 0))
        lines.append(_figure_line("line.category", check.category))
    return Section(_ROLL_SECTION, tuple(lines))


_ROLL_SECTION = t("section.roll")


def skill_label(sheet: Sheet, key: str) -> Text:
    skill = sheet.skills.get(key)
    if skill is not None and skill.label != key:
        return t("raw", text=skill.label)
    return t(f"skill.{key}") if key in KNOWN_SKILLS else t("raw", text=key)


KNOWN_SKILLS: frozenset[str] = frozenset(
    {
        "arma_blanca",
        "pelea",
        "esquivar",
        "arma_corta",
        "fusil",
        "escopeta",
        "metralleta",
        "lanzar",
        "primeros_auxilios",
        "medicina",
        "mecanica",
    }
)
