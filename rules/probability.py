"""Exact probabilities of any roll by enumerating every sequence of faces.

``distribution(fn)`` runs ``fn(dice)`` once for every possible sequence of
faces (depth-first, each face of each die equally likely) and adds up the
exact :class:`fractions.Fraction` of each result. Exploding dice are cut at
``max_dice`` dice: the probability of the unfinished branches is returned as
``cut`` so a test can bound its error exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from rules.dice import DiceError, DiceSource

T = TypeVar("T", bound=Hashable)


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Cut(Exception):
    pass


class _PrefixDice:
    def __init__(self, prefix: list[int], max_dice: int) -> None:
        self._prefix = prefix
        self._used = 0
        self._max = max_dice

    def roll(self, sides: int) -> int:
        if self._used < len(self._prefix):
            face = self._prefix[self._used]
            self._used += 1
            return face
        if self._used >= self._max:
            raise _Cut()
        raise _Branch(sides)


@dataclass(frozen=True)
class Distribution:
    outcomes: dict[object, Fraction]
    cut: Fraction

    def probability(self, predicate: Callable[[object], bool]) -> Fraction:
        return sum((p for value, p in self.outcomes.items() if predicate(value)), Fraction(0))


def distribution(fn: Callable[[DiceSource], T], *, max_dice: int = 12) -> Distribution:
    outcomes: dict[object, Fraction] = {}
    cut = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            value = fn(_PrefixDice(prefix, max_dice))
        except _Branch as branch:
            share = weight / branch.sides
            stack.extend(([*prefix, face], share) for face in range(1, branch.sides + 1))
            continue
        except _Cut:
            cut += weight
            continue
        except DiceError:
            cut += weight
            continue
        outcomes[value] = outcomes.get(value, Fraction(0)) + weight
    return Distribution(outcomes, cut)
