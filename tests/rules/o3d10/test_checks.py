"""1o3d10 itself: the kept die, the text's examples, difficulty, critical, fumble, ranks, odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import ScriptedDice
from rules.o3d10.checks import Circumstances, kept_rank, opposed_winner, roll_check
from rules.o3d10.tables import ATTRIBUTE_DIFFICULTY, SKILL_DIFFICULTY
from rules.probability import distribution
from rules.rolls import Rank, roll_keep_of_3d10


@pytest.mark.parametrize(
    ("faces", "median", "highest"),
    [((5, 3, 9), 5, 9), ((4, 4, 2), 4, 4), ((8, 6, 1), 6, 8)],
)
def test_text_examples_median_and_highest(
    faces: tuple[int, int, int], median: int, highest: int
) -> None:
    assert roll_keep_of_3d10(ScriptedDice(faces), Rank.MEDIAN).total == median
    assert roll_keep_of_3d10(ScriptedDice(faces), Rank.HIGHEST).total == highest


def test_kept_ten_adds_and_goes_on_keeping_the_same_rank() -> None:
    # '10,7,10 = 10 suma y sigue': the median of 10,7,10 is 10, so all three dice roll again.
    roll = roll_keep_of_3d10(ScriptedDice([10, 7, 10, 10, 2, 10, 6, 3, 1]), Rank.MEDIAN)
    assert roll.kept_faces == (10, 10, 3)
    assert roll.total == 23
    assert roll.natural == 10 and roll.exploded
    assert len(roll.dice) == 9 and sum(d.kept for d in roll.dice) == 3
    # With the highest die: '(guardando otra vez el mayor)'.
    high = roll_keep_of_3d10(ScriptedDice([10, 7, 10, 2, 9, 4]), Rank.HIGHEST)
    assert high.kept_faces == (10, 9)
    assert high.total == 19


def test_lowest_rank_keeps_lowest_and_only_explodes_on_three_tens() -> None:
    assert roll_keep_of_3d10(ScriptedDice([8, 6, 1]), Rank.LOWEST).total == 1
    assert roll_keep_of_3d10(ScriptedDice([10, 10, 10, 4, 5, 6]), Rank.LOWEST).total == 14


def test_dice_carry_group_and_kept_marks() -> None:
    roll = roll_keep_of_3d10(ScriptedDice([10, 7, 10, 3, 4, 5]), Rank.MEDIAN)
    assert [d.group for d in roll.dice] == [0, 0, 0, 1, 1, 1]
    assert [d.kept for d in roll.dice] == [True, False, False, False, True, False]
    assert all(d.role == "objetivo" for d in roll.dice)


def test_difficulty_ladders() -> None:
    assert list(ATTRIBUTE_DIFFICULTY.values()) == [9, 12, 15, 18, 21]
    assert list(SKILL_DIFFICULTY.values()) == [10, 15, 20, 25, 30]


def test_success_is_meeting_or_beating_the_difficulty() -> None:
    meet = roll_check(ScriptedDice([5, 3, 9]), "skill", 10, Rank.MEDIAN, difficulty=15)
    assert meet.total == 15 and meet.success and meet.outcome == "success"
    miss = roll_check(ScriptedDice([4, 4, 2]), "skill", 10, Rank.MEDIAN, difficulty=15)
    assert miss.total == 14 and miss.success is False and miss.outcome == "failure"
    free = roll_check(ScriptedDice([4, 4, 2]), "skill", 10, Rank.MEDIAN)
    assert free.success is None and free.outcome == "rolled"


def test_critical_is_beating_the_difficulty_by_ten() -> None:
    critical = roll_check(ScriptedDice([5, 3, 9]), "attribute", 16, Rank.MEDIAN, difficulty=11)
    assert critical.total == 21 and critical.critical and critical.outcome == "critical"
    short = roll_check(ScriptedDice([5, 3, 9]), "attribute", 15, Rank.MEDIAN, difficulty=11)
    assert short.total == 20 and not short.critical and short.outcome == "success"


def test_natural_one_always_fails_a_skill_roll_but_not_an_attribute_roll() -> None:
    # 1,1,7: kept 1 (median) but the die above is 7 > 5, so no fumble.
    skill = roll_check(ScriptedDice([1, 1, 7]), "skill", 30, Rank.MEDIAN, difficulty=10)
    assert skill.natural_one and not skill.fumble and skill.success is False
    attribute = roll_check(ScriptedDice([1, 1, 7]), "attribute", 30, Rank.MEDIAN, difficulty=10)
    assert attribute.success is True


@pytest.mark.parametrize(
    ("faces", "rank", "fumble"),
    [
        ((1, 1, 5), Rank.MEDIAN, True),
        ((1, 1, 6), Rank.MEDIAN, False),
        ((1, 5, 9), Rank.LOWEST, True),
        ((1, 6, 9), Rank.LOWEST, False),
        ((1, 1, 1), Rank.HIGHEST, True),
        ((2, 1, 1), Rank.MEDIAN, True),
    ],
)
def test_fumble_is_kept_one_with_the_die_just_above_five_or_less(
    faces: tuple[int, int, int], rank: Rank, fumble: bool
) -> None:
    result = roll_check(ScriptedDice(faces), "attribute", 40, rank, difficulty=9)
    assert result.fumble is fumble
    if fumble:
        assert result.outcome == "fumble" and result.success is False


@pytest.mark.parametrize(
    ("circumstances", "steps", "lowest_wins"),
    [
        (Circumstances(), Rank.MEDIAN, Rank.MEDIAN),
        (Circumstances(badly_hurt=True), Rank.LOWEST, Rank.LOWEST),
        (Circumstances(unknown_skill=True), Rank.LOWEST, Rank.LOWEST),
        (Circumstances(token_given=True), Rank.HIGHEST, Rank.HIGHEST),
        (Circumstances(token_returned=True), Rank.LOWEST, Rank.LOWEST),
        (Circumstances(split_actions=True), Rank.LOWEST, Rank.LOWEST),
        (Circumstances(badly_hurt=True, token_given=True), Rank.MEDIAN, Rank.LOWEST),
        (Circumstances(badly_hurt=True, split_actions=True), Rank.LOWEST, Rank.LOWEST),
        (Circumstances(token_given=True, split_actions=True), Rank.MEDIAN, Rank.LOWEST),
        (
            Circumstances(badly_hurt=True, token_given=True, split_actions=True),
            Rank.LOWEST,
            Rank.LOWEST,
        ),
        (Circumstances(badly_hurt=True, forced=Rank.HIGHEST), Rank.HIGHEST, Rank.HIGHEST),
    ],
)
def test_circumstances_change_the_kept_rank(
    circumstances: Circumstances, steps: Rank, lowest_wins: Rank
) -> None:
    assert kept_rank(circumstances, "steps") is steps
    assert kept_rank(circumstances, "lowest_wins") is lowest_wins


def test_opposed_rolls_and_ties() -> None:
    assert opposed_winner((18, False), (15, False)) == 0
    assert opposed_winner((14, False), (15, False)) == 1
    assert opposed_winner((15, False), (15, False)) == -1
    assert opposed_winner((15, False), (15, False), "defender") == 1
    assert opposed_winner((30, True), (3, False)) == 1
    assert opposed_winner((3, False), (30, True)) == 0


def _first_kept(rank: Rank) -> object:
    return lambda dice: roll_keep_of_3d10(dice, rank).natural


def test_exact_distribution_of_the_median() -> None:
    result = distribution(_first_kept(Rank.MEDIAN), max_dice=3)
    for m in range(1, 10):
        assert result.outcomes[m] == Fraction(6 * (m - 1) * (10 - m) + 28, 1000)
    # The kept 10 needs another throw, so enumeration stops there: exactly P(median = 10).
    assert result.cut == Fraction(28, 1000)


def test_exact_distribution_of_highest_and_lowest() -> None:
    high = distribution(_first_kept(Rank.HIGHEST), max_dice=3)
    low = distribution(_first_kept(Rank.LOWEST), max_dice=3)
    for m in range(1, 10):
        assert high.outcomes[m] == Fraction(m**3 - (m - 1) ** 3, 1000)
        assert low.outcomes[m] == Fraction((11 - m) ** 3 - (10 - m) ** 3, 1000)
    assert high.cut == Fraction(271, 1000)
    assert low.cut == Fraction(1, 1000)


@pytest.mark.parametrize(
    ("rank", "expected"),
    [
        (Rank.MEDIAN, Fraction(13, 1000)),
        (Rank.LOWEST, Fraction(196, 1000)),
        (Rank.HIGHEST, Fraction(1, 1000)),
    ],
)
def test_exact_fumble_odds(rank: Rank, expected: Fraction) -> None:
    # Median: sorted (1,1,x), x <= 5: 1 + 4*3 = 13 of 1000. Lowest: a 1 with a median <= 5:
    # P(median <= 5) = 500/1000 minus the 3*4*4*5 + 4**3 = 304 such triples with no 1: 196.
    # Highest: only 1,1,1.
    result = distribution(lambda dice: roll_check(dice, "attribute", 0, rank).fumble, max_dice=3)
    assert result.outcomes.get(True, Fraction(0)) == expected
