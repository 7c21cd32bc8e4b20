"""Records shared by value on the burst's path (sixth pass): checked actions, damage card
sections, applied hits' cards, the victim's change; each equal to what the whole way makes."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest
from sw_helpers import make_world

from rules import system, system_core
from rules.dice import SeededDice
from rules.model import Action, ActorChange, RulesError, World
from rules.savage_worlds import SYSTEM, act_damage, act_soak
from rules.savage_worlds.system import _with_defaults


def test_the_plugin_interface_gives_the_compiled_defaults_under_their_old_names() -> None:
    assert system.apply_effects is system_core.apply_effects
    assert system.sets_nothing_new is system_core.sets_nothing_new


def test_a_follow_up_already_valid_as_it_is_is_its_own_checked_action() -> None:
    world = make_world()
    press = Action("damage", "agente", {"attack": "atk1", "hit": 0}, by_gm=True, user="gm")
    assert SYSTEM.check_action(world, press) is press
    # another order of the same names: a new action, in the declared order
    swapped = replace(press, params={"hit": 0, "attack": "atk1"})
    checked = SYSTEM.check_action(world, swapped)
    assert checked is not swapped and list(checked.params) == ["attack", "hit"]
    assert checked == press

    # a subclass of dict (or any other mapping) is copied into a plain dict
    class Params(dict[str, object]):
        pass

    odd = replace(press, params=Params(attack="atk1", hit=0))
    assert type(SYSTEM.check_action(world, odd).params) is dict
    # refusals as before, every time
    for _ in range(2):
        with pytest.raises(RulesError) as bad:
            SYSTEM.check_action(world, replace(press, params={"attack": "atk1", "hit": True}))
        assert bad.value.code == "invalid_param"
        with pytest.raises(RulesError) as far:
            SYSTEM.check_action(world, replace(press, targets=("nadie",)))
        assert far.value.code == "invalid_targets"


def test_a_sheet_button_pressed_again_gets_the_same_checked_action() -> None:
    world = make_world()
    attack = Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, ("ogro",), True, "gm")
    first = SYSTEM.check_action(world, attack)
    again = SYSTEM.check_action(world, replace(attack, params={"weapon": "subfusil", "rof": 3}))
    assert again is first and first.params["range"] == "short"
    other_user = SYSTEM.check_action(world, replace(attack, user="ana"))
    assert other_user is not first and other_user.user == "ana"
    assert other_user.params is first.params  # one shared read-only set of values
    # the targets are looked up in every world: gone, refused
    gone = World(
        world.id,
        world.name,
        world.system,
        world.settings,
        {k: v for k, v in world.actors.items() if k != "ogro"},
        world.data,
    )
    with pytest.raises(RulesError) as missing:
        SYSTEM.check_action(gone, attack)
    assert (missing.value.code, missing.value.field) == ("unknown_actor", "targets.0")
    # parameters refused before targets, as the shared check does
    with pytest.raises(RulesError) as both:
        SYSTEM.check_action(gone, replace(attack, params={"weapon": "subfusil", "rof": 9}))
    assert both.value.code == "invalid_param"


def _presses(world: World, rounds: int) -> list[tuple[World, Action, int]]:
    """RoF 3 bursts on three targets fed forward, every damage roll and applied hit pressed:
    each press's world, checked action and dice seed."""
    presses: list[tuple[World, Action, int]] = []
    targets = ("ogro", "terrorista1", "barbara")
    start = make_world()
    for seed in range(rounds):
        for target in targets:  # a fresh target for a fallen one, a full magazine
            if {"incapacitated", "dead"} & world.actors[target].statuses:
                world = world.with_actor(start.actors[target])
        world = world.with_actor(start.actors["agente"])
        attack = Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, targets, True)
        stack = [SYSTEM.resolve(world, SYSTEM.check_action(world, attack), SeededDice(seed))]
        world = SYSTEM.apply(world, stack[0])
        while stack:
            for card in stack.pop().cards:
                for follow in card.actions:
                    if follow.action not in ("damage", "damage_apply"):
                        continue
                    action = Action(follow.action, follow.actor_id, dict(follow.params), (), True)
                    try:
                        checked = SYSTEM.check_action(world, action)
                        result = SYSTEM.resolve(world, checked, SeededDice(seed * 7 + len(presses)))
                    except RulesError:
                        continue
                    presses.append((world, checked, seed * 7 + len(presses)))
                    world = SYSTEM.apply(world, result)
                    stack.append(result)
    return presses


def test_shared_cards_and_changes_equal_the_whole_way() -> None:
    """Every damage roll and applied hit of a run of bursts, resolved again the whole way
    with the same dice, gives equal records and the same world; an applied hit's card is one
    record for equal numbers, and the victim's change the whole way's own record."""
    presses = _presses(make_world(), 120)
    settings = _with_defaults(presses[0][0].settings)
    shared = changes = 0
    for world, action, seed in presses:
        mine = SYSTEM.resolve(world, action, SeededDice(seed))
        whole = (act_damage.resolve_damage if action.kind == "damage" else act_soak.resolve_apply)(
            world, action, SeededDice(seed), settings
        )
        assert mine == whole
        assert SYSTEM.apply(world, mine) == SYSTEM.apply(world, whole)
        again = SYSTEM.resolve(world, action, SeededDice(seed))
        assert again == mine
        if action.kind == "damage_apply":
            shared += again.cards is mine.cards
        for effect, other in zip(mine.effects, again.effects, strict=True):
            if isinstance(effect, ActorChange):
                changes += effect is other
    assert shared > 5 and changes > 5


def _viewed(world: World) -> World:
    """``world`` holding read-only views of its mappings instead of plain dicts."""
    return World(
        world.id,
        world.name,
        world.system,
        world.settings,
        MappingProxyType(dict(world.actors)),
        MappingProxyType(dict(world.data)),
    )


def test_a_world_of_other_mappings_goes_the_whole_way_to_the_same_results() -> None:
    """The planned paths read plain dicts; a world holding other mappings (read-only views)
    goes the whole way and gets the same records and the same world."""
    plain = _presses(make_world(), 12)
    for world, action, seed in plain[:40]:
        viewed = _viewed(world)
        mine = SYSTEM.resolve(world, action, SeededDice(seed))
        other = SYSTEM.resolve(viewed, action, SeededDice(seed))
        assert other == mine
        assert SYSTEM.apply(viewed, other).actors == SYSTEM.apply(world, mine).actors
    attack = Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, ("ogro",), True)
    world = make_world()
    viewed = _viewed(world)
    checked = SYSTEM.check_action(world, attack)
    assert SYSTEM.resolve(viewed, checked, SeededDice(3)) == SYSTEM.resolve(
        world, checked, SeededDice(3)
    )
