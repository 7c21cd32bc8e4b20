"""o3d10 attacks and damage as pure functions: what is rolled against what, and the damage.

Melee ('Ataque cuerpo a cuerpo'): Físico + Cuerpo a Cuerpo + 1o3d10 against the target's
Defensa; weapon damage (unarmed 1d6, or 1d4 in the first version) plus 1d6 per full 10
above Defensa. Ranged ('Ataque a Distancia'): Destreza + Armas a Distancia + 1o3d10
against the range's difficulty plus the target's circumstances; firearms first pass a
d20 reliability roll. Damage dice explode ('Las tiradas de daño también «explotan»').
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from rules.dice import DiceSource, Die
from rules.o3d10.checks import CheckResult, roll_check
from rules.o3d10.sheet import Sheet, Weapon
from rules.o3d10.tables import (
    DEFAULT_RELIABILITY,
    DEFENSE_ATTRIBUTE,
    DEFENSE_SKILL,
    FIREARM_RELIABILITY,
    IMPROVISED_DAMAGE,
    MARGIN_DIE,
    MARGIN_STEP,
    MELEE_ATTRIBUTE,
    MELEE_MODIFIERS,
    MELEE_SKILL,
    RANGE_DIFFICULTY,
    RANGED_ATTRIBUTE,
    RANGED_MODIFIERS,
    RANGED_SKILL,
    RELIABILITY_DIE,
    TWO_WEAPONS_BONUS,
    TWO_WEAPONS_PENALTY,
    UNARMED_DAMAGE,
)
from rules.rolls import ExpressionRoll, Rank, parse_expression, roll_die, roll_expression

Mode = Literal["melee", "ranged"]
UNARMED = "unarmed"
IMPROVISED = "improvised"


@dataclass(frozen=True)
class Modifier:
    """A named number added to the attack roll or to its difficulty (label ``mod.<key>``)."""

    key: str
    value: int


def defense(sheet: Sheet, settings: Mapping[str, Any]) -> int:
    """Defensa: the sheet's own value, else base + Destreza + Cuerpo a Cuerpo + armour."""
    if "defensa" in sheet.combat:
        return sheet.combat["defensa"]
    return (
        int(settings.get("defense_base", 5))
        + sheet.attribute(DEFENSE_ATTRIBUTE)
        + sheet.skill_value(DEFENSE_SKILL)
        + sheet.armour.defense
    )


def unarmed(settings: Mapping[str, Any]) -> Weapon:
    return Weapon(UNARMED, UNARMED, "cuerpo", UNARMED_DAMAGE[str(settings["unarmed_damage"])])


def improvised(weapon: Weapon) -> Weapon:
    """'Armas a distancia en cuerpo a cuerpo ... daño de arma improvisada 1d6+1'."""
    return replace(weapon, kind="cuerpo", damage=IMPROVISED_DAMAGE, capacity=0)


def average(expression: str) -> float:
    parsed = parse_expression(expression)
    return parsed.count * (parsed.sides + 1) / 2 + parsed.modifier


def reliability_of(weapon: Weapon) -> int:
    if weapon.reliability is not None:
        return weapon.reliability
    return FIREARM_RELIABILITY.get(weapon.model, DEFAULT_RELIABILITY)


@dataclass(frozen=True)
class AttackPlan:
    """Everything about an attack that is known before a die is rolled."""

    mode: Mode
    weapon: Weapon
    attribute: str
    skill: str
    base: int
    attack_mods: tuple[Modifier, ...]
    difficulty_base: int
    difficulty_mods: tuple[Modifier, ...]
    margin_dice: bool
    hand: str = ""
    skill_value: int = 0

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.attack_mods)

    @property
    def difficulty(self) -> int:
        return self.difficulty_base + sum(m.value for m in self.difficulty_mods)

    @property
    def unknown_skill(self) -> bool:
        """'Cuando una habilidad no tiene puntos, se guarda el dado menor'."""
        return self.skill_value == 0


def melee_plan(
    sheet: Sheet,
    weapon: Weapon,
    target_defense: int,
    mods: tuple[Modifier, ...],
    *,
    hand: str = "",
) -> AttackPlan:
    skill = sheet.skill_value(MELEE_SKILL)
    return AttackPlan(
        "melee",
        weapon,
        MELEE_ATTRIBUTE,
        MELEE_SKILL,
        sheet.attribute(MELEE_ATTRIBUTE) + skill,
        mods,
        target_defense,
        (),
        True,
        hand,
        skill,
    )


