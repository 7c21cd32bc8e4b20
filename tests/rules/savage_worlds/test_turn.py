"""A character's turn: declaring actions, free actions, Shaken recovery, bennies, hold, gear."""

from __future__ import annotations

import pytest
from sw_helpers import make_world, run, with_state

from rules.model import RulesError, World


def _in_combat() -> World:
    world, _ = run(make_world(), "combat_start", "agente", {}, ("agente", "barbara", "ogro"))
    return world


def _mods(resolution: object) -> dict[str, object]:
    card = resolution.cards[0]  # type: ignore[attr-defined]
    return {
        ln.label.key: ln.value for ln in card.sections[0].lines if ln.label.key.startswith("mod.")
    }


def test_multi_action_penalty_applies_to_every_declared_action() -> None:
    world = _in_combat()
    world, declared = run(world, "declare", "agente", {"count": 3})
    assert declared.cards[0].sections[0].lines[0].value == "-4"
    for _ in range(3):
        world, roll = run(world, "trait", "agente", {"trait": "notar"}, (), [5, 2])
        assert _mods(roll)["mod.multi"] == "-4"
    with pytest.raises(RulesError) as error:
        run(world, "trait", "agente", {"trait": "notar"})
    assert error.value.code == "not_enough_actions"


def test_one_action_without_declaring_and_up_to_three() -> None:
    world = _in_combat()
    world, _ = run(world, "attack", "agente", {"weapon": "subfusil"}, ("ogro",), [1, 2])
    with pytest.raises(RulesError) as error:
        run(world, "attack", "agente", {"weapon": "subfusil"}, ("ogro",))
    assert error.value.code == "not_enough_actions"
    with pytest.raises(RulesError) as error:
        run(world, "declare", "barbara", {"count": 4})
    assert error.value.code == "too_many_actions"
    with pytest.raises(RulesError) as error:
        run(world, "declare", "agente", {"count": 2})
    assert error.value.code == "actions_already_started"


def test_free_rolls_do_not_spend_actions_and_out_of_combat_nothing_is_counted() -> None:
    world = _in_combat()
    for _ in range(4):
        world, _ = run(world, "trait", "agente", {"trait": "vigor", "free": True}, (), [5, 2])
    world = make_world()
    for _ in range(4):
        world, roll = run(world, "trait", "agente", {"trait": "notar"}, (), [5, 2])
        assert "mod.multi" not in _mods(roll)


def test_setting_can_stop_counting_actions() -> None:
    world, _ = run(
        make_world({"track_actions": False}), "combat_start", "agente", {}, ("agente", "ogro")
    )
    for _ in range(3):
        world, _ = run(world, "trait", "agente", {"trait": "notar"}, (), [5, 2])


def test_free_actions_prone_and_stand() -> None:
    world = make_world()
    world, _ = run(world, "free", "agente", {"what": "prone"})
    assert "prone" in world.actors["agente"].statuses
    world, _stand = run(world, "free", "agente", {"what": "stand"})
    assert "prone" not in world.actors["agente"].statuses
    with pytest.raises(RulesError) as error:
        run(world, "free", "agente", {"what": "stand"})
    assert error.value.code == "not_prone"
    wounded = with_state(world, "agente", wounds=2)
    _, move = run(wounded, "free", "agente", {"what": "move"})
    assert move.cards[0].sections[0].lines[0].label.params["pace"] == 4


@pytest.mark.parametrize(("faces", "recovers"), [([4, 1], True), ([3, 2], False)])
def test_shaken_rolls_spirit_at_the_start_of_the_turn(faces: list[int], recovers: bool) -> None:
    world = with_state(_in_combat(), "agente", ["stunned"])
    world, start = run(world, "start_turn", "agente", {}, (), faces)
    assert ("stunned" not in world.actors["agente"].statuses) == recovers
    assert start.cards[0].dice[0].role == "spirit"


def test_a_benny_removes_shaken_at_any_time() -> None:
    world = with_state(make_world(), "agente", ["stunned"])
    world, _ = run(world, "unshake", "agente")
    assert "stunned" not in world.actors["agente"].statuses
    assert world.actors["agente"].state["bennies"] == 2
    with pytest.raises(RulesError) as error:
        run(world, "unshake", "agente")
    assert error.value.code == "not_shaken"
    broke = with_state(world, "agente", ["stunned"], bennies=0)
    with pytest.raises(RulesError) as error:
        run(broke, "unshake", "agente")
    assert error.value.code == "no_bennies"


