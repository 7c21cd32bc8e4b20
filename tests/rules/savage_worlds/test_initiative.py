"""The action deck: 54 cards, Fisher-Yates through the dice, the count, Jokers, hold, surprise."""

from __future__ import annotations

from typing import Any

import pytest
from sw_helpers import add_actor, make_world, run, with_state

from rules.dice import ScriptedDice, SeededDice
from rules.model import RulesError
from rules.savage_worlds.initiative import (
    card_value,
    deal,
    new_deck,
    shuffle,
    turn_order,
    units_for,
)
from rules.savage_worlds.sheet import parse_sheet


class _Counting:
    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        return 1


def test_deck_has_54_distinct_cards_with_two_jokers() -> None:
    deck = new_deck()
    assert len(deck) == len(set(deck)) == 54
    assert sum(1 for card in deck if card.startswith("JK")) == 2


def test_fisher_yates_rolls_d54_down_to_d2_and_never_a_d1() -> None:
    dice = _Counting()
    shuffled, rolled = shuffle(new_deck(), dice)
    assert dice.asked == list(range(54, 1, -1))
    assert sorted(shuffled) == sorted(new_deck())
    assert [d.role for d in rolled] == ["shuffle"] * 53


def test_shuffle_is_a_permutation_for_any_seed() -> None:
    for seed in range(5):
        shuffled, _ = shuffle(new_deck(), SeededDice(seed))
        assert sorted(shuffled) == sorted(new_deck())


def test_the_count_runs_ace_to_two_ties_by_suit_jokers_first() -> None:
    cards = {"a": "KS", "b": "AC", "c": "AS", "d": "2H", "e": "JK2", "f": "AH", "g": "10D"}
    assert turn_order(cards) == ["e", "c", "f", "b", "a", "g", "d"]
    assert card_value("AS") > card_value("AH") > card_value("AD") > card_value("AC")


def test_level_headed_keeps_the_better_of_two_and_quick_redraws_five_or_lower() -> None:
    result = deal(
        ["3S", "QH", "4C", "2D", "9S"],
        [],
        ["temple", "rapido"],
        _Counting(),
        level_headed=["temple"],
        quick=["rapido"],
    )
    assert result.cards == {"temple": "QH", "rapido": "9S"}
    assert result.discard == ["3S", "4C", "2D"]


def test_units_wild_cards_alone_extras_by_group_allies_on_their_leader() -> None:
    world = make_world()
    world = add_actor(
        world,
        "perro",
        {
            "wild_card": False,
            "leader": "agente",
            "attributes": {"agilidad": 6, "astucia": 4, "espiritu": 6, "fuerza": 6, "vigor": 6},
        },
    )
    sheets = {
        a: parse_sheet(world.actors[a].sheet)
        for a in ("agente", "perro", "terrorista1", "terrorista2", "ogro")
    }
    assert units_for(sheets, "individual") == {
        "agente": ["agente", "perro"],
        "group:terroristas": ["terrorista1", "terrorista2"],
        "ogro": ["ogro"],
    }
    assert units_for(sheets, "per_side") == {
        "side:heroes": ["agente", "perro"],
        "side:villains": ["terrorista1", "terrorista2", "ogro"],
    }


FIGHTERS = ("agente", "barbara", "ogro", "terrorista1", "terrorista2")


def test_combat_start_deals_one_card_per_unit_and_stores_the_deck() -> None:
    world, resolution = run(make_world(), "combat_start", "agente", {}, FIGHTERS)
    fight = world.data["sw_combat"]
    assert set(fight["cards"]) == {"agente", "barbara", "ogro", "group:terroristas"}
    deck = world.data["deck"]
    # the agent (Temple) drew two and the barbarian (Rápido) may have redrawn
    assert len(deck["draw"]) + len(deck["discard"]) + len(fight["cards"]) == 54
    assert fight["order"] == turn_order(fight["cards"])
    assert resolution.cards[1].visibility == "gm"
    assert len(resolution.cards[1].dice) == 53
    with pytest.raises(RulesError) as error:
        run(world, "combat_start", "agente")
    assert error.value.code == "already_in_combat"


