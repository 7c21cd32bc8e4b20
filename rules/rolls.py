"""The dice forms the five systems need, each returning frozen records of every die.

- :func:`roll_die` / :func:`roll_pool`: NdS, optionally exploding (aces).
- :func:`roll_expression`: "2d6+1" style damage expressions with explicit limits.
- :func:`roll_d100`: percentile read from a tens and a units d10, 00 = 100.
- :func:`roll_trait`: a Savage Worlds trait die plus an optional wild die.
- :func:`roll_keep_of_3d10`: 1o3d10, keep the median/highest/lowest, a kept 10
  adds and rerolls all three keeping the same rank.
- :func:`roll_split_pool`: a pool of dice split into its higher and lower die.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from rules.dice import DiceError, DiceLimitExceeded, DiceSource, Die
from rules.records import fast_init

DEFAULT_EXPLOSION_LIMIT = 50
"""How many times one die may explode (ace) before the roll is refused."""

MAX_POOL = 100
"""The most dice one expression or pool may roll."""


def roll_die(
    dice: DiceSource,
    sides: int,
    role: str,
    *,
    explode: bool = False,
    limit: int = DEFAULT_EXPLOSION_LIMIT,
    group: int = 0,
) -> Die:
    """Roll one die; when ``explode`` every maximum face adds another roll."""
    faces = [dice.roll(sides)]
    while explode and faces[-1] == sides:
        if len(faces) > limit:
            raise DiceLimitExceeded(f"a d{sides} exploded more than {limit} times")
        faces.append(dice.roll(sides))
    return Die(sides, tuple(faces), role, True, group)


def roll_pool(
    dice: DiceSource,
    count: int,
    sides: int,
    role: str,
    *,
    explode: bool = False,
    limit: int = DEFAULT_EXPLOSION_LIMIT,
) -> tuple[Die, ...]:
    if not 0 <= count <= MAX_POOL:
        raise DiceLimitExceeded(f"a pool holds 0 to {MAX_POOL} dice, not {count}")
    return tuple(roll_die(dice, sides, role, explode=explode, limit=limit) for _ in range(count))


@fast_init
@dataclass(frozen=True)
class DiceExpression:
    """``count``d``sides`` + ``modifier``; ``explode`` when the maximum rerolls and adds."""

    count: int
    sides: int
    modifier: int = 0
    explode: bool = False

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum_without_aces(self) -> int:
        return self.count * self.sides + self.modifier


_EXPRESSION = re.compile(r"^\s*(\d{1,3})?\s*[dD]\s*(\d{1,4})\s*(?:([+-])\s*(\d{1,4}))?\s*$")


@lru_cache(maxsize=1024)
def parse_expression(text: str, *, explode: bool = False) -> DiceExpression:
    """Parse "2d6+1", "d10", "1D4-1". Refuses pools over :data:`MAX_POOL`."""
    match = _EXPRESSION.match(text)
    if match is None:
        raise DiceError(f"not a dice expression: {text!r} (expected something like 2d6+1)")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    if not 1 <= count <= MAX_POOL:
        raise DiceLimitExceeded(f"a dice expression rolls 1 to {MAX_POOL} dice, not {count}")
    if not 2 <= sides <= 1000:
        raise DiceError(f"a die must have 2 to 1000 sides, not {sides}")
    return DiceExpression(count, sides, modifier, explode)


@fast_init
@dataclass(frozen=True)
class ExpressionRoll:
    expression: DiceExpression
    dice: tuple[Die, ...]

    @property
    def total(self) -> int:
        return sum(die.total for die in self.dice) + self.expression.modifier


def roll_expression(
    dice: DiceSource,
    expression: DiceExpression,
    role: str,
    *,
    limit: int = DEFAULT_EXPLOSION_LIMIT,
) -> ExpressionRoll:
    rolled = roll_pool(
        dice, expression.count, expression.sides, role, explode=expression.explode, limit=limit
    )
    return ExpressionRoll(expression, rolled)


@fast_init
@dataclass(frozen=True)
class Percentile:
    """A d100 read from two d10 (faces 1-10, the 10 reads as 0): 00 with 0 reads 100."""

    tens: Die
    units: Die

    @property
    def value(self) -> int:
        value = (self.tens.first % 10) * 10 + self.units.first % 10
        return 100 if value == 0 else value


def roll_d100(dice: DiceSource, role: str = "percentile") -> Percentile:
    tens = roll_die(dice, 10, f"{role}.tens")
    units = roll_die(dice, 10, f"{role}.units")
    return Percentile(tens, units)


@fast_init
@dataclass(frozen=True)
class TraitRoll:
    """A trait die and an optional wild die; the higher total counts."""

    trait: Die
    wild: Die | None
    modifier: int

    @property
    def kept(self) -> Die:
        if self.wild is not None and self.wild.total > self.trait.total:
            return self.wild
        return self.trait

    @property
    def total(self) -> int:
        return self.kept.total + self.modifier

    @property
    def dice(self) -> tuple[Die, ...]:
        kept = self.kept
        if self.wild is None:
            return (self.trait,)
        return (self.trait.as_kept(kept is self.trait), self.wild.as_kept(kept is self.wild))

    @property
    def snake_eyes(self) -> bool:
        """Both dice showed a natural 1 (only meaningful with a wild die)."""
        return self.wild is not None and self.trait.first == 1 and self.wild.first == 1


TRAIT_DICE = (4, 6, 8, 10, 12)


def roll_trait(
    dice: DiceSource,
    sides: int,
    *,
    wild_sides: int | None = 6,
    modifier: int = 0,
    limit: int = DEFAULT_EXPLOSION_LIMIT,
) -> TraitRoll:
    """Savage Worlds: trait die (d4-d12) and, for Wild Cards, a wild die; both ace."""
    if sides not in TRAIT_DICE:
        raise DiceError(f"a trait die is one of d4, d6, d8, d10, d12, not d{sides}")
    trait = roll_die(dice, sides, "trait", explode=True, limit=limit)
    wild = (
        roll_die(dice, wild_sides, "wild", explode=True, limit=limit)
        if wild_sides is not None
        else None
    )
    return TraitRoll(trait, wild, modifier)


class Rank(Enum):
    """Which die of 1o3d10 is kept."""

    LOWEST = 0
    MEDIAN = 1
    HIGHEST = 2

    def lower(self) -> Rank:
        return Rank(max(0, self.value - 1))

    def higher(self) -> Rank:
        return Rank(min(2, self.value + 1))


@fast_init
@dataclass(frozen=True)
class KeepRoll:
    """1o3d10: each throw of three dice with the kept one marked; a kept 10 throws again.

    ``natural`` is the kept die of the first throw; ``above`` the die ranked just
    above it in that throw (for the fumble check), or the kept die itself when it
    is already the highest. ``kept_faces`` (the kept die of each throw) and
    ``above`` (and ``dice``, every die in order) are read off ``throws`` once, by
    :func:`roll_keep_of_3d10`, since every check reads them several times.
    """

    rank: Rank
    throws: tuple[tuple[Die, Die, Die], ...]
    kept_faces: tuple[int, ...] = field(compare=False, repr=False)
    above: int = field(compare=False, repr=False)
    dice: tuple[Die, ...] = field(compare=False, repr=False)
    """Every die of every throw, in the order rolled."""

    @property
    def total(self) -> int:
        return sum(self.kept_faces)

    @property
    def natural(self) -> int:
        return self.kept_faces[0]

    @property
    def exploded(self) -> bool:
        return len(self.throws) > 1


def _keep_table(position: int) -> dict[tuple[int, int, int], tuple[int, int]]:
    """For every throw of three d10: the index of the die kept at ``position`` and the face
    ranked just above it (the kept one itself when it is the highest).

    The kept die is the one at ``position`` in sorted order; ties keep the first such die
    (a stable sort of the positions by face).
    """
    table: dict[tuple[int, int, int], tuple[int, int]] = {}
    for first in range(1, 11):
        for second in range(1, 11):
            for third in range(1, 11):
                faces = (first, second, third)
                kept_index = sorted((0, 1, 2), key=faces.__getitem__)[position]
                table[faces] = (kept_index, sorted(faces)[min(2, position + 1)])
    return table


_KEEP_TABLES = tuple(_keep_table(rank.value) for rank in Rank)

_DIE_CACHE: dict[tuple[int, str, bool, int], Die] = {}
"""1o3d10 dice by (face, role, kept, group): frozen values, so rolls share them."""


def _d10(face: int, role: str, kept: bool, group: int) -> Die:
    key = (face, role, kept, group)
    die = _DIE_CACHE.get(key)
    if die is None:
        die = Die(10, (face,), role, kept, group)
        if len(_DIE_CACHE) < 4096:
            _DIE_CACHE[key] = die
    return die


_THROWS: dict[tuple[int, str], dict[tuple[int, int, int], KeepRoll | None]] = {}
"""Per (rank, role): every throw of three d10 as its finished 1o3d10 roll, or None when the
kept die is a 10 (the roll goes on). Frozen values, so every roll of that throw shares one."""

_THROW_ROLES = 16
"""At most this many roles get a remembered table (the rules use one: ``objetivo``)."""


def keep_throws(rank: Rank, role: str = "objetivo") -> dict[tuple[int, int, int], KeepRoll | None]:
    """All 1,000 first throws of 1o3d10 at ``rank``: the whole roll when its kept die is not a
    10, None when it is (a kept 10 adds and throws again: :func:`roll_kept_ten`).

    Built once per rank and role (1,000 shared records); callers must not change it.
    """
    key = (rank._value_, role)
    table = _THROWS.get(key)
    if table is not None:
        return table
    positions = _KEEP_TABLES[rank._value_]
    table = {}
    for faces, (kept_index, above) in positions.items():
        if faces[kept_index] == 10:
            table[faces] = None
            continue
        throw = (
            _d10(faces[0], role, kept_index == 0, 0),
            _d10(faces[1], role, kept_index == 1, 0),
            _d10(faces[2], role, kept_index == 2, 0),
        )
        table[faces] = KeepRoll(rank, (throw,), (faces[kept_index],), above, throw)
    if len(_THROWS) < _THROW_ROLES * 3:
        _THROWS[key] = table
    return table


def roll_keep_of_3d10(
    dice: DiceSource,
    rank: Rank = Rank.MEDIAN,
    *,
    role: str = "objetivo",
    limit: int = DEFAULT_EXPLOSION_LIMIT,
) -> KeepRoll:
    roll = dice.roll
    faces = (roll(10), roll(10), roll(10))
    table = _THROWS.get((rank._value_, role))  # the member's value as stored
    if table is None:
        table = keep_throws(rank, role)
    shared = table[faces]
    if shared is not None:
        return shared
    return roll_kept_ten(dice, rank, faces, role=role, limit=limit)


def roll_kept_ten(
    dice: DiceSource,
    rank: Rank,
    faces: tuple[int, int, int],
    *,
    role: str = "objetivo",
    limit: int = DEFAULT_EXPLOSION_LIMIT,
) -> KeepRoll:
    """The rest of a 1o3d10 roll whose first throw ``faces`` kept a 10: it adds, and all three
    dice roll again keeping the same rank, for as long as the kept die is a 10."""
    roll = dice.roll
    table = _KEEP_TABLES[rank._value_]
    kept_index, above = table[faces]
    throws = [
        (
            _d10(faces[0], role, kept_index == 0, 0),
            _d10(faces[1], role, kept_index == 1, 0),
            _d10(faces[2], role, kept_index == 2, 0),
        )
    ]
    kept = faces[kept_index]
    kept_faces = [kept]
    while kept == 10:
        if len(throws) > limit:
            raise DiceLimitExceeded(f"1o3d10 rolled a kept 10 more than {limit} times")
        group = len(throws)
        faces = (roll(10), roll(10), roll(10))
        kept_index = table[faces][0]
        throws.append(
            (
                _d10(faces[0], role, kept_index == 0, group),
                _d10(faces[1], role, kept_index == 1, group),
                _d10(faces[2], role, kept_index == 2, group),
            )
        )
        kept = faces[kept_index]
        kept_faces.append(kept)
    every = tuple(die for one in throws for die in one)
    return KeepRoll(rank, tuple(throws), tuple(kept_faces), above, every)


@fast_init
@dataclass(frozen=True)
class SplitPool:
    """A pool of dice read as its higher die (d+) and its lower die (d-)."""

    dice: tuple[Die, ...]

    @property
    def higher(self) -> int:
        return max(d.first for d in self.dice)

    @property
    def lower(self) -> int:
        return min(d.first for d in self.dice)

    @property
    def total(self) -> int:
        return sum(d.first for d in self.dice)

    @property
    def doubles(self) -> bool:
        return len({d.first for d in self.dice}) < len(self.dice)


def roll_split_pool(
    dice: DiceSource, count: int = 2, sides: int = 10, role: str = "action"
) -> SplitPool:
    if not 2 <= count <= MAX_POOL:
        raise DiceLimitExceeded(f"a split pool holds 2 to {MAX_POOL} dice, not {count}")
    return SplitPool(tuple(roll_die(dice, sides, role) for _ in range(count)))
