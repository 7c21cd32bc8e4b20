"""Health states, damage taken, healing, and days passing."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import ScriptedDice, SeededDice
from rules.model import TimeStep
from rules.o3d10.health import state_for_wounds
from rules.o3d10.settings import validate_settings
from rules.o3d10.sheet import parse_sheet


def _sheet(fisico: int, **combat: int) -> Any:
    return parse_sheet({"attributes": {"fisico": fisico}, "combat": combat})


@pytest.mark.parametrize(
    ("wounds", "state"),
    [
        (0, "normal"),
        (23, "normal"),
        (24, "malherido"),
        (31, "malherido"),
        (32, "inconsciente"),
        (47, "inconsciente"),
        (48, "muerto"),
    ],
)
def test_physique_eight_gives_0_24_32_48(wounds: int, state: str) -> None:
    # 'Ejemplo: Con Físico 8 los estados serían los siguientes rangos de heridas: 0 / 24 / 32 / 48.'
    assert state_for_wounds(_sheet(8), wounds, validate_settings({})) == state


def test_both_health_models_agree_with_the_default_hit_points() -> None:
    bands, points = validate_settings({}), validate_settings({"health_model": "hit_points"})
    for fisico in range(1, 11):
        for wounds in range(0, fisico * 7):
            assert state_for_wounds(_sheet(fisico), wounds, bands) == state_for_wounds(
                _sheet(fisico), wounds, points
            )


def test_hit_point_model_reads_the_sheet_hit_points() -> None:
    # 'Malherido: Si los PVs ... son iguales a su físico, o inferior'; 'Al llegar a 0 puntos de vida
    # un personaje está inconsciente. Para matarlo hay que llegar a Físico x6 PV.'
    points = validate_settings({"version": "primera"})
    sheet = _sheet(5, pv=20)
    assert [state_for_wounds(sheet, w, points) for w in (14, 15, 19, 20, 29, 30)] == [
        "normal",
        "malherido",
        "malherido",
        "inconsciente",
        "inconsciente",
        "muerto",
    ]
    tough = _sheet(5, pv=26)
    assert state_for_wounds(tough, 15, points) == "normal"
    assert state_for_wounds(tough, 15, validate_settings({})) == "malherido"  # bands ignore pv


def test_damage_moves_statuses_and_healing_takes_them_back(kit: Any) -> None:
    world = kit.make_world()
    steps = [(24, {"wounded"}), (8, {"unconscious"}), (16, {"dead"})]
    for amount, statuses in steps:
        applied, world = kit.run(world, "damage_apply", "aldara", {"amount": amount}, by_gm=True)
        assert world.actors["aldara"].statuses == statuses
        kit.check_translates(applied)
    healed, world = kit.run(world, "heal_wounds", "aldara", {"amount": 100}, by_gm=True)
    assert world.actors["aldara"].state["heridas"] == 0 and world.actors["aldara"].statuses == set()
    kit.check_translates(healed)
    assert "Muerto" in kit.render(
        kit.run(kit.make_world(), "damage_apply", "aldara", {"amount": 48}, by_gm=True)[0].cards[0]
    )


def test_token_numbers(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "aldara", heridas=5)
    assert kit.system.token_numbers(world.actors["aldara"]) == {
        "heridas": 5,
        "pv": 27,
        "pv_max": 32,
        "municion.ballesta": 1,
    }


def test_catch_breath_once_after_each_fight(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "aldara", heridas=10)
    rested, world = kit.run(world, "catch_breath", "aldara", dice=[4])
    assert world.actors["aldara"].state["heridas"] == 6
    assert rested.cards[0].dice[0].sides == 6 and rested.cards[0].dice[0].role == "aliento"
    kit.check_translates(rested)
    assert kit.refused(world, "catch_breath", "aldara") == "already_caught_breath"
    _, world = kit.run(world, "combat_start", "aldara", {"roll_all": False}, by_gm=True)
    assert kit.refused(world, "catch_breath", "aldara") == "in_combat"
    assert kit.refused(world, "sleep", "aldara") == "in_combat"
    _, world = kit.run(world, "combat_end", "aldara", by_gm=True)
    _, world = kit.run(world, "catch_breath", "aldara", dice=[6])
    assert world.actors["aldara"].state["heridas"] == 0  # never below 0
    down = kit.with_state(world, "bruno", heridas=24)
    assert kit.refused(down, "catch_breath", "bruno") == "actor_down"


def test_a_nights_sleep_heals_one_or_two_once_a_day(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "aldara", heridas=10)
    slept, world = kit.run(world, "sleep", "aldara")
    assert world.actors["aldara"].state["heridas"] == 9
    kit.check_translates(slept)
    assert kit.refused(world, "sleep", "aldara", {"comfort": "total"}) == "already_slept"
    day = kit.system.advance_time(world, TimeStep("day"), SeededDice(1))
    kit.check_translates(day)
    world = kit.system.apply(world, day)
    _, world = kit.run(world, "sleep", "aldara", {"comfort": "total"})
    assert world.actors["aldara"].state["heridas"] == 7
    dead = kit.with_state(world, "bruno", heridas=36)
    assert kit.refused(dead, "sleep", "bruno") == "actor_down"
    assert kit.system.advance_time(world, TimeStep("minute", 5), ScriptedDice([])) is None


def test_sleep_heals_an_unconscious_character(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "bruno", heridas=24)
    _, world = kit.run(world, "damage_apply", "bruno", {"amount": 0}, by_gm=True)
    assert world.actors["bruno"].statuses == {"unconscious"}
    _, world = kit.run(world, "sleep", "bruno", {"comfort": "total"})
    assert world.actors["bruno"].statuses == {"wounded"}
