"""o3d10 attribute and skill rolls: which die is kept, the total, success, critical, fumble."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.dice import DiceSource
from rules.o3d10.tables import CRITICAL_MARGIN, FUMBLE_ABOVE_MAX
from rules.records import fast_init
from rules.rolls import KeepRoll, Rank, roll_keep_of_3d10

RollKind = Literal["attribute", "skill"]


@fast_init
@dataclass(frozen=True)
class Circumstances:
    """What moves the kept die away from the median, each named in the text.

    ``forced`` is the Don's explicit choice (the ``keep`` parameter) and wins over
    everything else.
    """

    badly_hurt: bool = False
    unknown_skill: bool = False
    token_given: bool = False
    token_returned: bool = False
    split_actions: bool = False
    forced: Rank | None = None

    @property
    def reasons(self) -> tuple[str, ...]:
        names = (
            ("badly_hurt", self.badly_hurt),
            ("unknown_skill", self.unknown_skill),
            ("token_given", self.token_given),
            ("token_returned", self.token_returned),
            ("split_actions", self.split_actions),
        )
        return tuple(name for name, present in names if present)


def kept_rank(circumstances: Circumstances, stacking: str = "steps") -> Rank:
    """The rank of the kept die.

    ``steps`` (default): each circumstance that keeps the lower die moves one
    rank down, the token moves one rank up, from the median, clamped. So the
    token cancels being badly hurt. ``lowest_wins``: any circumstance that keeps
    the lower die keeps the lowest, whatever else applies.
    """
    if circumstances.forced is not None:
        return circumstances.forced
    downs = sum(
        (
            circumstances.badly_hurt,
            circumstances.unknown_skill,
            circumstances.token_returned,
        )
    )
    ups = 1 if circumstances.token_given else 0
    if stacking == "lowest_wins":
        rank = Rank.LOWEST if downs else (Rank.HIGHEST if ups else Rank.MEDIAN)
    else:
        rank = Rank(max(0, min(2, Rank.MEDIAN.value + ups - downs)))
    # 'Dividir Acciones ... guardará dado menor en ambas acciones. Esto no es aplicable si
    # el jugador ya está guardando dado menor por algún motivo': split only moves a roll
    # that is not already keeping the lowest, and then it keeps the lowest.
    if circumstances.split_actions and rank is not Rank.LOWEST:
        rank = Rank.LOWEST if stacking == "lowest_wins" else rank.lower()
    return rank


@fast_init
@dataclass(frozen=True)
class CheckResult:
    """A checked 1o3d10 roll. Everything after ``natural_one_fails`` is read off the roll once,
    by :func:`roll_check` (cards and effects read each of them several times)."""

    kind: RollKind
    roll: KeepRoll
    base: int
    modifier: int
    difficulty: int | None
    natural_one_fails: bool
    """'un 1 natural ... siempre es fallo en tiradas de habilidad' (attribute rolls: a setting)."""
    total: int = field(compare=False, repr=False)
    fumble: bool = field(compare=False, repr=False)
    natural_one: bool = field(compare=False, repr=False)
    success: bool | None = field(compare=False, repr=False)
    """None without a difficulty."""
    critical: bool = field(compare=False, repr=False)
    outcome: str = field(compare=False, repr=False)
    """fumble, rolled (no difficulty), critical, success or failure."""


def roll_check(
    dice: DiceSource,
    kind: RollKind,
    base: int,
    rank: Rank,
    *,
    modifier: int = 0,
    difficulty: int | None = None,
    natural_one_fails: bool | None = None,
) -> CheckResult:
    """Base + modifier + 1o3d10 at ``rank``; a natural 1 fails skill rolls unless told otherwise."""
    fails = kind == "skill" if natural_one_fails is None else natural_one_fails
    return check_of(kind, roll_keep_of_3d10(dice, rank), base, modifier, difficulty, fails)


def check_of(
    kind: RollKind,
    roll: KeepRoll,
    base: int,
    modifier: int,
    difficulty: int | None,
    natural_one_fails: bool,
) -> CheckResult:
    """The check a rolled 1o3d10 makes: its total, fumble, success, critical and outcome."""
    fails = natural_one_fails
    total = base + modifier + roll.total
    natural_one = roll.natural == 1
    fumble = natural_one and roll.above <= FUMBLE_ABOVE_MAX
    success: bool | None
    if difficulty is None:
        success = None
    elif fumble or (fails and natural_one):
        success = False
    else:
        success = total >= difficulty
    critical = bool(success) and total >= (difficulty or 0) + CRITICAL_MARGIN
    if fumble:
        outcome = "fumble"
    elif difficulty is None:
        outcome = "rolled"
    elif critical:
        outcome = "critical"
    else:
        outcome = "success" if success else "failure"
    return CheckResult(
        kind,
        roll,
        base,
        modifier,
        difficulty,
        fails,
        total,
        fumble,
        natural_one,
        success,
        critical,
        outcome,
    )


def opposed_winner(
    first: tuple[int, bool], second: tuple[int, bool], tie_rule: str = "repeat"
) -> int:
    """0 when ``first`` wins, 1 when ``second`` wins, -1 for a tie to repeat.

    Each side is ``(total, fumbled)``. 'el que saque la tirada más alta gana'. A
    fumble loses to anything that is not a fumble. Ties: ``repeat`` (default) or
    ``defender`` (the second roll, the one answering, wins).
    """
    (first_total, first_fumble), (second_total, second_fumble) = first, second
    if first_fumble != second_fumble:
        return 1 if first_fumble else 0
    if first_total != second_total:
        return 0 if first_total > second_total else 1
    return 1 if tie_rule == "defender" else -1


def settings_view(settings: Mapping[str, Any]) -> tuple[str, str]:
    return str(settings.get("rank_stacking", "steps")), str(settings.get("opposed_tie", "repeat"))