def test_gm_gives_bennies_to_players_and_to_the_pool() -> None:
    world, _ = run(make_world(), "benny", "agente", {"count": 2})
    assert world.actors["agente"].state["bennies"] == 5
    world, _ = run(world, "benny", "agente", {"count": 3, "to_gm": True})
    assert world.data["gm_bennies"] == 5


def test_interrupt_is_opposed_athletics_higher_first_tie_simultaneous() -> None:
    world = with_state(_in_combat(), "agente", ["on_hold"])
    _, first = run(world, "interrupt", "agente", {}, ("ogro",), [5, 1, 2, 1])
    assert first.cards[0].outcome is not None and first.cards[0].outcome.key == "success"
    _, tie = run(world, "interrupt", "agente", {}, ("ogro",), [4, 1, 4, 1])
    assert tie.cards[0].outcome is not None and tie.cards[0].outcome.key == "tie"
    assert [d.role for d in tie.cards[0].dice] == ["athletics", "wild", "athletics", "wild"]
    with pytest.raises(RulesError) as error:
        run(_in_combat(), "interrupt", "agente", {}, ("ogro",))
    assert error.value.code == "not_on_hold"


def test_hold_needs_combat_and_an_unused_turn() -> None:
    with pytest.raises(RulesError) as error:
        run(make_world(), "hold", "agente")
    assert error.value.code == "not_in_combat"


def test_reload_magazine_is_an_action_belt_is_a_full_round() -> None:
    world = with_state(_in_combat(), "agente", ammo={"subfusil": 0, "ametralladora": 0})
    world, _ = run(world, "reload", "agente", {"weapon": "subfusil"})
    state = world.actors["agente"].state
    assert state["ammo"]["subfusil"] == 30 and state["magazines"]["subfusil"] == 2
    with pytest.raises(RulesError) as error:
        run(world, "reload", "agente", {"weapon": "ametralladora"})
    assert error.value.code == "full_round_action"
    fresh = with_state(_in_combat(), "agente", ammo={"subfusil": 0, "ametralladora": 0})
    fresh, _ = run(fresh, "reload", "agente", {"weapon": "ametralladora"})
    with pytest.raises(RulesError) as error:
        run(fresh, "trait", "agente", {"trait": "notar"})
    assert error.value.code == "full_round_action"


def test_reload_refusals() -> None:
    world = make_world()
    for weapon, code in (("subfusil", "already_loaded"), ("cuchillo", "no_reload_needed")):
        with pytest.raises(RulesError) as error:
            run(world, "reload", "agente", {"weapon": weapon})
        assert error.value.code == code
    empty = with_state(world, "agente", ammo={"subfusil": 0}, magazines={"subfusil": 0})
    with pytest.raises(RulesError) as error:
        run(empty, "reload", "agente", {"weapon": "subfusil"})
    assert error.value.code == "no_magazines"


def test_two_holstered_weapons_ready_free_then_it_costs_an_action() -> None:
    world = _in_combat()
    world, one = run(world, "ready", "agente", {"weapon": "subfusil"})
    world, two = run(world, "ready", "agente", {"weapon": "cuchillo"})
    assert one.cards[0].sections[0].lines[0].value.key == "line.cost_free"
    assert two.cards[0].sections[0].lines[0].value.key == "line.cost_free"
    world, three = run(world, "ready", "agente", {"weapon": "subfusil"})
    assert three.cards[0].sections[0].lines[0].value.key == "line.cost_action"
    heavy = _in_combat()
    heavy, lmg = run(heavy, "ready", "agente", {"weapon": "ametralladora"})
    assert lmg.cards[0].sections[0].lines[0].value.key == "line.cost_action"
    ground = _in_combat()
    ground, picked = run(ground, "ready", "agente", {"weapon": "cuchillo", "source": "ground"})
    assert picked.cards[0].sections[0].lines[0].value.key == "line.cost_action"


def test_bipod_takes_a_full_round_and_moving_folds_it() -> None:
    world = _in_combat()
    world, _ = run(world, "bipod", "agente", {"weapon": "ametralladora"})
    assert world.actors["agente"].state["bipod"] == ["ametralladora"]
    with pytest.raises(RulesError) as error:
        run(world, "bipod", "agente", {"weapon": "ametralladora"})
    assert error.value.code == "bipod_already_set"
    with pytest.raises(RulesError) as error:
        run(world, "bipod", "agente", {"weapon": "subfusil"})
    assert error.value.code == "no_bipod"
    world, _ = run(world, "free", "agente", {"what": "move"})
    assert world.actors["agente"].state["bipod"] == []
