"""brp_d10's combat tracker hooks as pure functions (R41-R44 of RULES.md), driven through
``rules.tracker`` as the bridge drives them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from brp_d10_helpers import render, run, sample_world, state

from rules import tracker
from rules.brp_d10 import SYSTEM
from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World

NO_DICE = ScriptedDice([])


def knights(owner: str | None = "ana") -> World:
    """The knights' duel: the French knight is Ana's, the Spaniard an NPC; plus the agent."""
    world = sample_world()
    return world.with_actor(replace(world.actor("frances"), owner=owner))


def fighters(*ids: str, hidden: tuple[str, ...] = ()) -> tuple[tracker.Combatant, ...]:
    return tuple(tracker.Combatant(a, None, a in hidden) for a in ids)


def combat(world: World) -> tracker.Combat:
    return tracker.require_combat(world)


def slots(world: World) -> list[tuple[int, tuple[str, ...]]]:
    return [(int(s.data["tenth"]), s.actors) for s in combat(world).order]


def declared(world: World, *plans: tuple[str, str]) -> tracker.Step:
    step = tracker.Step(world)
    for actor_id, plan in plans:
        done = tracker.declare(SYSTEM, step.world, actor_id, {"plan": plan}, NO_DICE)
        step = tracker.Step(done.world, step.cards + done.cards)
    for card in step.cards:
        render(card)
    return step


def test_r42_npcs_declare_first_then_players_fastest_first() -> None:
    world = knights()
    start = tracker.start(SYSTEM, world, fighters("frances", "espanol", "agente"), NO_DICE)
    fight = combat(start.world)
    assert fight.phase == "declare"
    # 'yo declararé primero las acciones de todos los PNJs': the agent (6) then the Spaniard (5)
    assert fight.declare_order == ("agente", "espanol", "frances")
    assert slots(start.world) == [(4, ("frances",)), (5, ("agente",)), (6, ("espanol",))]


def test_r43_the_order_is_the_declared_timeline_tenth_by_tenth() -> None:
    start = tracker.start(SYSTEM, knights(), fighters("frances", "espanol"), NO_DICE)
    step = declared(
        start.world,
        ("espanol", "attack:espada,attack:espada"),
        ("frances", "attack:espada,attack:espada"),
    )
    # 'la cuarta décima ... la sexta ... la octava ... la novena'
    assert slots(step.world) == [
        (4, ("frances",)),
        (6, ("espanol",)),
        (8, ("frances",)),
        (9, ("espanol",)),
    ]
    fight = combat(step.world)
    assert (fight.phase, fight.turn) == ("act", 0)
    assert fight.data["plans"] == {
        "frances": "attack:espada,attack:espada",
        "espanol": "attack:espada,attack:espada",
    }
    assert [c.kind for c in step.cards] == ["initiative", "initiative", "round_order"]
    assert step.world.data["brp_d10_plans"]["frances"] == "attack:espada,attack:espada"


def test_r43_actors_who_cannot_act_have_no_place_and_declare_nothing() -> None:
    world = knights()
    _, world = run(world, "wound", "espanol", location="abdomen", level=3, by_gm=True)
    start = tracker.start(SYSTEM, world, fighters("frances", "espanol"), NO_DICE)
    assert combat(start.world).declare_order == ("frances",)
    assert slots(start.world) == [(4, ("frances",))]


def test_r43_a_declaration_is_checked_like_the_initiative_action() -> None:
    start = tracker.start(SYSTEM, knights(), fighters("frances", "espanol"), NO_DICE)
    for plan, code in (
        ("", "plan_required"),
        ("attack:espada," * 3, "too_many_actions"),
        ("attack:hacha", "no_such_weapon"),
        ("juggle", "bad_plan"),
    ):
        with pytest.raises(RulesError) as refused:
            tracker.declare(SYSTEM, start.world, "espanol", {"plan": plan}, NO_DICE)
        assert refused.value.code == code


def test_r43_hidden_combatants_keep_their_plans_to_the_gm() -> None:
    world = knights()
    start = tracker.start(SYSTEM, world, fighters("frances", "agente", hidden=("agente",)), NO_DICE)
    step = declared(start.world, ("agente", "burst:subfusil"), ("frances", "attack:espada"))
    assert step.cards[0].visibility == "gm"
    agent = next(s for s in combat(step.world).order if s.actors == ("agente",))
    assert agent.data["actions"] == [{"actor": "agente", "declared": True}]
    assert "Desconocido" in render(step.cards[-1])


def test_r41_an_aim_not_kept_up_lapses_at_the_round_end() -> None:
    world = sample_world()
    _, world = run(world, "aim", "guardaespaldas", weapon="pistola")
    start = tracker.start(SYSTEM, world, fighters("guardaespaldas", "frances"), NO_DICE)
    # round 1 was spent aiming ... but the combat started after it: the round use is reset
    assert state(start.world, "guardaespaldas")["round"]["busy"] is False
    step = declared(start.world, ("frances", "attack:espada"), ("guardaespaldas", "other"))
    _, aimed = run(step.world, "aim", "guardaespaldas", weapon="pistola")
    after_1 = tracker.next_round(SYSTEM, aimed, NO_DICE)
    assert state(after_1.world, "guardaespaldas")["aim"] == {"weapon": "pistola", "rounds": 2}
    assert "aiming" in after_1.world.actor("guardaespaldas").statuses
    step = declared(after_1.world, ("frances", "attack:espada"), ("guardaespaldas", "other"))
    after_2 = tracker.next_round(SYSTEM, step.world, NO_DICE)
    assert state(after_2.world, "guardaespaldas")["aim"] == {"weapon": "", "rounds": 0}
    assert "aiming" not in after_2.world.actor("guardaespaldas").statuses
    assert "Deja de apuntar con Pistola semiautomática" in render(after_2.cards[0])


def test_r41_the_round_end_ticks_the_clocks_once() -> None:
    world = sample_world()
    _, world = run(world, "wound", "agente", location="brazo_derecho", level=4, by_gm=True)
    start = tracker.start(SYSTEM, world, fighters("agente", "frances"), NO_DICE)
    step = declared(start.world, ("frances", "attack:espada"))
    after = tracker.next_turn(SYSTEM, step.world, NO_DICE)
    timers: list[dict[str, Any]] = state(after.world, "agente")["timers"]
    assert timers == [{"kind": "amputation", "remaining": 5}]
    assert [c.kind for c in after.cards] == ["time"]
    assert int(after.world.data["brp_d10_clock"]) == 1


def test_r44_own_combat_actions_defer_to_the_tracker() -> None:
    world = knights()
    start = tracker.start(SYSTEM, world, fighters("frances", "espanol"), NO_DICE)
    with pytest.raises(RulesError) as refused:
        SYSTEM.advance_time(start.world, TimeStep("round"), NO_DICE)
    assert refused.value.code == "use_combat_next_round"
    for kind, actor, params in (
        ("end_combat", "frances", {}),
        ("initiative", "espanol", {"plan": "attack:espada", "declare": True}),
    ):
        with pytest.raises(RulesError) as refused:
            run(start.world, kind, actor, by_gm=True, **params)
        assert refused.value.code in ("use_combat_end", "use_combat_declare")
    ended = tracker.end(SYSTEM, start.world, NO_DICE)
    assert [c.kind for c in ended.cards] == ["end_combat"]
    assert tracker.combat_of(ended.world) is None
    assert SYSTEM.advance_time(ended.world, TimeStep("round"), NO_DICE) is not None


def test_r44_round_one_starts_clean() -> None:
    world = sample_world()
    _, world = run(world, "initiative", "frances", plan="attack:espada", declare=True)
    _, world = run(world, "attack", "frances", (8,), ("espanol",), weapon="espada")
    assert state(world, "frances")["round"]["actions"] == 1
    start = tracker.start(SYSTEM, world, fighters("frances", "espanol"), NO_DICE)
    assert start.world.data["brp_d10_plans"] == {}
    assert state(start.world, "frances")["round"]["actions"] == 0
