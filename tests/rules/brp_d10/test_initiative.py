"""Timing: the text's table of actions per round, tenths of the second, firearm shots."""

from __future__ import annotations

import pytest
from brp_d10_helpers import run, sample_world

from rules.brp_d10.initiative import (
    firearm_agilities,
    max_weapon_actions,
    order_by_agility,
    split_formula,
    tenth,
    weapon_agilities,
)
from rules.brp_d10.tables import ACTION_SPLIT
from rules.model import RulesError

TEXT_TABLE = {
    # Agilidad: (2 A/A, 3 A/A) as printed in the seed ('/' = None)
    1: (None, None),
    2: ((2, 1), None),
    3: ((3, 1), (3, 2, 1)),
    4: ((4, 2), (4, 2, 1)),
    5: ((5, 2), (5, 3, 1)),
    6: ((6, 3), (6, 4, 2)),
    7: ((7, 3), (7, 4, 1)),
    8: ((8, 4), (8, 5, 2)),
    9: ((9, 4), (9, 6, 3)),
    10: ((10, 5), (10, 6, 2)),
}


@pytest.mark.parametrize("agility", range(1, 11))
def test_whole_table(agility: int) -> None:
    two, three = TEXT_TABLE[agility]
    assert weapon_agilities(agility, 2) == two
    assert weapon_agilities(agility, 3) == three
    assert weapon_agilities(agility, 1) == (agility,)


def test_formula_agrees_with_the_table_but_for_agilidad_4() -> None:
    # 'Uno de ellos tenía una Agilidad de 7, que dividido entre las dos acciones ... 3.5
    # (redondeando 4), que restado a 7 nos da 3'
    for agility in range(2, 11):
        for actions in (2, 3):
            table = ACTION_SPLIT[actions][agility]
            formula = split_formula(agility, actions)
            if (agility, actions) == (4, 3):
                assert table == (4, 2, 1) and formula == (4, 2)
            elif table is None:
                assert len(formula) < actions
            else:
                assert formula == table


def test_seed_examples() -> None:
    assert weapon_agilities(10, 3) == (10, 6, 2)  # the dagger at Agilidad 10
    assert weapon_agilities(4, 2) == (4, 2)  # the broadsword at Agilidad 4
    assert weapon_agilities(2, 3) is None  # 'Agilidad 2 can't take 3'
    assert max_weapon_actions(2, 3) == 2
    assert max_weapon_actions(1, 2) == 1
    assert [tenth(a) for a in (7, 5, 3, 2, 10)] == [4, 6, 8, 9, 1]
    assert firearm_agilities(5, 3) == (5, 4, 3)  # 'el segundo lo hará como si tuviera ... 4'
    assert firearm_agilities(7, 2, start=1) == (6, 5)
    assert order_by_agility({"a": 5, "b": 4, "c": 5}) == (("a", "c"), ("b",))


def test_initiative_action_and_declarations() -> None:
    world = sample_world()
    res, world = run(
        world, "initiative", "frances", plan="attack:espada,parry:espada", declare=True
    )
    lines = res.cards[0].sections[0].lines
    assert lines[1].label.params["tenth"] == 4
    assert lines[2].value.key == "line.slot_instant"
    assert world.data["brp_d10_plans"] == {"frances": "attack:espada,parry:espada"}
    with pytest.raises(RulesError) as error:
        run(world, "initiative", "frances", plan="attack:espada,attack:espada", declare=True)
    assert error.value.code == "already_declared"
    _, world = run(world, "initiative", "espanol", plan="attack:espada,attack:espada", declare=True)
    res, _ = run(world, "round_order", "frances", by_gm=True)
    tenths = [line.label.params["tenth"] for line in res.cards[0].sections[0].lines]
    assert tenths == sorted(tenths)
    assert 4 in tenths and 6 in tenths and 9 in tenths
    for plan, code in (
        ("attack:espada,attack:espada,attack:espada", "too_many_actions"),
        ("jump", "bad_plan"),
        ("attack:lanza", "no_such_weapon"),
        (",".join(["other"] * 8), "too_many_actions_agility"),
    ):
        with pytest.raises(RulesError) as error:
            run(world, "initiative", "frances", plan=plan)
        assert error.value.code == code
