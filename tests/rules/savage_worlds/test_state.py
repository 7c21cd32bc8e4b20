"""The draft a resolution works on: reads share, copies to change, and worlds stay as they were."""

from __future__ import annotations

import copy

from sw_helpers import make_world, run, with_state

from rules.savage_worlds.state import Draft


def test_get_and_data_hand_out_copies_and_read_and_peek_share() -> None:
    world = with_state(make_world(data={"attacks": {"atk1": {"hits": []}}}), "agente", bipod=["m1"])
    draft = Draft(world)
    bipod = draft.get("agente", "bipod")
    bipod.append("m2")
    attacks = draft.data("attacks")
    attacks["atk1"]["hits"].append({"done": True})
    assert world.actors["agente"].state["bipod"] == ["m1"]
    assert world.data["attacks"] == {"atk1": {"hits": []}}
    assert draft.read("agente", "bipod") is world.actors["agente"].state["bipod"]
    assert draft.peek("attacks") is world.data["attacks"]
    draft.put("agente", bipod=["m3"])
    draft.set_data("next_id", 4)
    assert draft.read("agente", "bipod") == ["m3"] and draft.get("agente", "bipod") == ["m3"]
    assert draft.state("agente")["bipod"] == ["m3"] and draft.peek("next_id") == 4
    assert draft.read("agente", "absent", 0) == 0 and draft.get("agente", "absent") is None


def test_a_damage_roll_leaves_the_world_it_read_unchanged() -> None:
    world = with_state(make_world(data={"gm_bennies": 0}), "ogro", bennies=0)
    world, _ = run(world, "attack", "barbara", {"weapon": "espada_larga"}, ("ogro",), [6, 2])
    before = copy.deepcopy(world.data)
    after, _ = run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), [12, 1, 1])
    assert world.data == before
    assert "atk1" not in after.data.get("attacks", {})  # its only hit is done