def _stacked(top: list[str]) -> dict[str, Any]:
    rest = [c for c in new_deck() if c not in top]
    return {"draw": top + rest, "discard": []}


def test_joker_gives_plus_two_and_the_deck_is_reshuffled_before_the_next_round() -> None:
    world = make_world(data={"deck": _stacked(["JK1", "KS", "QS", "JS", "10S"])})
    world, start = run(world, "combat_start", "agente", {}, ("agente", "ogro"))
    assert "shuffle" not in [c.kind for c in start.cards]
    assert world.data["sw_combat"]["cards"]["agente"] == "JK1"
    assert "joker" in world.actors["agente"].statuses
    assert world.data["sw_combat"]["joker_dealt"] is True
    world, next_round = run(world, "next_round", "agente", {}, (), SeededDice(3))
    assert [c.kind for c in next_round.cards] == ["next_round", "shuffle"]
    deck = world.data["deck"]
    # the agent (Temple) draws two after the reshuffle and discards the worse one
    assert len(deck["discard"]) == 1 and len(deck["draw"]) == 54 - 3
    assert world.data["sw_combat"]["round"] == 2


def test_held_characters_keep_their_card_and_get_no_new_one() -> None:
    world = make_world(data={"deck": _stacked(["KS", "QS", "JS", "10S", "9S", "8S"])})
    world, _ = run(world, "combat_start", "agente", {}, ("agente", "ogro"))
    agent_card = world.data["sw_combat"]["cards"]["agente"]
    world, _ = run(world, "hold", "agente")
    world, _ = run(world, "next_round", "agente")
    assert world.data["sw_combat"]["cards"]["agente"] == agent_card
    assert "on_hold" in world.actors["agente"].statuses


def test_surprise_ambushers_on_hold_victims_roll_notice_failures_get_no_card() -> None:
    world = make_world(data={"deck": _stacked(["KS", "QS"])})
    # agent Notice d8 wild: 2/1 fails; barbarian Notice d6: 5 succeeds.
    dice = ScriptedDice([2, 1, 5, 1])
    world, start = run(
        world, "combat_start", "ogro", {"surprise": "villains"}, ("agente", "barbara", "ogro"), dice
    )
    fight = world.data["sw_combat"]
    assert "on_hold" in world.actors["ogro"].statuses
    assert set(fight["cards"]) == {"barbara"}
    assert fight["no_card"] == ["agente"]
    keys = [line.label.key for line in start.cards[0].sections[0].lines]
    assert (
        keys[:3] == ["line.surprised", "line.surprise_ok", "line.ambusher"]
        or "line.surprised" in keys
    )
    world, _ = run(world, "next_round", "ogro")
    assert "agente" in world.data["sw_combat"]["cards"]


def test_incapacitated_characters_get_no_card_and_combat_end_clears_statuses() -> None:
    world = with_state(make_world(), "ogro", ["incapacitated"])
    world, _ = run(world, "combat_start", "agente", {}, ("agente", "ogro"))
    assert set(world.data["sw_combat"]["cards"]) == {"agente"}
    world, _ = run(world, "hold", "agente")
    world, _ = run(world, "combat_end", "agente")
    assert "on_hold" not in world.actors["agente"].statuses
    assert world.data["sw_combat"]["active"] is False
    with pytest.raises(RulesError) as error:
        run(world, "next_round", "agente")
    assert error.value.code == "not_in_combat"


def test_one_card_per_side_setting() -> None:
    world = make_world({"initiative": "per_side"})
    world, _ = run(world, "combat_start", "agente", {}, FIGHTERS)
    assert set(world.data["sw_combat"]["cards"]) == {"side:heroes", "side:villains"}
