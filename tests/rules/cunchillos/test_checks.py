from fractions import Fraction

import pytest

from rules.cunchillos.checks import Modifier, classify, make_ta, opposed_winner, roll_ta
from rules.cunchillos.settings import Rules, rules_of
from rules.dice import ScriptedDice
from rules.probability import distribution

RULES = Rules()


def test_dE_is_rolled_first_then_two_action_dice() -> None:
    roll = roll_ta(ScriptedDice([7, 3, 9]), with_location=True)
    assert roll.location is not None and roll.location.first == 7
    assert (roll.high, roll.low, roll.natural) == (9, 3, 12)
    assert [d.role for d in roll.dice] == ["action", "action", "location"]


@pytest.mark.parametrize(
    ("natural", "doubles", "value", "modifier", "level"),
    [
        (4, True, 10, 0, "critical"),
        (20, True, 10, 0, "fumble"),
        (10, False, 15, 0, "success"),
        (14, False, 15, 0, "low_success"),
        (15, False, 15, 0, "low_success"),
        (16, False, 15, 0, "low_failure"),
        (17, False, 15, 0, "low_failure"),
        (18, False, 15, 0, "failure"),
        (10, False, 14, 5, "low_failure"),
    ],
)
def test_levels_by_doubles(
    natural: int, doubles: bool, value: int, modifier: int, level: str
) -> None:
    assert classify(natural, doubles, value, modifier, RULES) == level


def test_levels_by_margin() -> None:
    rules = rules_of({"critical_rule": "margin", "critical_margin": 8, "fumble_margin": 6})
    assert classify(4, True, 12, 0, rules) == "critical"
    assert classify(5, False, 12, 0, rules) == "success"
    assert classify(18, True, 12, 0, rules) == "fumble"
    assert classify(17, False, 12, 0, rules) == "failure"


def test_modifiers_add_to_the_total_and_zero_ones_are_dropped() -> None:
    result = make_ta(
        ScriptedDice([3, 4]), "espada", 10, [Modifier("off_hand", 5), Modifier("gm", 0)], RULES
    )
    assert result.total == 12 and result.margin == -2 and result.level == "low_failure"
    assert [m.key for m in result.modifiers] == ["off_hand"]


def test_exact_success_chance_against_ten() -> None:
    def level(dice: object) -> str:
        return make_ta(dice, "x", 10, [], RULES).level  # type: ignore[arg-type]

    dist = distribution(level)
    # 2d10 <= 10: 45 of 100 ordered pairs; doubles among them (1-1..5-5): 5 are criticals.
    assert dist.outcomes["critical"] == Fraction(5, 100)
    success = sum(dist.outcomes.get(k, Fraction(0)) for k in ("critical", "success", "low_success"))
    assert success == Fraction(45, 100)
    # Failed doubles (6-6..10-10) are fumbles.
    assert dist.outcomes["fumble"] == Fraction(5, 100)
    assert dist.cut == 0


def test_opposed_level_then_margin_and_ties_keep_the_status_quo() -> None:
    better = make_ta(ScriptedDice([2, 3]), "x", 10, [], RULES)
    worse = make_ta(ScriptedDice([4, 5]), "x", 10, [], RULES)
    assert opposed_winner(better, worse, RULES)
    assert not opposed_winner(worse, better, RULES)
    same = make_ta(ScriptedDice([2, 3]), "x", 10, [], RULES)
    assert not opposed_winner(same, better, RULES)
