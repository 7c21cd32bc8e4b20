"""Damage rolls and applied hits through plans and remembered outcomes
(rules/savage_worlds/prepared_damage.py) give the same result, record for record, as the whole
way for the same dice, over victims in every wound and Shaken state."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import SeededDice
from rules.model import Action, World
from rules.savage_worlds import SYSTEM, act_damage, act_soak, prepared_damage
from rules.savage_worlds.system import _with_defaults
from support.compiled import pure_only
from tests.rules.savage_worlds.sw_helpers import make_world, with_state

VICTIM_STATES: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    ((), {}),
    (("stunned",), {}),
    (("stunned", "wounded"), {"wounds": 2}),
    (("wounded",), {"wounds": 3, "bennies": 0}),
    (("joker", "on_hold"), {"wounds": 1}),
]
SETTINGS: list[dict[str, Any]] = [{}, {"auto_apply": False}, {"extras_soak": True}]


def _with_hit(world: World, shooter: str, weapon: str, rof: int, target: str, seed: int) -> Any:
    """A world with an attack that hit, and its first damage button (None: all missed)."""
    attack = SYSTEM.check_action(
        world, Action("attack", shooter, {"weapon": weapon, "rof": rof}, (target,), True)
    )
    for attempt in range(200):
        resolution = SYSTEM.resolve(world, attack, SeededDice(seed * 1000 + attempt))
        if resolution.cards[0].actions:
            return SYSTEM.apply(world, resolution), resolution.cards[0].actions[0]
    return None


@pytest.mark.parametrize("settings_over", SETTINGS)
@pytest.mark.parametrize("victim", ["ogro", "terrorista1", "barbara"])
def test_damage_and_apply_equal_the_whole_way(settings_over: dict[str, Any], victim: str) -> None:
    base = make_world(settings_over)
    settings = _with_defaults(base.settings)
    seen = {"damage": 0, "apply": 0}
    for index, (statuses, state) in enumerate(VICTIM_STATES):
        world = with_state(base, victim, statuses, **state)
        for shooter, weapon, rof in (("agente", "subfusil", 1), ("barbara", "espada_larga", 1)):
            if shooter == victim:
                continue
            found = _with_hit(world, shooter, weapon, rof, victim, index)
            assert found is not None
            hit_world, button = found
            action = SYSTEM.check_action(
                hit_world, Action("damage", button.actor_id, dict(button.params), (), True)
            )
            for seed in range(120):
                want = act_damage.resolve_damage(hit_world, action, SeededDice(seed), settings)
                got = prepared_damage.resolve_damage(hit_world, action, SeededDice(seed), settings)
                assert repr(got) == repr(want)
                seen["damage"] += 1
                for follow in want.cards[0].actions:
                    if follow.action != "damage_apply":
                        continue
                    after = SYSTEM.apply(hit_world, want)
                    apply = SYSTEM.check_action(
                        after,
                        Action("damage_apply", follow.actor_id, dict(follow.params), (), True),
                    )
                    for again in range(2):  # the second one finds the remembered outcome
                        expected = act_soak.resolve_apply(after, apply, SeededDice(seed), settings)
                        applied = prepared_damage.resolve_apply(
                            after, apply, SeededDice(seed), settings
                        )
                        assert repr(applied) == repr(expected), again
                        seen["apply"] += 1
    assert seen["damage"] > 0


@pure_only(prepared_damage)
def test_remembered_outcomes_serve_later_rolls() -> None:
    world = make_world()
    settings = _with_defaults(world.settings)
    found = _with_hit(world, "agente", "subfusil", 1, "terrorista1", 0)
    assert found is not None
    hit_world, button = found
    action = SYSTEM.check_action(
        hit_world, Action("damage", "agente", dict(button.params), (), True)
    )
    calls: list[int] = []
    original = act_damage.resolve_damage

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    prepared_damage.act_damage.resolve_damage = counted  # type: ignore[method-assign]
    try:
        for seed in range(200):
            prepared_damage.resolve_damage(hit_world, action, SeededDice(seed), settings)
    finally:
        prepared_damage.act_damage.resolve_damage = original  # type: ignore[method-assign]
    # one whole way per result (no effect, Shaken, 1, 2, 3... wounds: an Extra goes out without
    # dice of its own), whatever the damage total: 200 rolls, a handful of results
    assert 1 <= len(calls) <= 10
