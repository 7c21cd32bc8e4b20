"""Omertà skill rolls: 1D100 against a percentage, critical, fumble, success category, opposed.

'se deberá lanzar 1D100 y comprobar el número resultante con el valor de la habilidad ...
Si el número obtenido es igual o menos que la puntuación de la habilidad, la habilidad tendrá
éxito.' 01 is always a critical and 00 (read 100) always a fumble.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceSource, Die
from rules.omerta.tables import (
    ALWAYS_CRITICAL,
    ALWAYS_FUMBLE,
    CRITICAL_FRACTION,
    FUMBLE_BASE,
)
from rules.rolls import Percentile, roll_d100

Grade = Literal["critical", "success", "failure", "fumble"]
Automatic = Literal["none", "success", "failure"]


def critical_threshold(chance: int) -> int:
    """The highest roll that is a critical: 10 % of the modified skill, rounded down."""
    return max(0, chance) // CRITICAL_FRACTION


def fumble_from(skill: int) -> int:
    """The lowest roll that fumbles: 90 + the tens digit of the skill (clamped 0-9)."""
    tens = min(9, max(0, skill) // 10)
    return FUMBLE_BASE + tens


def grade_roll(roll: int, chance: int, fumble_skill: int | None = None) -> Grade:
    """How a 1D100 roll against ``chance`` (the modified skill) went.

    ``fumble_skill`` is the skill whose tens digit sets the fumble range (the modified
    chance unless the world rules otherwise).
    """
    if roll >= ALWAYS_FUMBLE:
        return "fumble"
    if roll == ALWAYS_CRITICAL:
        return "critical"
    if roll >= fumble_from(chance if fumble_skill is None else fumble_skill):
        return "fumble"
    if roll <= critical_threshold(chance):
        return "critical"
    return "success" if roll <= chance else "failure"


@dataclass(frozen=True)
class Check:
    """One skill roll: the percentile dice, the base skill, the modifiers and the verdict."""

    base: int
    modifier: int
    roll: int | None
    grade: Grade
    dice: tuple[Die, ...]
    automatic: Automatic = "none"

    @property
    def chance(self) -> int:
        return self.base + self.modifier

    @property
    def success(self) -> bool:
        return self.grade in ("critical", "success")

    @property
    def critical(self) -> bool:
        return self.grade == "critical"

    @property
    def fumble(self) -> bool:
        return self.grade == "fumble"

    @property
    def category(self) -> int:
        """'Categoría de éxito': ruled skill minus roll (bigger is better); 0 without a roll."""
        return 0 if self.roll is None else self.chance - self.roll


def _dice_of(percentile: Percentile) -> tuple[Die, ...]:
    return (percentile.tens, percentile.units)


def roll_check(
    dice: DiceSource,
    base: int,
    modifier: int = 0,
    *,
    role: str = "skill",
    automatic: Automatic = "none",
    fumble_on_base: bool = False,
) -> Check:
    """Roll 1D100 against ``base + modifier``; the Don may rule it automatic (no dice)."""
    if automatic == "success":
        return Check(base, modifier, None, "success", (), automatic)
    if automatic == "failure":
        return Check(base, modifier, None, "failure", (), automatic)
    percentile = roll_d100(dice, role)
    chance = base + modifier
    grade = grade_roll(percentile.value, chance, base if fumble_on_base else None)
    return Check(base, modifier, percentile.value, grade, _dice_of(percentile))


Winner = Literal["first", "second", "tie"]


def opposed_winner(first: Check, second: Check) -> Winner:
    """The text's list for 'Habilidades y características enfrentadas'.

    A fumble gives the other side the win; both fumbling or both failing is a tie
    (repeat next round); a success beats a failure; a critical beats a plain success;
    two criticals tie; two plain successes compare success categories, equal ties.
    """
    if first.fumble != second.fumble:
        return "second" if first.fumble else "first"
    if first.fumble and second.fumble:
        return "tie"
    if first.success != second.success:
        return "first" if first.success else "second"
    if not first.success:
        return "tie"
    if first.critical != second.critical:
        return "first" if first.critical else "second"
    if first.critical:
        return "tie"
    if first.category != second.category:
        return "first" if first.category > second.category else "second"
    return "tie"
