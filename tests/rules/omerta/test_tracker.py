"""The tracker hooks as pure functions: initiative slots each round, the round's end and the
fight's end as one round of time, and the system's own combat actions under the tracker."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.model import RulesError, World
from rules.omerta.combat import in_combat
from rules.omerta.state import DATA_KEY
from rules.tracker import Combatant, end, next_round, start


def _fight(world: World, *ids: str, hidden: tuple[str, ...] = ()) -> tuple[Combatant, ...]:
    del world
    return tuple(Combatant(a, None, a in hidden) for a in ids)


def test_initiative_slots_by_total_agi_and_side(kit: Any) -> None:
    world = kit.make_world()
    # Jimmy 5 + 14, Frank 7 + 12, Tony 6 + 13: all 19 -> AGI decides
    step = start(
        kit.system, world, _fight(world, "jimmy", "frank", "tony"), ScriptedDice([5, 7, 6])
    )
    combat = step.world.data["tracker"]
    assert [s["actors"] for s in combat["order"]] == [["jimmy"], ["tony"], ["frank"]]
    assert combat["order"][1]["data"] == {"total": 19, "die": 6, "agi": 13, "pc": False}
    assert combat["data"]["rolls"]["frank"]["total"] == 19
    assert step.world.data[DATA_KEY]["order"] == [["jimmy"], ["tony"], ["frank"]]
    assert in_combat(step.world)
    for card in step.cards:
        kit.render(card, "es")
        kit.render(card, "en")


def test_tied_pcs_share_a_slot_tied_npcs_by_setting(kit: Any) -> None:
    world = kit.make_world()
    world = kit.edit_sheet(
        world,
        "sanderson",
        characteristics={**world.actors["sanderson"].sheet["characteristics"], "agi": 12},
    )
    fighters = _fight(world, "frank", "sanderson")
    step = start(kit.system, world, fighters, ScriptedDice([4, 4]))
    assert [s["actors"] for s in step.world.data["tracker"]["order"]] == [["frank", "sanderson"]]
    npcs = kit.edit_sheet(world, "frank", pc=False)
    npcs = kit.edit_sheet(npcs, "sanderson", pc=False)
    together = start(kit.system, npcs, fighters, ScriptedDice([4, 4]))
    assert len(together.world.data["tracker"]["order"]) == 1
    listed = World(
        npcs.id, npcs.name, npcs.system, {**npcs.settings, "npc_ties": "listed"}, npcs.actors, {}
    )
    apart = start(kit.system, listed, fighters, ScriptedDice([4, 4]))
    assert [s["actors"] for s in apart.world.data["tracker"]["order"]] == [["frank"], ["sanderson"]]


def test_the_down_do_not_roll_and_hidden_slots_show_only_totals(kit: Any) -> None:
    world = kit.with_statuses(kit.make_world(), "frank", "unconscious", "bleeding")
    world = kit.with_statuses(world, "sanderson", "dead")
    fighters = _fight(world, "jimmy", "frank", "sanderson", "tony", hidden=("tony",))
    step = start(kit.system, world, fighters, ScriptedDice([1, 9]))
    combat = step.world.data["tracker"]
    assert combat["data"]["out"] == ["frank", "sanderson"]
    assert combat["order"][0] == {
        "actors": ["tony"],
        "label": {"key": "slot.initiative_hidden", "params": {"total": 22}},
        "data": {"total": 22},
    }


def test_round_end_is_one_round_of_time_and_end_closes_the_round(kit: Any) -> None:
    world = kit.make_world()
    step = start(kit.system, world, _fight(world, "jimmy", "tony"), ScriptedDice([5, 4]))
    _, world = kit.run(step.world, "dodge", "tony", {}, (), kit.pct(10))
    assert "dodging" in world.actors["tony"].statuses
    later = next_round(kit.system, world, ScriptedDice([5, 4]))
    assert "dodging" not in later.world.actors["tony"].statuses
    assert later.world.data[DATA_KEY]["time"] == 12
    assert later.world.data["tracker"]["round"] == 2
    _, world = kit.run(later.world, "dodge", "tony", {}, (), kit.pct(10))
    over = end(kit.system, world, ScriptedDice([]))
    assert over.world.data["tracker"] is None
    assert "dodging" not in over.world.actors["tony"].statuses
    assert over.world.data[DATA_KEY] == {"time": 24}
    assert not in_combat(over.world)
    assert [c.kind for c in over.cards] == ["time", "combat_end"]


def test_own_initiative_and_combat_end_stand_aside_under_the_tracker(kit: Any) -> None:
    world = kit.make_world()
    step = start(kit.system, world, _fight(world, "jimmy"), ScriptedDice([5]))
    for kind, actor in (("initiative", "jimmy"), ("combat_end", "")):
        with pytest.raises(RulesError) as refused:
            kit.run(step.world, kind, actor, {}, (), [5], by_gm=True)
        assert refused.value.code == "tracker_combat"
    kinds = {b.action for b in kit.system.buttons(step.world, step.world.actors["jimmy"])}
    assert "initiative" not in kinds and "combat_end" not in kinds
    kinds = {b.action for b in kit.system.buttons(world, world.actors["jimmy"])}
    assert {"initiative", "combat_end"} <= kinds


def test_care_in_a_tracker_fight_carries_the_extra_action_penalty(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "gm_damage", "", {"amount": 3}, ("frank",), by_gm=True)
    step = start(kit.system, world, _fight(world, "sanderson", "frank"), ScriptedDice([5, 4]))
    _, fought = kit.run(
        step.world, "roll", "sanderson", {"skill": "pelea", "combat_action": True}, (), kit.pct(90)
    )
    res, _ = kit.run(fought, "first_aid", "sanderson", {}, ("frank",), [*kit.pct(90)])
    assert any(
        line.label.key == "mod.extra_action" for s in res.cards[0].sections for line in s.lines
    )
