"""A plain TA through the prepared path (rules/cunchillos/rounds.py) gives what the full path
gives: the same card, dice and effects, for rolls that read the round, the actor's condition
and the scene, with the actor's statuses brought in line either way."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from rules.cunchillos import SYSTEM
from rules.cunchillos.rounds import resolve_ta
from rules.dice import ScriptedDice
from rules.model import Action, RulesError, World
from rules.params import CheckedParams


def _world(**state: Any) -> World:
    actors = {actor.id: actor for actor in SYSTEM.sample_actors()}
    actors["ines"] = replace(actors["ines"], state={**actors["ines"].state, **state})
    return World("w", "Demo", "cunchillos", SYSTEM.validate_settings({}), actors)


CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"skill": "espada"}, {}),
    ({"skill": "alerta", "modifier": -3}, {}),
    ({"characteristic": "fue"}, {}),
    ({"skill": "esquivar"}, {"timers": {"stunned": 2, "incapacitated": 0, "unconscious": 0}}),
    ({"skill": "pelea"}, {"next_ta": 2, "manual": ["prone"]}),
    ({"skill": "espada"}, {"pv": 5, "prone": True}),
]


@pytest.mark.parametrize(("params", "state"), CASES)
def test_prepared_ta_matches_the_full_path(params: dict[str, Any], state: dict[str, Any]) -> None:
    world = _world(**state)
    checked = SYSTEM.check_action(world, Action("ta", "ines", dict(params)))
    assert type(checked.params) is CheckedParams
    plain = replace(checked, params=dict(checked.params))  # a plain dict: the full path
    for first, second in itertools.product(range(1, 11), repeat=2):
        faces = [first, second, 6, 6]
        for _ in range(2):  # the second time through the remembered entry
            ours = resolve_ta(world, checked, ScriptedDice(faces))
            theirs = resolve_ta(world, plain, ScriptedDice(faces))
            assert ours == theirs, (params, state, faces)
        assert SYSTEM.apply(world, ours) == SYSTEM.apply(world, theirs)


def test_a_changed_actor_is_worked_out_again_and_refusals_are_not_remembered() -> None:
    world = _world()
    checked = SYSTEM.check_action(world, Action("ta", "ines", {"skill": "espada"}))
    resolve_ta(world, checked, ScriptedDice([5, 5]))
    down = _world(pv=0)
    for _ in range(2):
        with pytest.raises(RulesError) as refused:
            resolve_ta(down, checked, ScriptedDice([5, 5]))
        assert refused.value.code == "actor_unconscious"
    stunned = _world(timers={"stunned": 2, "incapacitated": 0, "unconscious": 0})
    hurt = resolve_ta(stunned, checked, ScriptedDice([5, 5]))
    calm = resolve_ta(world, checked, ScriptedDice([5, 5]))
    assert hurt.cards[0].sections != calm.cards[0].sections  # the stun's penalty shows
