"""Skill rolls: 1D100 under the skill, 01 critical, 00 fumble, the text's fumble examples,
exact odds, success category and the opposed list."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.omerta.checks import (
    Check,
    critical_threshold,
    fumble_from,
    grade_roll,
    opposed_winner,
    roll_check,
)
from rules.probability import distribution


def test_text_fumble_examples() -> None:
    # 'Si tenemos un 85% ... la pifia ... sería de 98-00, si tenemos un 05% ... desde 90 a 00'.
    assert fumble_from(85) == 98
    assert fumble_from(5) == 90
    assert grade_roll(97, 85) == "failure" and grade_roll(98, 85) == "fumble"
    assert grade_roll(90, 5) == "fumble" and grade_roll(89, 5) == "failure"


def test_01_and_00_always() -> None:
    assert grade_roll(1, 0) == "critical"
    assert grade_roll(100, 150) == "fumble"
    assert grade_roll(99, 150) == "fumble"  # 90 + tens digit clamped to 9


def test_critical_is_ten_percent_of_the_modified_skill() -> None:
    assert critical_threshold(85) == 8
    assert grade_roll(8, 85) == "critical" and grade_roll(9, 85) == "success"
    # With -30 the modified 55 % criticals on 05 or less.
    check = roll_check(ScriptedDice([10, 6]), 85, -30)
    assert check.roll == 6 and check.grade == "success"
    assert roll_check(ScriptedDice([10, 5]), 85, -30).grade == "critical"


def test_fumble_range_setting_uses_base_or_modified() -> None:
    # 85 % at -30: modified 55 fumbles from 95, base 85 from 98.
    assert roll_check(ScriptedDice([9, 6]), 85, -30).grade == "fumble"
    assert roll_check(ScriptedDice([9, 6]), 85, -30, fumble_on_base=True).grade == "failure"


def test_automatic_rolls_no_dice() -> None:
    dice = ScriptedDice([])
    assert roll_check(dice, 10, automatic="success").success
    assert not roll_check(dice, 90, automatic="failure").success


@pytest.mark.parametrize("skill", [5, 45, 85])
def test_exact_distribution(skill: int) -> None:
    result = distribution(lambda dice: roll_check(dice, skill).grade)
    crit = Fraction(max(1, skill // 10), 100)
    fumble = Fraction(100 - fumble_from(skill) + 1, 100)
    success = Fraction(skill, 100) - crit
    assert result.cut == 0
    assert result.outcomes["critical"] == crit
    assert result.outcomes["fumble"] == fumble
    assert result.outcomes["success"] == success
    assert result.outcomes["failure"] == 1 - crit - fumble - success


def test_success_category_is_skill_minus_roll() -> None:
    check = roll_check(ScriptedDice([3, 4]), 60)
    assert check.category == 26


def _c(grade: str, category: int = 0) -> Any:
    return Check(50, 0, 50 - category, grade, ())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [
        (_c("success"), _c("failure"), "first"),
        (_c("failure"), _c("success"), "second"),
        (_c("critical"), _c("success", 40), "first"),
        (_c("critical"), _c("critical"), "tie"),
        (_c("failure"), _c("failure"), "tie"),
        (_c("fumble"), _c("fumble"), "tie"),
        (_c("fumble"), _c("failure"), "second"),
        (_c("failure"), _c("fumble"), "first"),
        (_c("success", 10), _c("success", 20), "second"),
        (_c("success", 20), _c("success", 20), "tie"),
    ],
)
def test_opposed_list(first: Check, second: Check, winner: str) -> None:
    assert opposed_winner(first, second) == winner


def test_opposed_roll_through_the_follow_up(kit: Any) -> None:
    world = kit.make_world()
    params = {"skill": "pelea", "opposed_skill": "pelea"}
    res, world = kit.run(world, "roll", "jimmy", params, ("frank",), kit.pct(20))
    follow = res.cards[0].actions[0]
    assert follow.action == "oppose" and follow.actor_id == "frank"
    answer, _ = kit.run(
        world, follow.action, follow.actor_id, follow.params, follow.targets, kit.pct(40)
    )
    # Jimmy 50-20=30, Frank 55-40=15: Jimmy wins by success category.
    assert answer.cards[0].outcome.key == "failure"
    tie, _ = kit.run(
        world, follow.action, follow.actor_id, follow.params, follow.targets, kit.pct(25)
    )
    assert tie.cards[0].outcome.key == "tie"


def test_characteristic_roll_times_five(kit: Any) -> None:
    res, _ = kit.run(kit.make_world(), "roll", "jimmy", {"characteristic": "fue"}, (), kit.pct(60))
    assert res.cards[0].outcome.key == "success"  # FUE 12 x5 = 60
    res, _ = kit.run(
        kit.make_world(),
        "roll",
        "jimmy",
        {"characteristic": "fue", "multiplier": 3},
        (),
        kit.pct(37),
    )
    assert res.cards[0].outcome.key == "failure"
