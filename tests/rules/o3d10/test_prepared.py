"""Prepared checks (rules/o3d10/prepared.py) give what resolve_check gives, record for record.

Every one of the 1,000 first throws (and kept tens that go on) is resolved both ways with
the same scripted dice, for rolls that exercise each dice-free input the prepared check
remembers: skill and attribute, level and exact difficulty, modifier, unknown skill,
badly hurt, the token given and returned, the GM's forced rank, split actions, the
natural-one setting, rank stacking, encumbrance in and out of combat.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.model import Action, ActorChange, RulesError, World
from rules.o3d10 import SYSTEM
from rules.o3d10 import prepared as prepared_module
from rules.o3d10.prepared import resolve_prepared_check
from rules.o3d10.roll_actions import resolve_check
from rules.params import CheckedParams

THROWS = list(itertools.product(range(1, 11), repeat=3))

CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any], bool]] = [
    # (kind, actor, params, actor state, settings, by_gm)
    ("skill", "aldara", {"skill": "sigilo", "level": "normal"}, {}, {}, False),
    (
        "skill",
        "aldara",
        {"skill": "cuerpo_a_cuerpo", "difficulty": 17, "modifier": -3},
        {},
        {},
        False,
    ),
    ("skill", "aldara", {"skill": "advertir_notar"}, {}, {}, False),  # unknown (0): lowest
    ("skill", "aldara", {"skill": "sigilo", "level": "dificil"}, {"heridas": 24}, {}, False),
    ("skill", "aldara", {"skill": "sigilo", "give_token": True}, {}, {}, False),
    ("skill", "aldara", {"skill": "sigilo", "level": "facil"}, {"token": "returned"}, {}, False),
    ("skill", "aldara", {"skill": "sigilo", "keep": "highest"}, {}, {}, True),
    ("skill", "aldara", {"skill": "sigilo", "split": True, "modifier": 4}, {}, {}, False),
    (
        "skill",
        "aldara",
        {"skill": "sigilo", "give_token": True},
        {"heridas": 24},
        {"rank_stacking": "lowest_wins"},
        False,
    ),
    ("skill", "casilda", {"skill": "armas_a_distancia", "level": "normal"}, {}, {}, False),
    ("attribute", "aldara", {"attribute": "fisico", "level": "facil"}, {}, {}, False),
    (
        "attribute",
        "bruno",
        {"attribute": "destreza", "difficulty": 12},
        {},
        {"natural_one_attribute": True},
        False,
    ),
    ("attribute", "bandido", {"attribute": "carisma"}, {}, {}, False),
]


def _world(state: dict[str, Any], settings: dict[str, Any], actor_id: str) -> World:
    actors = {actor.id: actor for actor in SYSTEM.sample_actors()}
    world = World("w", "Mesa", "o3d10", SYSTEM.validate_settings(settings), actors)
    actor = world.actors[actor_id]
    return world.with_actor(replace(actor, state={**actor.state, **state}))


def _checked(world: World, kind: str, actor_id: str, params: dict[str, Any], by_gm: bool) -> Action:
    return SYSTEM.check_action(world, Action(kind, actor_id, dict(params), by_gm=by_gm))


def _both(world: World, action: Action, faces: list[int]) -> None:
    """Both ways on the same dice; a kept ten goes on into a throw that keeps no ten."""
    theirs, ours = ScriptedDice([*faces, 4, 6, 7]), ScriptedDice([*faces, 4, 6, 7])
    expected = resolve_check(world, action, theirs)
    got = resolve_prepared_check(world, action, ours)
    assert got == expected, faces
    assert ours.remaining == theirs.remaining, faces  # the same dice drawn


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0]}-{case[1]}-{sorted(case[2])}")
def test_every_throw_resolves_as_resolve_check(
    case: tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any], bool],
) -> None:
    kind, actor_id, params, state, settings, by_gm = case
    world = _world(state, settings, actor_id)
    action = _checked(world, kind, actor_id, params, by_gm)
    assert type(action.params) is CheckedParams
    for throw in THROWS:
        _both(world, action, list(throw))
    assert any(p.actor is world.actors[actor_id] for p in prepared_module._PREPARED.values())


def test_kept_tens_that_go_on_twice() -> None:
    world = _world({}, {}, "aldara")
    action = _checked(world, "skill", "aldara", {"skill": "sigilo", "level": "normal"}, False)
    _both(world, action, [10, 10, 1, 10, 10, 10, 2, 9, 5])


def test_encumbrance_follows_the_combat_and_the_token_moves() -> None:
    world = _world({}, {}, "casilda")
    params = {"skill": "armas_a_distancia"}
    action = _checked(world, "skill", "casilda", params, False)
    calm = resolve_prepared_check(world, action, ScriptedDice([5, 5, 5]))
    fighting = replace(world, data={"o3d10_combat": {"active": True}})
    fight = resolve_prepared_check(fighting, action, ScriptedDice([5, 5, 5]))
    assert fight == resolve_check(fighting, action, ScriptedDice([5, 5, 5]))
    assert calm.cards[0].sections != fight.cards[0].sections  # encumbrance out of combat only
    given = _checked(
        world, "skill", "casilda", {"skill": "advertir_notar", "give_token": True}, False
    )
    first = resolve_prepared_check(world, given, ScriptedDice([5, 3, 9]))
    second = resolve_prepared_check(world, given, ScriptedDice([5, 3, 9]))
    one, two = first.effects[0], second.effects[0]
    assert isinstance(one, ActorChange) and isinstance(two, ActorChange)
    assert one == two and one.state == {"token": "gm"}
    assert one.state is not two.state  # each roll its own change


def test_a_new_actor_or_new_settings_are_worked_out_again() -> None:
    world = _world({}, {}, "aldara")
    action = _checked(world, "skill", "aldara", {"skill": "sigilo", "level": "normal"}, False)
    fresh = resolve_prepared_check(world, action, ScriptedDice([5, 3, 9]))
    assert [die.kept for die in fresh.cards[0].dice] == [True, False, False]  # the median
    aldara = world.actors["aldara"]
    hurt = world.with_actor(replace(aldara, state={**aldara.state, "heridas": 24}))
    lowered = resolve_prepared_check(hurt, action, ScriptedDice([5, 3, 9]))
    assert [die.kept for die in lowered.cards[0].dice] == [False, True, False]  # badly hurt
    stacking = replace(hurt, settings={**hurt.settings, "rank_stacking": "lowest_wins"})
    token = _checked(stacking, "skill", "aldara", {"skill": "sigilo", "give_token": True}, False)
    assert resolve_prepared_check(stacking, token, ScriptedDice([5, 3, 9])) == resolve_check(
        stacking, token, ScriptedDice([5, 3, 9])
    )
    back = replace(stacking, settings=world.settings)
    steps = resolve_prepared_check(back, token, ScriptedDice([5, 3, 9]))
    assert [die.kept for die in steps.cards[0].dice] == [True, False, False]  # token cancels


def test_refusals_are_not_remembered() -> None:
    world = _world({"heridas": 32}, {}, "aldara")  # Físico 8 x4: unconscious
    action = _checked(world, "skill", "aldara", {"skill": "sigilo"}, False)
    for _ in range(2):
        with pytest.raises(RulesError) as refused:
            resolve_prepared_check(world, action, ScriptedDice([5, 5, 5]))
        assert refused.value.code == "actor_down"
    given = _checked(world, "skill", "aldara", {"skill": "sigilo", "give_token": True}, False)
    held = _world({"token": "gm"}, {}, "aldara")
    with pytest.raises(RulesError) as refused:
        resolve_prepared_check(held, given, ScriptedDice([5, 5, 5]))
    assert refused.value.code == "token_not_held"


def test_actions_not_from_check_action_and_opposed_rolls_take_the_full_path() -> None:
    world = _world({}, {}, "aldara")
    raw = Action("skill", "aldara", {"skill": "sigilo", "level": "normal"})
    assert resolve_prepared_check(world, raw, ScriptedDice([5, 3, 9])) == resolve_check(
        world, raw, ScriptedDice([5, 3, 9])
    )
    opposed = _checked(
        world, "skill", "aldara", {"skill": "sigilo", "opposed_skill": "advertir_notar"}, False
    )
    opposed = replace(opposed, targets=("bruno",))
    got = resolve_prepared_check(world, opposed, ScriptedDice([5, 3, 9]))
    assert got.cards[0].actions and got == resolve_check(world, opposed, ScriptedDice([5, 3, 9]))


def test_the_caches_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules import params as params_module
    from rules import system as system_module

    monkeypatch.setattr(prepared_module, "PREPARED_SIZE", 8)
    monkeypatch.setattr(params_module, "_CHECKED_SIZE", 8)
    monkeypatch.setattr(system_module, "CHECKED_ACTIONS_SIZE", 8)
    monkeypatch.setattr(prepared_module, "_PREPARED", {})  # empty, as a fresh process
    monkeypatch.setattr(params_module, "_CHECKED", {})
    monkeypatch.setattr(system_module, "_CHECKED_ACTIONS", {})
    world = _world({}, {}, "aldara")
    for modifier in range(-30, 30):  # 60 distinct requests
        action = _checked(
            world, "skill", "aldara", {"skill": "sigilo", "modifier": modifier}, False
        )
        _both(world, action, [5, 3, 9])
    assert len(prepared_module._PREPARED) <= 8
    assert len(params_module._CHECKED) <= 8
    assert len(system_module._CHECKED_ACTIONS) <= 8
