from fractions import Fraction

import pytest

from rules.dice import DiceError, DiceLimitExceeded, ScriptedDice
from rules.probability import distribution
from rules.rolls import (
    Rank,
    parse_expression,
    roll_d100,
    roll_die,
    roll_expression,
    roll_keep_of_3d10,
    roll_pool,
    roll_split_pool,
    roll_trait,
)


def test_exploding_die_keeps_every_face() -> None:
    die = roll_die(ScriptedDice([6, 6, 3]), 6, "damage", explode=True)
    assert die.faces == (6, 6, 3) and die.total == 15


def test_explosions_are_bounded() -> None:
    with pytest.raises(DiceLimitExceeded, match="exploded more than 3 times"):
        roll_die(ScriptedDice([4] * 10), 4, "trait", explode=True, limit=3)


def test_pool_limit() -> None:
    with pytest.raises(DiceLimitExceeded):
        roll_pool(ScriptedDice([]), 101, 6, "damage")


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [("2d6+1", 2, 6, 1), ("d10", 1, 10, 0), ("1D4-1", 1, 4, -1), (" 3 d 8 + 2 ", 3, 8, 2)],
)
def test_parse_expression(text: str, count: int, sides: int, modifier: int) -> None:
    expression = parse_expression(text)
    assert (expression.count, expression.sides, expression.modifier) == (count, sides, modifier)


@pytest.mark.parametrize("text", ["", "2x6", "d1", "500d6", "1d6+", "1d6;drop"])
def test_parse_expression_refuses(text: str) -> None:
    with pytest.raises(DiceError):
        parse_expression(text)


def test_expression_total_with_aces() -> None:
    rolled = roll_expression(
        ScriptedDice([6, 2, 5]), parse_expression("2d6+1", explode=True), "damage"
    )
    assert rolled.total == 6 + 2 + 5 + 1
    assert [d.faces for d in rolled.dice] == [(6, 2), (5,)]


@pytest.mark.parametrize(
    ("tens", "units", "value"),
    [(10, 10, 100), (10, 1, 1), (1, 10, 10), (5, 3, 53), (9, 9, 99), (10, 5, 5)],
)
def test_d100_reads_tens_and_units_with_00_as_100(tens: int, units: int, value: int) -> None:
    assert roll_d100(ScriptedDice([tens, units])).value == value


def test_d100_is_uniform() -> None:
    dist = distribution(lambda dice: roll_d100(dice).value, max_dice=2)
    assert dist.cut == 0
    assert set(dist.outcomes) == set(range(1, 101))
    assert all(p == Fraction(1, 100) for p in dist.outcomes.values())


def test_trait_roll_keeps_the_higher_die() -> None:
    roll = roll_trait(ScriptedDice([3, 6, 2]), 8, modifier=1)
    assert roll.kept is roll.wild and roll.total == 9
    assert [d.kept for d in roll.dice] == [False, True]
    assert not roll.snake_eyes
    assert roll_trait(ScriptedDice([1, 1]), 4).snake_eyes


def test_trait_roll_refuses_non_trait_dice() -> None:
    with pytest.raises(DiceError):
        roll_trait(ScriptedDice([1, 1]), 7)


def test_d4_trait_with_d6_wild_reaches_4_with_probability_0_625() -> None:
    dist = distribution(lambda dice: roll_trait(dice, 4).total >= 4, max_dice=6)
    # Any branch still exploding after 6 dice already totals 4 or more.
    reached = dist.outcomes.get(True, Fraction(0)) + dist.cut
    assert reached == Fraction(5, 8)


def test_median_of_3d10_closed_form() -> None:
    def first_throw_median(dice: object) -> int:
        roll = roll_keep_of_3d10(dice, Rank.MEDIAN, limit=0)  # type: ignore[arg-type]
        return roll.natural

    dist = distribution(first_throw_median, max_dice=3)
    for m in range(1, 11):
        assert dist.outcomes.get(m, Fraction(0)) + (dist.cut if m == 10 else 0) == Fraction(
            6 * (m - 1) * (10 - m) + 28, 1000
        )


@pytest.mark.parametrize(
    ("faces", "rank", "kept"),
    [
        ([5, 3, 9], Rank.MEDIAN, 5),
        ([4, 4, 2], Rank.MEDIAN, 4),
        ([8, 6, 1], Rank.MEDIAN, 6),
        ([5, 3, 9], Rank.HIGHEST, 9),
        ([4, 4, 2], Rank.HIGHEST, 4),
        ([8, 6, 1], Rank.HIGHEST, 8),
        ([8, 6, 1], Rank.LOWEST, 1),
    ],
)
def test_keep_examples_of_the_text(faces: list[int], rank: Rank, kept: int) -> None:
    roll = roll_keep_of_3d10(ScriptedDice(faces), rank)
    assert roll.total == kept and not roll.exploded
    assert sum(d.kept for d in roll.dice) == 1


def test_kept_ten_adds_and_rerolls_all_three_keeping_the_rank() -> None:
    roll = roll_keep_of_3d10(ScriptedDice([10, 7, 10, 4, 8, 2]), Rank.MEDIAN)
    assert roll.kept_faces == (10, 4) and roll.total == 14
    assert [d.group for d in roll.dice] == [0, 0, 0, 1, 1, 1]
    high = roll_keep_of_3d10(ScriptedDice([10, 7, 10, 4, 8, 2]), Rank.HIGHEST)
    assert high.kept_faces == (10, 8)


def test_keep_explosion_limit() -> None:
    with pytest.raises(DiceLimitExceeded):
        roll_keep_of_3d10(ScriptedDice([10] * 30), Rank.LOWEST, limit=5)


def test_split_pool() -> None:
    pool = roll_split_pool(ScriptedDice([3, 8]))
    assert (pool.higher, pool.lower, pool.total, pool.doubles) == (8, 3, 11, False)
    assert roll_split_pool(ScriptedDice([5, 5])).doubles


def test_rank_steps() -> None:
    assert Rank.MEDIAN.lower() is Rank.LOWEST and Rank.LOWEST.lower() is Rank.LOWEST
    assert Rank.MEDIAN.higher() is Rank.HIGHEST and Rank.HIGHEST.higher() is Rank.HIGHEST


@pytest.mark.parametrize("rank", list(Rank))
def test_every_throw_keeps_the_die_of_its_rank_first_of_equals(rank: Rank) -> None:
    for first in range(1, 11):
        for second in range(1, 11):
            for third in range(1, 11):
                faces = [first, second, third]
                order = sorted(range(3), key=lambda i: faces[i])  # stable: ties keep the first
                kept = order[rank.value]
                again = [1, 2, 3] if faces[kept] == 10 else []  # a kept 10 throws once more
                roll = roll_keep_of_3d10(ScriptedDice(faces + again), rank)
                assert [d.kept for d in roll.dice[:3]] == [i == kept for i in range(3)]
                assert [d.first for d in roll.dice] == faces + again
                assert roll.natural == faces[kept] and len(roll.throws) == 1 + len(again) // 3
                assert roll.above == sorted(faces)[min(2, rank.value + 1)]
                assert roll.total == sum(roll.kept_faces)
