"""Turning a successful attack into wounds: location, damage dice, maximum on a critical,
shotgun damage by range, the precise shot's incapacitation, and the target's new state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Actor, Line, RulesError, World, t
from rules.omerta.combat import location_table, roll_damage, roll_location
from rules.omerta.damage import DamageOutcome, Hit, take_hits
from rules.omerta.sheet import Weapon, parse_sheet
from rules.omerta.state import Clock
from rules.omerta.tables import SHOTGUN_DAMAGE


def shotgun_expression(weapon: Weapon, range_m: int | None) -> str:
    """The damage of a shotgun or lupara at ``range_m`` metres (tables.SHOTGUN_DAMAGE)."""
    if range_m is None:
        raise RulesError(
            "range_needed", t("error.range_needed", weapon=weapon.label), "params.range_m"
        )
    bands = SHOTGUN_DAMAGE[str(weapon.type)]
    for top, expression in bands:
        if range_m <= top:
            return expression
    raise RulesError(
        "out_of_range",
        t("error.out_of_range", weapon=weapon.label, maximum=bands[-1][0]),
        "params.range_m",
    )


def damage_expression(weapon: Weapon, range_m: int | None) -> str:
    if weapon.shotgun and weapon.damage is None:
        return shotgun_expression(weapon, range_m)
    if weapon.shotgun and range_m is not None:
        return shotgun_expression(weapon, range_m)
    return str(weapon.damage)


def maximum_on_critical(world: World, weapon: Weapon, critical: bool) -> bool:
    """'En caso de obtener un crítico ... con un arma de fuego se provoca el daño máximo'."""
    if not critical:
        return False
    return weapon.firearm or str(world.settings.get("critical_max_damage", "firearms")) == "all"


@dataclass(frozen=True)
class Delivered:
    outcome: DamageOutcome
    dice: tuple[Die, ...]
    lines: tuple[Line, ...]


def deliver(
    world: World,
    now: Clock,
    weapon: Weapon,
    target: Actor,
    dice: DiceSource,
    *,
    critical: bool,
    location: str | None = None,
    roll_for_location: bool = True,
    range_m: int | None = None,
    half: bool = False,
    precise_area: str | None = None,
    bonus: int = 0,
) -> Delivered:
    """One wound from ``weapon`` on ``target``: roll location and damage, fold it in."""
    rolled: list[Die] = []
    lines: list[Line] = []
    if location is None and roll_for_location:
        location, die = roll_location(dice, location_table(world.settings, weapon.ranged))
        rolled.append(die)
    maximum = maximum_on_critical(world, weapon, critical)
    amount, damage_dice = roll_damage(dice, damage_expression(weapon, range_m), maximum)
    rolled.extend(damage_dice)
    if maximum:
        lines.append(Line(t("line.maximum_damage")))
    if bonus:
        lines.append(Line(t("line.damage_bonus"), f"+{bonus}"))
        amount += bonus
    if half:
        amount //= 2
        lines.append(Line(t("line.half_damage")))
    hit = Hit(
        amount,
        "contusion" if weapon.damage_type == "contusion" else "lethal",
        location,
        weapon.firearm,
    )
    outcome = take_hits(target, parse_sheet(target.sheet), (hit,), now, is_attack=True)
    outcome = _precise(outcome, target, precise_area)
    return Delivered(outcome, tuple(rolled), (*lines, *outcome.lines))


def _precise(outcome: DamageOutcome, target: Actor, area: str | None) -> DamageOutcome:
    """'un disparo en las rodillas imposibilitaría efectuar persecuciones ... en las manos
    impediría usar la mano herida' until medical attention."""
    if area not in ("knee", "hand") or outcome.killed or not any(outcome.dealt):
        return outcome
    disabled: list[Any] = list(target.state.get("disabled", []))
    if area not in disabled:
        disabled.append(area)
    state = {**outcome.state, "disabled": disabled}
    add = outcome.add | ({"impaired"} if area == "knee" else set())
    line = Line(t(f"line.disabled_{area}", actor=target.name))
    return DamageOutcome(
        outcome.actor_id,
        outcome.before,
        outcome.after,
        outcome.dealt,
        state,
        frozenset(add),
        outcome.remove,
        (*outcome.lines, line),
        outcome.killed,
        outcome.knocked_out,
    )


def bullets_hit(
    world: World,
    now: Clock,
    weapon: Weapon,
    target: Actor,
    dice: DiceSource,
    count: int,
    *,
    critical: bool,
    locations: tuple[str | None, ...] = (),
    first_location_rolled: bool = False,
) -> Delivered:
    """``count`` bullets on one target, each with its own damage roll (Thompson)."""
    rolled: list[Die] = []
    lines: list[Line] = []
    hits: list[Hit] = []
    maximum = maximum_on_critical(world, weapon, critical)
    chosen = list(locations)
    if first_location_rolled and count:
        location, die = roll_location(dice, location_table(world.settings, True))
        rolled.append(die)
        chosen = [location, *chosen]
    for index in range(count):
        amount, damage_dice = roll_damage(dice, str(weapon.damage), maximum, f"damage.{index + 1}")
        rolled.extend(damage_dice)
        where = chosen[index] if index < len(chosen) else None
        hits.append(Hit(amount, "lethal", where, True))
    if maximum:
        lines.append(Line(t("line.maximum_damage")))
    outcome = take_hits(target, parse_sheet(target.sheet), tuple(hits), now, is_attack=True)
    return Delivered(outcome, tuple(rolled), (*lines, *outcome.lines))
