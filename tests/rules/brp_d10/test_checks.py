"""Checks: the seed's examples, success levels, criticals, bursts, sprays, exact probabilities."""

from __future__ import annotations

from fractions import Fraction

import pytest
from brp_d10_helpers import follow, run, sample_world

from rules.brp_d10.checks import (
    Check,
    burst_hits,
    opposed_winner,
    roll_attack,
    roll_check,
    success_chance,
    sustained_bullets,
)
from rules.dice import Die, ScriptedDice
from rules.probability import distribution
from rules.rolls import roll_die


@pytest.mark.parametrize(
    ("skill", "difficulty", "face", "success"),
    [
        (5, -2, 7, True),  # 'Escalada es 5 ... -2 ... saca un 7 ... (7+(-2)=5) ... éxito'
        (5, -2, 8, False),  # 'Si hubiera sacado un 8 ... habría fallado'
        (7, 3, 2, True),  # 'Mecánica es de 7 ... +3 ... saca un 2 ... (2+3=5) ... éxito'
        (7, 3, 6, False),  # 'Si hubiera saca un 6 ... habría fallado'
    ],
)
def test_seed_check_examples(skill: int, difficulty: int, face: int, success: bool) -> None:
    check = roll_check(ScriptedDice([face]), skill, difficulty)
    assert check.success is success
    assert check.total == face + difficulty


@pytest.mark.parametrize(("skill", "face", "level"), [(5, 5, 0), (5, 2, 3), (10, 1, 9)])
def test_success_level_ignores_difficulty(skill: int, face: int, level: int) -> None:
    # 'si tienes una habilidad de 5 y has sacado 5 ... 5-5=0; si has sacado un 2 ... 5-2=3, y si
    # tienes una habilidad de 10 y has sacado un 1 ... 10-1=9'
    assert roll_check(ScriptedDice([face]), skill, -5, skip_certain=False).level == level
    assert roll_check(ScriptedDice([face]), skill, 0, skip_certain=False).level == level


def test_skill_ten_succeeds_without_a_roll() -> None:
    dice = ScriptedDice([])
    check = roll_check(dice, 10, 0)
    assert check.automatic and check.success and check.dice == ()
    assert not roll_check(ScriptedDice([10]), 10, 1).success


@pytest.mark.parametrize("skill", range(0, 11))
@pytest.mark.parametrize("difficulty", range(-4, 5))
def test_check_probability_matches_closed_form(skill: int, difficulty: int) -> None:
    # 'alguien que tenga un valor de 5 tendrá un 50% ... con un valor de 1 un 10%'
    dist = distribution(lambda d: roll_check(d, skill, difficulty, skip_certain=False).success)
    favourable, sides = success_chance(skill, difficulty)
    assert dist.outcomes.get(True, Fraction(0)) == Fraction(favourable, sides)


def test_critical_probability() -> None:
    # a 1 that hits, confirmed by a reroll <= skill without difficulty
    for skill in range(1, 11):
        dist = distribution(lambda d, s=skill: roll_attack(d, s, 0).critical)
        assert dist.outcomes.get(True, Fraction(0)) == Fraction(1, 10) * Fraction(skill, 10)
    # at +5 a skill 5 cannot hit even with a 1: no critical unless the world says so
    assert distribution(lambda d: roll_attack(d, 5, 5).critical).outcomes == {False: 1}
    loose = distribution(lambda d: roll_attack(d, 5, 5, critical_needs_hit=False).critical)
    assert loose.outcomes[True] == Fraction(1, 10) * Fraction(5, 10)


def test_burst_bullets() -> None:
    # 'La primera bala acertará con un 5 o menos, la segunda con un 4 o menos y la tercera con un 3'
    assert burst_hits(5, 0, 4, 3) == (True, True, False)
    assert [sum(burst_hits(5, 0, face, 3)) for face in range(1, 11)] == [
        3,
        3,
        3,
        2,
        1,
        0,
        0,
        0,
        0,
        0,
    ]


def test_spray_bullets_distribution() -> None:
    # 'se tira 1d10 y se divide el resultado entre dos (redondeando hacia arriba)'
    dist = distribution(lambda d: sustained_bullets(roll_die(d, 10, "spray_hits").first, 5))
    assert dist.outcomes == {n: Fraction(1, 5) for n in range(1, 6)}
    assert sustained_bullets(6, 5) == 3
    assert sustained_bullets(10, 2) == 2  # never more than the spray fired


def test_opposed_winner() -> None:
    def rolled(value: int, face: int) -> Check:
        return Check(value, 0, Die(10, (face,), "check"))

    assert opposed_winner(rolled(5, 2), rolled(7, 2)) == 1  # levels 3 and 5
    assert opposed_winner(rolled(5, 2), rolled(7, 8)) == 0  # the second fails
    assert opposed_winner(rolled(5, 7), rolled(7, 8)) == -1  # both fail
    assert opposed_winner(rolled(5, 2), rolled(6, 3)) == -1
    assert opposed_winner(rolled(5, 2), rolled(6, 3), "defender") == 1


def test_check_action_and_opposed_follow_up() -> None:
    world = sample_world()
    res, world = run(
        world, "check", "espanol", [3], ("frances",), skill="espadas", opposed_skill="esquivar"
    )
    assert res.cards[0].outcome is None
    tie, _ = follow(world, res, "oppose", [1])
    assert tie.cards[0].outcome.key == "tie"  # levels: español 5 - 3 = 2, francés 3 - 1 = 2
    lost, _ = follow(world, res, "oppose", [2])
    assert lost.cards[0].outcome.key == "failure"  # francés 3 - 2 = 1 < 2
    res, _ = run(world, "check", "frances", [6], characteristic="resistencia", difficulty=-1)
    assert res.cards[0].outcome.success is True
    res, _ = run(world, "check", "frances", [], skill="espadas", difficulty=-7)
    assert res.cards[0].dice == () and res.cards[0].outcome.success is True
