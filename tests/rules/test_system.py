import pytest

from rules.model import Action, Actor, ActorChange, RulesError, World, WorldChange
from rules.registry import Registry, default_registry
from rules.system import apply_effects


def _world() -> World:
    actor = Actor("a", "Ana", "u1", {"x": 1}, {"hp": 5}, frozenset({"prone"}))
    return World("w", "Mesa", "o3d10", {}, {"a": actor}, {"round": 1})


def test_apply_effects_folds_actor_and_world_changes() -> None:
    world = apply_effects(
        _world(),
        (
            ActorChange("a", {"hp": 3}, add=frozenset({"stunned"}), remove=frozenset({"prone"})),
            WorldChange({"round": 2}),
        ),
    )
    assert world.actors["a"].state == {"hp": 3}
    assert world.actors["a"].statuses == {"stunned"}
    assert world.data == {"round": 2}
    assert _world().actors["a"].state == {"hp": 5}, "the old world is untouched"


def test_unknown_actor_is_a_rules_error() -> None:
    with pytest.raises(RulesError) as caught:
        apply_effects(_world(), (ActorChange("zz"),))
    assert caught.value.code == "unknown_actor"


def test_registry() -> None:
    registry = default_registry()
    assert "o3d10" in registry
    with pytest.raises(KeyError, match="unknown system"):
        registry.get("nope")
    system = registry.get("o3d10")
    with pytest.raises(ValueError, match="share the id"):
        Registry([system, system])


def test_check_action_validates_params_and_targets() -> None:
    system = default_registry().get("o3d10")
    world = World(
        "w", "Mesa", "o3d10", system.default_settings(), {a.id: a for a in system.sample_actors()}
    )
    with pytest.raises(RulesError) as caught:
        system.check_action(world, Action("skill", "aldara", {"skill": "sigilo"}, ("x", "y")))
    assert caught.value.code == "invalid_targets"
    with pytest.raises(RulesError) as caught:
        system.check_action(world, Action("skill", "aldara", {"skill": "sigilo"}, ("ghost",)))
    assert (caught.value.code, caught.value.field) == ("unknown_actor", "targets.0")
    with pytest.raises(RulesError) as caught:
        system.check_action(world, Action("fly", "aldara"))
    assert caught.value.code == "unknown_action"


def test_equal_requests_share_one_checked_action_and_targets_are_looked_up_each_time() -> None:
    system = default_registry().get("o3d10")
    actors = {a.id: a for a in system.sample_actors()}
    world = World("w", "Mesa", "o3d10", system.default_settings(), actors)
    opposed = {"skill": "sigilo", "opposed_skill": "advertir_notar"}
    first = system.check_action(
        world, Action("skill", "aldara", dict(opposed), ("bruno",), user="u")
    )
    again = system.check_action(
        world, Action("skill", "aldara", dict(opposed), ("bruno",), user="u")
    )
    assert again is first and first.params["modifier"] == 0
    other = system.check_action(
        world, Action("skill", "aldara", dict(opposed), ("bruno",), user="v")
    )
    assert other is not first and other.user == "v" and other.params is first.params
    gone = World("w", "Mesa", "o3d10", world.settings, {"aldara": actors["aldara"]})
    with pytest.raises(RulesError) as caught:  # the same request, a world without its target
        system.check_action(gone, Action("skill", "aldara", dict(opposed), ("bruno",), user="u"))
    assert (caught.value.code, caught.value.field) == ("unknown_actor", "targets.0")
    for _ in range(2):  # a refusal is refused every time, and a bool is never taken for 1
        with pytest.raises(RulesError) as caught:
            system.check_action(
                world, Action("skill", "aldara", {"skill": "sigilo", "modifier": True})
            )
        assert caught.value.field == "params.modifier"
    ok = system.check_action(world, Action("skill", "aldara", {"skill": "sigilo", "modifier": 1}))
    assert ok.params["modifier"] == 1
    gm = system.check_action(
        world, Action("skill", "aldara", {"skill": "sigilo", "modifier": 1}, by_gm=True)
    )
    assert gm.by_gm and not ok.by_gm


def test_an_actor_change_that_changes_nothing_keeps_the_same_actor() -> None:
    world = _world()
    same = apply_effects(world, (ActorChange("a", {"hp": 5}, add=frozenset({"prone"})),))
    assert same.actors["a"] is world.actors["a"] and same is world
    for changes in ({"hp": 5.0}, {"hp": True}, {"hp": 4}, {"new": None}):
        changed = apply_effects(world, (ActorChange("a", changes),))
        assert changed.actors["a"] is not world.actors["a"], changes  # 5.0, True are not 5
        assert changed.actors["a"].state == {**world.actors["a"].state, **changes}
    nested = Actor("b", "Bea", None, {}, {"round": {"used": 1}})
    world = World("w", "Mesa", "o3d10", {}, {"b": nested})
    again = apply_effects(world, (ActorChange("b", {"round": {"used": True}}),))
    assert again.actors["b"].state["round"] == {"used": True}  # nested values: always applied
    assert apply_effects(world, (ActorChange("b", remove=frozenset({"x"})),)) is world
    assert apply_effects(world, (ActorChange("b", add=frozenset({"x"})),)).actors["b"].statuses == {
        "x"
    }
