"""A plain omerta roll through the prepared path (rules/omerta/skills.py) gives what the full
path gives, card for card, on every pair of percentile dice."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.model import Action, RulesError, World
from rules.omerta import SYSTEM
from rules.omerta.skills import _resolve_roll, resolve_roll
from rules.params import CheckedParams


def _world(settings: dict[str, Any] | None = None, **statuses: frozenset[str]) -> World:
    actors = {actor.id: actor for actor in SYSTEM.sample_actors()}
    for actor_id, marks in statuses.items():
        actors[actor_id] = replace(actors[actor_id], statuses=marks)
    return World("w", "Mesa", "omerta", SYSTEM.validate_settings(settings or {}), actors)


CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"skill": "arma_corta"}, {}),
    ({"skill": "pelea", "modifier": -20}, {}),
    ({"skill": "esquivar", "modifier": 15}, {"fumble_range": "base"}),
    ({"characteristic": "des"}, {}),
    ({"characteristic": "fue", "multiplier": 3}, {"characteristic_multiplier": 4}),
    ({"skill": "lanzar", "automatic": "success"}, {}),
    ({"skill": "lanzar", "automatic": "failure"}, {}),
]


@pytest.mark.parametrize(("params", "settings"), CASES)
def test_prepared_roll_matches_the_full_path(
    params: dict[str, Any], settings: dict[str, Any]
) -> None:
    world = _world(settings)
    checked = SYSTEM.check_action(world, Action("roll", "jimmy", dict(params)))
    assert type(checked.params) is CheckedParams
    for tens, units in itertools.product(range(1, 11), repeat=2):
        for _ in range(2):  # the second time through the remembered entry
            ours = ScriptedDice([tens, units])
            theirs = ScriptedDice([tens, units])
            assert resolve_roll(world, checked, ours) == _resolve_roll(world, checked, theirs)
            assert ours.remaining == theirs.remaining


def test_a_changed_actor_is_worked_out_again_and_refusals_are_not_remembered() -> None:
    world = _world()
    checked = SYSTEM.check_action(world, Action("roll", "jimmy", {"skill": "pelea"}))
    resolve_roll(world, checked, ScriptedDice([5, 5]))
    down = _world(jimmy=frozenset({"unconscious"}))
    for _ in range(2):
        with pytest.raises(RulesError) as refused:
            resolve_roll(down, checked, ScriptedDice([5, 5]))
        assert refused.value.code == "actor_unconscious"
    harsh = _world({"fumble_range": "base"})
    strict = SYSTEM.check_action(
        harsh, Action("roll", "jimmy", {"skill": "pelea", "modifier": -60})
    )
    assert resolve_roll(harsh, strict, ScriptedDice([10, 10])) == _resolve_roll(
        harsh, strict, ScriptedDice([10, 10])
    )
