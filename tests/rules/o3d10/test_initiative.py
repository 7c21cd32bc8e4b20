"""Initiative: the number of actions, fumbles, turn order, rounds, actions spent and split turns."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.dice import SeededDice
from rules.model import TimeStep
from rules.o3d10.initiative import (
    actions_for,
    actions_left,
    initiative_base,
    roll_initiative,
    turn_order,
)
from rules.o3d10.sheet import parse_sheet
from rules.probability import distribution
from rules.rolls import Rank


@pytest.mark.parametrize(
    ("total", "actions"), [(0, 1), (19, 1), (20, 2), (29, 2), (30, 3), (39, 3), (40, 4), (52, 5)]
)
def test_actions_per_round(total: int, actions: int) -> None:
    # 'Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 acciones, 40 o más, 4 acciones, etcétera'
    assert actions_for(total) == actions


def test_initiative_base_and_encumbrance(kit: Any) -> None:
    world = kit.make_world()
    assert initiative_base(parse_sheet(world.actors["aldara"].sheet)) == 6 + 5
    casilda = parse_sheet(world.actors["casilda"].sheet)
    from rules.dice import ScriptedDice

    rolled = roll_initiative(ScriptedDice([5, 5, 5]), casilda)
    assert rolled.total == 7 + 7 + 5 - 1  # 'Estorbo ... Se aplica a iniciativa'
    own = parse_sheet(kit.actor("x", {"destreza": 1}, combat={"iniciativa": 12}).sheet)
    assert initiative_base(own) == 12


def test_exact_odds_of_two_actions() -> None:
    # Iniciativa 11: two actions need a kept 9 (P = (6*8*1+28)/1000) or a 10 (then 20 or more).
    sheet = parse_sheet({"attributes": {"destreza": 6, "percepcion": 5}})
    result = distribution(
        lambda dice: roll_initiative(dice, sheet, Rank.MEDIAN).actions, max_dice=3
    )
    assert result.outcomes[2] == Fraction(76, 1000)
    assert result.cut == Fraction(28, 1000)
    assert result.outcomes[1] == 1 - Fraction(104, 1000)


def test_initiative_action_starts_a_combat_and_is_kept(kit: Any) -> None:
    world = kit.make_world()
    rolled, world = kit.run(world, "initiative", "aldara", dice=[5, 3, 9])
    combat = world.data["o3d10_combat"]
    assert combat["active"] and combat["round"] == 1
    assert combat["initiative"]["aldara"] == {
        "total": 16,
        "base": 11,
        "actions": 1,
        "fumble": False,
    }
    kit.check_translates(rolled)
    assert kit.refused(world, "initiative", "aldara") == "initiative_already_rolled"
    # 'con dos acciones por turno ... podemos mover 9 metros y realizar un ataque ... sin penalización'
    _, world = kit.run(world, "initiative", "bruno", dice=[8, 9, 7])  # 13 + 8 = 21: two actions
    assert world.data["o3d10_combat"]["initiative"]["bruno"]["actions"] == 2
    first, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 3, 9])
    second, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 3, 9])
    assert [c.cards[0].outcome.margin for c in (first, second)] == [
        -1,
        -1,
    ]  # median kept both times
    assert (
        kit.refused(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",)) == "no_actions_left"
    )
    assert (
        kit.refused(world, "attack", "bandido", {"weapon": "hacha"}, ("bruno",)) == "no_initiative"
    )
    world = kit.system.apply(
        world, kit.system.advance_time(world, TimeStep("round"), SeededDice(1))
    )
    assert world.data["o3d10_combat"]["round"] == 2 and world.data["o3d10_combat"]["used"] == {}
    _, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 3, 9])


def test_split_actions_allow_one_more_and_both_keep_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "initiative", "aldara", dice=[5, 3, 9])
    split, world = kit.run(
        world, "attack", "aldara", {"weapon": "espada", "split": True}, ("bandido",), [5, 3, 9]
    )
    assert split.cards[0].outcome.margin == 12 + 3 - 14
    second, world = kit.run(
        world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [5, 3, 9]
    )
    assert second.cards[0].outcome.margin == 12 + 3 - 14
    assert "acciones divididas" in kit.render(second.cards[0])
    assert (
        kit.refused(world, "attack", "aldara", {"weapon": "espada", "split": True}, ("bandido",))
        == "no_actions_left"
    )


def test_enforce_actions_off_counts_nothing(kit: Any) -> None:
    world = kit.make_world(settings={"enforce_actions": False})
    _, world = kit.run(world, "initiative", "aldara", dice=[5, 3, 9])
    for _ in range(3):
        _, world = kit.run(world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [5, 3, 9])
    _, world = kit.run(world, "attack", "bandido", {"weapon": "hacha"}, ("aldara",), [5, 3, 9])


def test_fumbled_initiative_loses_the_first_turn_and_goes_last(kit: Any) -> None:
    world = kit.make_world()
    fumble, world = kit.run(world, "initiative", "aldara", dice=[1, 1, 2])
    assert fumble.cards[0].outcome.key == "fumble"
    assert "no actúa en el primer turno" in kit.render(fumble.cards[0])
    _, world = kit.run(world, "initiative", "bruno", dice=[1, 2, 3])
    combat = world.data["o3d10_combat"]
    assert turn_order(combat["initiative"], 1) == ("bruno",)
    assert (
        kit.refused(world, "attack", "aldara", {"weapon": "espada"}, ("bandido",))
        == "lost_first_turn"
    )
    rounds = kit.system.advance_time(world, TimeStep("round"), SeededDice(1))
    kit.check_translates(rounds)
    world = kit.system.apply(world, rounds)
    assert turn_order(world.data["o3d10_combat"]["initiative"], 2) == ("bruno", "aldara")
    assert actions_left(world.data["o3d10_combat"], "aldara") == 1
    _, world = kit.run(world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [5, 3, 9])


def test_turn_order_ties_go_to_the_higher_initiative_then_the_id() -> None:
    entries = {
        "c": {"total": 15, "base": 9, "fumble": False},
        "b": {"total": 15, "base": 11, "fumble": False},
        "a": {"total": 15, "base": 9, "fumble": False},
        "d": {"total": 30, "base": 20, "fumble": True},
        "e": {"total": 22, "base": 10, "fumble": False},
    }
    assert turn_order(entries, 1) == ("e", "b", "a", "c")
    assert turn_order(entries, 3) == ("e", "b", "a", "c", "d")


def test_combat_start_rolls_everyone_and_combat_end_counts_the_fight(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "bandido", heridas=48)
    start, world = kit.run(world, "combat_start", "aldara", dice=SeededDice(7), by_gm=True)
    assert set(world.data["o3d10_combat"]["initiative"]) == {"aldara", "bruno", "casilda"}
    assert start.cards[-1].kind == "combat_round"
    kit.check_translates(start)
    end, world = kit.run(world, "combat_end", "aldara", by_gm=True)
    assert world.data["fights"] == 1 and not world.data["o3d10_combat"]["active"]
    kit.check_translates(end)
    assert kit.refused(world, "combat_end", "aldara", by_gm=True) == "no_combat"
    assert kit.refused(world, "next_round", "aldara", by_gm=True) == "no_combat"
    assert kit.system.advance_time(world, TimeStep("round"), SeededDice(1)) is None
    quiet, world = kit.run(world, "combat_start", "aldara", {"roll_all": False}, by_gm=True)
    assert world.data["o3d10_combat"]["initiative"] == {}
    kit.check_translates(quiet)
    nxt, world = kit.run(world, "next_round", "aldara", by_gm=True)
    assert world.data["o3d10_combat"]["round"] == 2
    kit.check_translates(nxt)


def test_a_fallen_actor_rolls_no_initiative(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "bruno", heridas=24)
    assert kit.refused(world, "initiative", "bruno") == "actor_down"


def test_token_on_initiative(kit: Any) -> None:
    world = kit.make_world()
    rolled, world = kit.run(world, "initiative", "aldara", {"give_token": True}, dice=[5, 3, 9])
    assert rolled.cards[0].dice[2].kept
    assert world.actors["aldara"].state["token"] == "gm"
