"""o3d10's combat tracker hooks, driven through rules.tracker (RULES.md 29)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import tracker
from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World
from rules.tracker import Combatant

EVERYONE = tuple(Combatant(a) for a in ("aldara", "bruno", "casilda", "bandido"))


def bookkeeping(world: World) -> dict[str, Any]:
    return dict(world.data["o3d10_combat"])


def test_initiative_is_rolled_once_and_the_order_read_every_round(kit: Any) -> None:
    world = kit.make_world()
    # Aldara 11 + 9 = 20; Bruno fumbles; Casilda 14 + 3 - 1 = 16; Bandido 9 + 8 = 17.
    dice = ScriptedDice((9, 9, 9, 1, 1, 3, 3, 3, 3, 8, 8, 8))
    step = tracker.start(kit.system, world, EVERYONE, dice)
    for card in step.cards:
        kit.render(card, "es")
        kit.render(card, "en")
    assert [c.kind for c in step.cards] == ["initiative"] * 4 + ["combat_round"]
    combat = tracker.require_combat(step.world)
    assert [s.actors for s in combat.order] == [("aldara",), ("bandido",), ("casilda",)]
    assert combat.order[0].data == {"iniciativa": 11, "total": 20, "actions": 2, "fumble": False}
    assert combat.data["lost_first_turn"] == ["bruno"]
    assert bookkeeping(step.world)["round"] == 1
    # Round 2: no die rolled (an empty script would raise), Bruno last.
    step = tracker.next_round(kit.system, step.world, ScriptedDice(()))
    assert [c.kind for c in step.cards] == ["combat_round"]
    combat = tracker.require_combat(step.world)
    assert [s.actors[0] for s in combat.order] == ["aldara", "bandido", "casilda", "bruno"]
    assert kit.render(step.cards[0]).splitlines()[-1] == "4. Bruno: 14 (1 acción/es)"
    assert bookkeeping(step.world)["round"] == 2


def test_each_round_starts_its_counts_afresh_once(kit: Any) -> None:
    world = kit.make_world()
    step = tracker.start(kit.system, world, EVERYONE[:2], ScriptedDice((9, 9, 9, 5, 5, 5)))
    _, world = kit.run(step.world, "move", "aldara", {"metres": 9})
    _, world = kit.run(world, "attack", "aldara", {}, ("bruno",), (2, 2, 2))
    assert kit.refused(world, "attack", "aldara", {}, ("bruno",)) == "no_actions_left"
    step = tracker.next_turn(kit.system, world, ScriptedDice(()))
    assert bookkeeping(step.world)["used"] == {"aldara": 2}  # a turn resets nothing
    step = tracker.next_turn(kit.system, step.world, ScriptedDice(()))
    kept = bookkeeping(step.world)
    assert (kept["round"], kept["used"], kept["moved"]) == (2, {}, {})
    assert tracker.require_combat(step.world).round == 2


def test_initiative_rolled_before_the_tracker_starts_counts(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "initiative", "aldara", {"give_token": True}, (), (1, 9, 9))
    assert bookkeeping(world)["initiative"]["aldara"]["total"] == 20  # the highest kept
    step = tracker.start(kit.system, world, EVERYONE[:2], ScriptedDice((5, 5, 5)))
    assert [c.speaker for c in step.cards if c.kind == "initiative"] == ["bruno"]
    assert tracker.require_combat(step.world).order[0].actors == ("aldara",)


def test_the_systems_own_round_actions_are_refused_while_the_tracker_runs(kit: Any) -> None:
    world = kit.make_world()
    world = tracker.start(kit.system, world, EVERYONE[:1], ScriptedDice((5, 5, 5))).world
    for kind in ("combat_start", "combat_end", "next_round"):
        assert kit.refused(world, kind, "aldara", by_gm=True) == "tracker_running"
    try:
        kit.system.advance_time(world, TimeStep("round"), ScriptedDice(()))
    except RulesError as error:
        assert error.code == "tracker_running"
    else:
        raise AssertionError("advance_time was not refused")
    assert kit.system.advance_time(world, TimeStep("minute"), ScriptedDice(())) is None


def test_down_combatants_neither_roll_nor_act_and_the_end_counts_the_fight(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "bandido", heridas=24)  # Físico 6 x4
    step = tracker.start(kit.system, world, EVERYONE[:1] + EVERYONE[3:], ScriptedDice((5,) * 3))
    combat = tracker.require_combat(step.world)
    assert [s.actors for s in combat.order] == [("aldara",)]
    assert combat.data["down"] == ["bandido"]
    assert kit.render(step.cards[-1]).splitlines()[-1] == "Bandido no puede actuar (Inconsciente)"
    world = replace(step.world, data={**step.world.data, "ambush": {"aldara": ["bandido"]}})
    end = tracker.end(kit.system, world, ScriptedDice(()))
    assert [c.kind for c in end.cards] == ["combat_end"]
    assert end.world.data["fights"] == 1 and end.world.data["ambush"] == {}
    assert not end.world.data["o3d10_combat"]["active"] and end.world.data["tracker"] is None
    _, healed = kit.run(
        kit.with_state(end.world, "aldara", heridas=3), "catch_breath", "aldara", dice=(2,)
    )
    assert healed.actors["aldara"].state["heridas"] == 1


def test_hidden_combatants_roll_in_secret_and_show_as_unknown(kit: Any) -> None:
    world = kit.make_world()
    combatants = (Combatant("aldara"), Combatant("bandido", hidden=True))
    step = tracker.start(kit.system, world, combatants, ScriptedDice((5,) * 6))
    assert [c.visibility for c in step.cards] == ["public", "gm", "public"]
    assert "Desconocido" in kit.render(step.cards[-1])
    assert "Bandido" not in kit.render(step.cards[-1])
