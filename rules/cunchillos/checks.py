"""The Tirada de Acción (TA): two d10 plus modifiers against a value, lower is better.

The text never says how a TA succeeds; RULES.md rules it: total = both action
dice + every modifier (a "+5" makes it harder); success when total <= value.
The level comes from doubles (default) or from the margin; d+ and d- are the
higher and lower action die, and the dE is a third d10 named before rolling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cunchillos.settings import Rules
from rules.cunchillos.tables import LEVELS, SUCCESS_LEVELS
from rules.dice import DiceSource, Die
from rules.model import Text, t
from rules.rolls import roll_die


@dataclass(frozen=True)
class Modifier:
    """One modifier to a TA with its message key: positive is harder."""

    key: str
    value: int
    detail: str = ""

    @property
    def label(self) -> Text:
        if self.detail:
            return t(f"mod.{self.key}", detail=self.detail)
        return t(f"mod.{self.key}")


@dataclass(frozen=True)
class TaRoll:
    """The two action dice and, for attacks, the location die (dE)."""

    first: Die
    second: Die
    location: Die | None = None

    @property
    def high(self) -> int:
        """d+: the higher action die."""
        return max(self.first.first, self.second.first)

    @property
    def low(self) -> int:
        """d-: the lower action die."""
        return min(self.first.first, self.second.first)

    @property
    def natural(self) -> int:
        return self.first.first + self.second.first

    @property
    def doubles(self) -> bool:
        return self.first.first == self.second.first

    @property
    def dice(self) -> tuple[Die, ...]:
        extra = () if self.location is None else (self.location,)
        return (self.first, self.second, *extra)


def roll_ta(dice: DiceSource, *, with_location: bool = False, role: str = "action") -> TaRoll:
    """Roll a TA: the dE first (it is named before the roll), then the two action dice."""
    location = roll_die(dice, 10, "location") if with_location else None
    first = roll_die(dice, 10, role)
    second = roll_die(dice, 10, role)
    return TaRoll(first, second, location)


def classify(natural: int, doubles: bool, value: int, modifier: int, rules: Rules) -> str:
    """The level of a TA (one of :data:`LEVELS`)."""
    margin = value - (natural + modifier)
    success = margin >= 0
    if rules.critical_rule == "doubles":
        if doubles:
            return "critical" if success else "fumble"
    elif success and margin >= rules.critical_margin:
        return "critical"
    elif not success and -margin >= rules.fumble_margin:
        return "fumble"
    if success:
        return "low_success" if margin < rules.low_band else "success"
    return "low_failure" if -margin <= rules.low_band else "failure"


@dataclass(frozen=True)
class TaResult:
    """A rolled TA: what was rolled against, every modifier, the level."""

    roll: TaRoll
    what: str
    value: int
    modifiers: tuple[Modifier, ...]
    level: str

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def total(self) -> int:
        return self.roll.natural + self.modifier

    @property
    def margin(self) -> int:
        return self.value - self.total

    @property
    def success(self) -> bool:
        return self.level in SUCCESS_LEVELS


def make_ta(
    dice: DiceSource,
    what: str,
    value: int,
    modifiers: Sequence[Modifier],
    rules: Rules,
    *,
    with_location: bool = False,
    role: str = "action",
) -> TaResult:
    kept = tuple(m for m in modifiers if m.value != 0)
    roll = roll_ta(dice, with_location=with_location, role=role)
    level = classify(roll.natural, roll.doubles, value, sum(m.value for m in kept), rules)
    return TaResult(roll, what, value, kept, level)


def level_rank(level: str) -> int:
    """0 for a critical ... 5 for a fumble."""
    return LEVELS.index(level)


def opposed_winner(active: TaResult, passive: TaResult, rules: Rules) -> bool:
    """Does the active side (the one who must beat the other) win an opposed TA?

    By level first (a success beats a failure, a critical a success), then by
    margin; a full tie keeps things as they are (the passive side wins).
    With ``opposed_compare = "margin"`` only the margins count.
    """
    if rules.opposed_compare == "level":
        a, p = level_rank(active.level), level_rank(passive.level)
        if a != p:
            return a < p
    return active.margin > passive.margin