def ranged_plan(
    sheet: Sheet,
    weapon: Weapon,
    distance: str,
    difficulty_mods: tuple[Modifier, ...],
    attack_mods: tuple[Modifier, ...],
    settings: Mapping[str, Any],
) -> AttackPlan:
    skill = sheet.skill_value(RANGED_SKILL)
    table = RANGE_DIFFICULTY[str(settings["range_table"])]
    return AttackPlan(
        "ranged",
        weapon,
        RANGED_ATTRIBUTE,
        RANGED_SKILL,
        sheet.attribute(RANGED_ATTRIBUTE) + skill,
        attack_mods,
        table[distance],
        difficulty_mods,
        bool(settings.get("margin_dice_ranged", False)),
        "",
        skill,
    )


def melee_mods(behind: bool, flanking: bool) -> tuple[Modifier, ...]:
    chosen = (("behind", behind), ("flanking", flanking))
    return tuple(Modifier(key, MELEE_MODIFIERS[key]) for key, on in chosen if on)


def ranged_mods(running: bool, prone: bool, cover: str, crowd: bool) -> tuple[Modifier, ...]:
    mods = [
        Modifier(key, RANGED_MODIFIERS[key])
        for key, on in (("running", running), ("prone", prone))
        if on
    ]
    if cover != "ninguna":
        mods.append(Modifier(f"cover.{cover}", RANGED_MODIFIERS[f"cover.{cover}"]))
    if crowd:
        mods.append(Modifier("crowd", RANGED_MODIFIERS["crowd"]))
    return tuple(mods)


def two_weapon_bonus() -> Modifier:
    return Modifier("two_weapons", TWO_WEAPONS_BONUS)


def two_weapon_penalty(hand: str) -> Modifier:
    return Modifier(f"hand.{hand}", TWO_WEAPONS_PENALTY[hand])


def better_weapon(first: Weapon, second: Weapon) -> Weapon:
    """'El daño causado es el mayor de las armas usadas' (by average damage; ties: the first)."""
    return second if average(second.damage) > average(first.damage) else first


@dataclass(frozen=True)
class Reliability:
    """The d20 a firearm must pass: a face at or below ``threshold`` fails; a natural 1 jams."""

    die: Die
    threshold: int

    @property
    def failed(self) -> bool:
        return self.die.first <= self.threshold

    @property
    def jammed(self) -> bool:
        return self.failed and self.die.first == 1


def roll_reliability(dice: DiceSource, weapon: Weapon) -> Reliability:
    return Reliability(roll_die(dice, RELIABILITY_DIE, "fiabilidad"), reliability_of(weapon))


@dataclass(frozen=True)
class AttackResult:
    plan: AttackPlan
    check: CheckResult

    @property
    def hit(self) -> bool:
        return bool(self.check.success)

    @property
    def margin(self) -> int:
        return self.check.total - self.plan.difficulty

    @property
    def extra_dice(self) -> int:
        """'Por cada 10 que se supere la defensa se suma 1d6 al daño realizado'."""
        if not self.hit or not self.plan.margin_dice:
            return 0
        return self.margin // MARGIN_STEP


def roll_attack(
    dice: DiceSource, plan: AttackPlan, rank: Rank, extra_modifier: int = 0
) -> AttackResult:
    check = roll_check(
        dice,
        "skill",
        plan.base,
        rank,
        modifier=plan.modifier + extra_modifier,
        difficulty=plan.difficulty,
    )
    return AttackResult(plan, check)


@dataclass(frozen=True)
class DamageRoll:
    """Weapon dice and margin dice, every one exploding on its maximum."""

    weapon: ExpressionRoll
    extra: tuple[Die, ...]

    @property
    def total(self) -> int:
        return max(0, self.weapon.total + sum(d.total for d in self.extra))

    @property
    def dice(self) -> tuple[Die, ...]:
        return self.weapon.dice + self.extra


def roll_damage(dice: DiceSource, expression: str, extra_dice: int) -> DamageRoll:
    weapon = roll_expression(dice, parse_expression(expression, explode=True), "dano")
    extra = tuple(
        roll_die(dice, MARGIN_DIE, "dano.margen", explode=True) for _ in range(extra_dice)
    )
    return DamageRoll(weapon, extra)
