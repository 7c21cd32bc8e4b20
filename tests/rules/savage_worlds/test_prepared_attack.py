"""Planned attacks (rules/savage_worlds/prepared_attack.py) give the same result, record for
record, as the whole way (act_attack.resolve_attack) for the same dice, and go the whole way
for what they do not cover."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import SeededDice
from rules.model import Action, RulesError, World
from rules.savage_worlds import SYSTEM, act_attack, prepared_attack
from rules.savage_worlds.system import _with_defaults
from support.compiled import pure_only
from tests.rules.savage_worlds.sw_helpers import make_world, with_state

SETUPS: list[tuple[str, dict[str, Any], tuple[str, ...], dict[str, Any]]] = [
    ("agente", {"weapon": "subfusil", "rof": 3}, ("barbara", "ogro", "terrorista1"), {}),
    ("agente", {"weapon": "subfusil", "rof": 2, "moved": True}, ("ogro",), {}),
    ("agente", {"weapon": "ametralladora", "rof": 4, "cover": "light"}, ("ogro", "civil"), {}),
    ("agente", {"weapon": "subfusil", "rof": 1, "range": "long"}, ("sectoide",), {}),
    ("terrorista1", {"weapon": "pistola", "rof": 1, "blind": True}, ("agente",), {}),
    ("barbara", {"weapon": "granada", "rof": 1}, ("agente", "terrorista1"), {}),
    ("agente", {"weapon": "subfusil", "rof": 3}, ("ogro",), {"critical_failure": False}),
]


def _worlds() -> list[World]:
    plain = make_world()
    return [
        plain,
        with_state(plain, "agente", ("joker",), wounds=2),
        with_state(plain, "ogro", ("prone", "stunned")),
        with_state(plain, "agente", (), moved=True, bipod=["ametralladora"]),
        with_state(plain, "agente", (), ammo={"subfusil": 2, "ametralladora": 100}),
    ]


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_planned_equals_whole_way(setup: int) -> None:
    shooter, params, targets, settings_over = SETUPS[setup]
    for world in _worlds():
        world = World(
            world.id,
            world.name,
            world.system,
            SYSTEM.validate_settings(settings_over),
            world.actors,
            world.data,
        )
        settings = _with_defaults(world.settings)
        action = SYSTEM.check_action(world, Action("attack", shooter, params, targets, True))
        fired = 0
        for seed in range(300):
            try:
                want = act_attack.resolve_attack(world, action, SeededDice(seed), settings)
            except RulesError as refused:
                with pytest.raises(RulesError) as got:
                    prepared_attack.resolve_attack(world, action, SeededDice(seed), settings)
                assert (got.value.code, got.value.field) == (refused.code, refused.field)
                continue
            dice = SeededDice(seed)
            assert repr(prepared_attack.resolve_attack(world, action, dice, settings)) == repr(want)
            fired += 1
            again = SeededDice(seed)
            assert repr(SYSTEM.resolve(world, action, again)) == repr(want)
        assert fired == 0 or fired == 300


@pure_only(prepared_attack)
def test_bench_attack_takes_the_plan() -> None:
    world = make_world()
    action = SYSTEM.check_action(
        world, Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, ("ogro",), True)
    )
    settings = _with_defaults(world.settings)
    prepared_attack.resolve_attack(world, action, SeededDice(1), settings)
    calls: list[int] = []
    original = prepared_attack._fire

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    prepared_attack._fire = counted
    try:
        prepared_attack.resolve_attack(world, action, SeededDice(2), settings)
        # a shooter's wound is a new plan (a miss: the whole way once)
        hurt = with_state(world, "agente", (), wounds=1)
        prepared_attack.resolve_attack(hurt, action, SeededDice(2), settings)
    finally:
        prepared_attack._fire = original  # type: ignore[assignment]
    assert calls == [1]
