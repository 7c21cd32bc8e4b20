"""Applying a hit that takes a Wild Card out (rules/savage_worlds/prepared_incap.py, through
prepared_damage.resolve_apply) gives the same result, record for record, as the whole way
(act_soak.resolve_apply) for the same dice: Vigor roll, death, Bleeding Out, every injury."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import SeededDice
from rules.model import Action, World
from rules.savage_worlds import SYSTEM, act_soak, prepared_damage, prepared_incap
from rules.savage_worlds.sheet import parse_sheet
from rules.savage_worlds.system import _with_defaults
from tests.rules.savage_worlds.sw_helpers import make_world, with_state

STATES: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    ((), {}),
    (("stunned", "wounded"), {"wounds": 2}),
    (("wounded", "on_hold", "joker"), {"wounds": 3}),
    (
        ("wounded", "overwatch", "bleeding"),
        {"wounds": 1, "injuries": [{"key": "arm", "lasting": "permanent"}]},
    ),
    (
        ("wounded",),
        {"wounds": 3, "injuries": [{"key": "guts_battered", "lasting": "until_healed"}]},
    ),
    (("incapacitated", "wounded"), {"wounds": 3}),
]
HITS: list[tuple[int, int]] = [(4, 0), (2, 0), (3, 1), (5, 2), (1, 0)]
SETTINGS: list[dict[str, Any]] = [
    {},
    {"critical_failure": False},
    {"injury_table": "2-4:head;5-9:guts;10:leg;11:arm;12:unmentionables"},
]


def _pending(world: World, victim: str, wounds: int, soaked: int) -> World:
    hit = {
        "target": victim,
        "attack": "atk1",
        "damage": 14,
        "toughness": 6,
        "wounds": wounds,
        "shaken": True,
        "soaked": soaked,
        "soak_rolls": 1 if soaked else 0,
    }
    other = {**hit, "target": "agente"}
    return World(
        world.id,
        world.name,
        world.system,
        world.settings,
        world.actors,
        {**world.data, "pending": {"hit7": hit, "hit9": other}, "next_id": 9},
    )


@pytest.mark.parametrize("settings_over", SETTINGS)
@pytest.mark.parametrize("victim", ["ogro", "barbara"])
def test_incapacitating_hits_equal_the_whole_way(
    settings_over: dict[str, Any], victim: str
) -> None:
    base = make_world(settings_over)
    settings = _with_defaults(base.settings)
    sheet = parse_sheet(base.actors[victim].sheet)
    seen: dict[str, int] = {"lean": 0, "dies": 0, "bleeding_starts": 0, "hours_left": 0, "other": 0}
    for statuses, state in STATES:
        for wounds, soaked in HITS:
            world = _pending(with_state(base, victim, statuses, **state), victim, wounds, soaked)
            action = SYSTEM.check_action(
                world, Action("damage_apply", victim, {"pending": "hit7"}, (), True)
            )
            lean = prepared_incap.covers(sheet, world.actors[victim].state, wounds - soaked)
            for seed in range(60):
                want = act_soak.resolve_apply(world, action, SeededDice(seed), settings)
                got = prepared_damage.resolve_apply(world, action, SeededDice(seed), settings)
                assert repr(got) == repr(want), (statuses, state, wounds, soaked, seed)
                assert SYSTEM.apply(world, got) == SYSTEM.apply(world, want)
                text = repr(want)
                if lean:
                    assert "line.incap_roll" in text
                    seen["lean"] += 1
                    for key in ("dies", "bleeding_starts", "hours_left"):
                        seen[key] += key in text
                else:
                    assert "line.incap_roll" not in text
                    seen["other"] += 1
    # every branch of the incapacitation was met: death, Bleeding Out, a temporary injury
    assert all(seen.values()), seen


def test_covers_only_wild_cards_past_three_wounds() -> None:
    world = make_world()
    wild = parse_sheet(world.actors["ogro"].sheet)
    extra = parse_sheet(world.actors["terrorista1"].sheet)
    assert prepared_incap.covers(wild, {"wounds": 3}, 1)
    assert prepared_incap.covers(wild, {}, 4)
    assert not prepared_incap.covers(wild, {"wounds": 2}, 1)
    assert not prepared_incap.covers(wild, {"wounds": 3}, 0)
    assert not prepared_incap.covers(extra, {"wounds": 0}, 4)
