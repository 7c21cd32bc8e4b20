"""Savage Worlds' combat tracker hooks as pure functions (rules/savage_worlds/tracker_hooks.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from sw_helpers import add_actor, check_cards, make_world, run, with_state

from rules import tracker
from rules.dice import ScriptedDice, SeededDice
from rules.model import Card, Resolution, RulesError, TimeStep, World
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.initiative import new_deck
from rules.savage_worlds.samples import AGENTE, TERRORISTA


def stack(deck: Iterable[str], top: list[str]) -> list[int]:
    cards = list(deck)
    target = top + [c for c in cards if c not in top]
    faces = []
    for i in range(len(cards) - 1, 0, -1):
        j = cards.index(target[i])
        faces.append(j + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return faces


def start(world: World, actors: list[str], top: list[str]) -> tracker.Step:
    combatants = tuple(tracker.Combatant(a) for a in actors)
    step = tracker.start(SYSTEM, world, combatants, ScriptedDice(stack(new_deck(), top)))
    for card in step.cards:
        check_cards(Resolution(tracker._TRACKER_ACTION, (card,), ()))
    return step


def slots(world: World) -> list[tuple[tuple[str, ...], str]]:
    combat = tracker.require_combat(world)
    return [(s.actors, str(s.data["card"])) for s in combat.order]


def kinds(cards: Iterable[Card]) -> list[str]:
    return [c.kind for c in cards]


def test_allies_act_on_their_leaders_card_and_extras_share_one() -> None:
    world = add_actor(make_world(), "perro", {**TERRORISTA, "side": "heroes", "leader": "agente"})
    world = add_actor(world, "terrorista3", TERRORISTA)
    actors = ["agente", "perro", "terrorista1", "terrorista2", "terrorista3"]
    step = start(world, actors, ["5S", "2C", "9H"])
    assert slots(step.world) == [
        (("terrorista1", "terrorista2", "terrorista3"), "9H"),
        (("agente", "perro"), "5S"),
    ]
    assert kinds(step.cards) == ["combat_start", "shuffle"]


def test_per_side_one_card_per_side() -> None:
    world = make_world({"initiative": "per_side"})
    step = start(world, ["agente", "barbara", "ogro", "terrorista1"], ["7D", "3C", "KS"])
    combat = tracker.require_combat(step.world)
    assert [(s.actors, s.data["unit"]) for s in combat.order] == [
        (("ogro", "terrorista1"), "side:villains"),
        (("agente", "barbara"), "side:heroes"),
    ]


def test_the_systems_own_round_actions_are_refused_while_the_tracker_runs() -> None:
    step = start(make_world(), ["agente", "ogro"], ["KS", "2C", "QH"])
    world = step.world
    for kind, actor, targets in (
        ("start_turn", "agente", ()),
        ("hold", "agente", ()),
        ("interrupt", "agente", ("ogro",)),
        ("combat_start", "agente", ()),
        ("next_round", "agente", ()),
        ("combat_end", "agente", ()),
    ):
        with pytest.raises(RulesError) as refused:
            run(world, kind, actor, targets=targets)
        assert refused.value.code == "tracker_active", kind
    with pytest.raises(RulesError):
        SYSTEM.advance_time(world, TimeStep("round"), SeededDice(1))
    assert SYSTEM.advance_time(world, TimeStep("minute"), SeededDice(1)) is None


def test_a_turn_start_rolls_once_per_round_even_when_interrupted() -> None:
    world = with_state(make_world(), "ogro", ["stunned"])
    step = start(world, ["agente", "ogro"], ["KS", "2C", "QH"])
    held = tracker.hold(SYSTEM, step.world, "agente", ScriptedDice([2, 1]))
    assert kinds(held.cards) == ["start_turn"]
    assert "on_hold" in held.world.actor("agente").statuses
    back = tracker.interrupt(SYSTEM, held.world, "agente", ScriptedDice([5, 3, 2, 1]))
    assert kinds(back.cards) == ["interrupt"]
    assert "on_hold" not in back.world.actor("agente").statuses
    again = tracker.next_turn(SYSTEM, back.world, ScriptedDice([]))
    assert again.cards == () and tracker.require_combat(again.world).current is not None


def test_combat_end_discards_the_cards_and_the_next_combat_reshuffles_after_a_joker() -> None:
    step = start(make_world(), ["agente", "barbara"], ["KS", "2C", "JK2"])
    assert "joker" in step.world.actor("barbara").statuses
    ended = tracker.end(SYSTEM, step.world, SeededDice(1))
    assert kinds(ended.cards) == ["combat_end"]
    assert "joker" not in ended.world.actor("barbara").statuses
    fight: dict[str, Any] = ended.world.data["sw_combat"]
    assert fight["active"] is False and fight["joker_dealt"] is True
    deck = ended.world.data["deck"]
    assert sorted(deck["discard"]) == sorted(["2C", "KS", "JK2"])
    again = tracker.start(
        SYSTEM, ended.world, (tracker.Combatant("agente"),), ScriptedDice([1] * 53)
    )
    assert kinds(again.cards) == ["combat_start", "shuffle"]


def test_a_wild_card_ally_keeps_its_own_card_without_its_leader() -> None:
    world = add_actor(make_world(), "socio", {**AGENTE, "leader": "barbara"})
    step = start(world, ["agente", "socio"], ["KS", "2C", "QH", "3D"])
    assert [s[0] for s in slots(step.world)] == [("agente",), ("socio",)]
