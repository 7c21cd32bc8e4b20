from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from sw_helpers import make_world, run, with_state

from rules.model import RulesError, t
from rules.probability import distribution
from rules.savage_worlds.traits import Modifier, TraitDie, roll_trait_check


def _p_below(sides: int, needed: int) -> Fraction:
    """P(an exploding die totals less than ``needed``), closed form."""
    if needed <= 1:
        return Fraction(0)
    if needed <= sides:
        return Fraction(needed - 1, sides)
    return Fraction(sides - 1, sides) + Fraction(1, sides) * _p_below(sides, needed - sides)


def _success(sides: int, wild: bool, modifier: int, tn: int = 4) -> Any:
    trait = TraitDie("x", t("raw", text="x"), sides, ())

    def roll(dice: Any) -> bool:
        result = roll_trait_check(
            dice, trait, wild_card=wild, modifiers=(Modifier("m", modifier),), tn=tn
        )
        return result.success

    return distribution(roll, max_dice=6)


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
def test_wild_card_success_probability_is_exact(sides: int) -> None:
    found = _success(sides, True, 0)
    # Fails when both dice are under 4 (a double 1 is among those failures).
    exact = 1 - _p_below(sides, 4) * _p_below(6, 4)
    assert found.outcomes[True] <= exact <= found.outcomes[True] + found.cut


def test_extra_unskilled_d4_minus_2_needs_an_ace() -> None:
    found = _success(4, False, -2)
    exact = 1 - _p_below(4, 6)
    assert exact == Fraction(3, 16)
    assert found.outcomes[True] <= exact <= found.outcomes[True] + found.cut


def test_critical_failure_is_double_one_and_fails_even_with_bonus() -> None:
    trait = TraitDie("x", t("raw", text="x"), 8, ())
    result = roll_trait_check(_Dice([1, 1]), trait, wild_card=True, modifiers=(Modifier("m", 10),))
    assert result.critical_failure and not result.success
    off = roll_trait_check(
        _Dice([1, 1]),
        trait,
        wild_card=True,
        modifiers=(Modifier("m", 10),),
        critical_failure_rule=False,
    )
    assert off.success

    def crit(dice: Any) -> bool:
        return roll_trait_check(dice, trait, wild_card=True, modifiers=()).critical_failure

    assert distribution(crit, max_dice=4).outcomes[True] == Fraction(1, 48)


class _Dice:
    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> int:
        return self.faces.pop(0)


def test_raises_every_four_over_the_target() -> None:
    trait = TraitDie("x", t("raw", text="x"), 12, ())
    result = roll_trait_check(_Dice([12, 3, 2]), trait, wild_card=True, modifiers=())
    assert result.total == 15 and result.raises == 2


def test_trait_roll_applies_wounds_joker_and_unskilled() -> None:
    world = with_state(make_world(), "agente", ["joker"], wounds=3)
    _, resolution = run(world, "trait", "agente", {"trait": "lanzar", "free": True}, (), [3, 5])
    lines = resolution.cards[0].sections[0].lines
    values = {line.label.key: line.value for line in lines}
    assert values["mod.unskilled"] == "-2"
    assert values["mod.wounds"] == "-3"
    assert values["mod.joker"] == "+2"
    assert resolution.cards[0].outcome is not None
    # wild 5 kept: 5 - 2 - 3 + 2 = 2
    assert resolution.cards[0].outcome.margin == -2


def test_wound_penalty_is_capped_at_three_and_extras_have_none() -> None:
    world = with_state(make_world(), "agente", wounds=5)
    _, resolution = run(world, "trait", "agente", {"trait": "vigor", "free": True}, (), [4, 5])
    values = {line.label.key: line.value for line in resolution.cards[0].sections[0].lines}
    assert values["mod.wounds"] == "-3"
    extra = with_state(make_world(), "terrorista1", wounds=2)
    _, resolution = run(extra, "trait", "terrorista1", {"trait": "vigor", "free": True}, (), [4])
    keys = {line.label.key for line in resolution.cards[0].sections[0].lines}
    assert "mod.wounds" not in keys


def test_unskilled_can_be_refused_by_setting() -> None:
    world = make_world({"unskilled": "refuse"})
    with pytest.raises(RulesError) as error:
        run(world, "trait", "agente", {"trait": "lanzar"})
    assert error.value.code == "unskilled_refused"


def test_injury_lowers_the_attribute_one_step() -> None:
    world = with_state(
        make_world(), "agente", injuries=[{"key": "guts_broken", "lasting": "permanent"}]
    )
    _, resolution = run(
        world, "trait", "agente", {"trait": "agilidad", "free": True}, (), [6, 6, 1, 2]
    )
    assert resolution.cards[0].dice[0].sides == 6


@pytest.mark.parametrize(("setting", "key"), [(True, "fumble"), (False, "failure")])
def test_critical_failure_world_setting(setting: bool, key: str) -> None:
    world = make_world({"critical_failure": setting})
    _, resolution = run(world, "trait", "agente", {"trait": "notar", "free": True}, (), [1, 1])
    assert resolution.cards[0].outcome is not None
    assert resolution.cards[0].outcome.key == key
