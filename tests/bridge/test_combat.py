"""The combat tracker through the protocol, with a tiny system whose hooks leave a trace."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules.registry import Registry
from support.live import Env, give, make_env, rid
from support.tiny_system import Tiny

REGISTRY = Registry([Tiny()])


@pytest.fixture
async def tiny(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for env in make_env(tmp_path, aiohttp_server, "tiny", registry=REGISTRY):
        yield env


@pytest.fixture
async def declaring(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for env in make_env(
        tmp_path, aiohttp_server, "tiny", settings={"declare": True}, registry=REGISTRY
    ):
        yield env


async def state_after(client: Any, ack: dict[str, Any]) -> dict[str, Any]:
    """The combat_state push born with this ack's event."""
    assert ack["ok"], ack
    while True:
        state: dict[str, Any] = await client.next_push("combat_state")
        if state["seq"] == ack["seq"]:
            return state


def trace(env: Env) -> list[str]:
    row = env.store.load_world(env.world.world_id)
    assert row is not None
    return list(row.state["data"].get("trace", []))


async def test_a_combat_runs_in_order_and_every_hook_fires_once(tiny: Env) -> None:
    gm = await tiny.join()
    ack = await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto", "cris", "dani"]})
    assert ack["ok"], ack
    state = await gm.next_push("combat_state")
    assert state["round"] == 1 and state["phase"] == "act"
    assert [[a["id"] for a in s["actors"]] for s in state["order"]] == [
        ["beto"],
        ["ana", "cris"],
        ["dani"],
    ]
    assert state["current"] == ["beto"] and [s["label"] for s in state["order"]] == ["7", "5", "2"]
    for expected in (["ana", "cris"], ["dani"]):
        ack = await gm.call("combat_next_turn", {"id": rid()})
        assert ack["ok"]
        assert (await gm.next_push("combat_state"))["current"] == expected
    ack = await gm.call("combat_next_turn", {"id": rid()})
    state = await gm.next_push("combat_state")
    assert state["round"] == 2 and state["current"] == ["beto"]
    assert [c["title"] for c in ack["cards"]] == ["Pasa el tiempo"]
    assert trace(tiny) == [
        "start r1",
        "initiative r1",
        "turn r1 beto",
        "turn r1 ana+cris",
        "turn r1 dani",
        "roundx1",
        "start r2",
        "initiative r2",
        "turn r2 beto",
    ]
    end = await gm.call("combat_end", {"id": rid()})
    assert end["ok"]
    assert (await gm.next_push("combat_state"))["active"] is False


async def test_players_drive_their_own_combatants_only(tiny: Env) -> None:
    gm = await tiny.join()
    await give(gm, "beto", "bea", gm.welcome or {})
    bea = await tiny.join("player", "bea")
    refused = await bea.call("combat_start", {"id": rid(), "actors": ["beto"]})
    assert refused["error"]["code"] == "gm_only"
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto"]}))["ok"]
    others = await bea.call("combat_hold", {"id": rid(), "actor": "ana"})
    assert others["error"]["code"] == "not_your_actor"
    ack = await bea.call("combat_next_turn", {"id": rid()})  # beto's turn: she may end it
    assert ack["ok"]
    again = await bea.call("combat_next_turn", {"id": rid()})  # now ana's: not hers
    assert again["error"]["code"] == "not_your_turn"


async def test_hold_interrupt_and_delay(tiny: Env) -> None:
    gm = await tiny.join()
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto", "dani"]}))["ok"]
    held = await gm.call("combat_hold", {"id": rid(), "actor": "beto"})
    state = await state_after(gm, held)
    assert state["current"] == ["ana"]
    assert next(c for c in state["combatants"] if c["actor"] == "beto")["held"] is True
    ack = await gm.call("combat_interrupt", {"id": rid(), "actor": "beto"})
    state = await state_after(gm, ack)
    assert state["current"] == ["beto"] and state["order"][1]["label"] == "Interrumpe"
    refused = await gm.call("combat_interrupt", {"id": rid(), "actor": "beto"})
    assert refused["error"]["code"] == "not_on_hold"
    await gm.call("combat_next_turn", {"id": rid()})
    delayed = await gm.call("combat_delay", {"id": rid(), "actor": "ana"})
    state = await state_after(gm, delayed)
    assert state["current"] == ["dani"] and state["order"][-1]["actors"][0]["id"] == "ana"


async def test_declarations_from_slowest_then_act(declaring: Env) -> None:
    gm = await declaring.join()
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto", "dani"]}))["ok"]
    state = await gm.next_push("combat_state")
    assert state["phase"] == "declare" and state["next_to_declare"] == "dani"
    early = await gm.call("combat_next_turn", {"id": rid()})
    assert early["error"]["code"] == "declarations_pending"
    wrong = await gm.call("combat_declare", {"id": rid(), "actor": "beto"})
    assert wrong["error"]["code"] == "declare_order"
    bad = await gm.call("combat_declare", {"id": rid(), "actor": "dani", "params": {"acciones": 3}})
    assert bad["error"]["code"] == "too_many_actions"
    for actor in ("dani", "ana", "beto"):
        ack = await gm.call(
            "combat_declare", {"id": rid(), "actor": actor, "params": {"acciones": 1}}
        )
        assert ack["ok"], ack
    state = await gm.next_push("combat_state")
    while state["phase"] != "act":
        state = await gm.next_push("combat_state")
    assert state["current"] == ["beto"]


async def test_combat_survives_a_restart_and_undo_restores_it(tiny: Env) -> None:
    gm = await tiny.join()
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto"]}))["ok"]
    step = await gm.call("combat_next_turn", {"id": rid()})
    late = await tiny.join("gm", "late")
    assert late.welcome is not None and late.welcome["combat"]["current"] == ["ana"]
    undo = await gm.call("undo", {"id": rid(), "seq": step["seq"]})
    assert (await state_after(gm, undo))["current"] == ["beto"]


async def test_hidden_names_and_errors(tiny: Env) -> None:
    gm = await tiny.join()
    player = await tiny.join("player", "pia")
    ack = await gm.call(
        "combat_start", {"id": rid(), "actors": ["ana", "dani"], "hidden": ["dani"]}
    )
    assert ack["ok"]
    seen = await player.next_push("combat_state")
    assert [c["name"] for c in seen["combatants"]] == ["Ana", "Desconocido"]
    assert [c["actor"] for c in seen["combatants"]] == ["ana", "hidden-1"]
    assert "dani" not in str(seen)
    gm_view = await gm.next_push("combat_state")
    assert [c["name"] for c in gm_view["combatants"]] == ["Ana", "Dani"]
    twice = await gm.call("combat_start", {"id": rid(), "actors": ["ana"]})
    assert twice["error"]["code"] == "already_in_combat"
    ghost = await gm.call("combat_start", {"id": rid(), "actors": ["ghost"]})
    assert ghost["error"]["code"] == "already_in_combat"
    await gm.call("combat_end", {"id": rid()})
    none = await gm.call("combat_next_turn", {"id": rid()})
    assert none["error"]["code"] == "no_combat"
    ghost = await gm.call("combat_start", {"id": rid(), "actors": ["ghost"]})
    assert ghost["error"]["code"] == "unknown_actor"


async def test_exclusive_buttons_and_undo_releases_them(tiny: Env) -> None:
    gm = await tiny.join()
    hit = await gm.call(
        "attack", {"id": rid(), "actor": "ana", "action": "hit", "targets": ["beto"]}
    )
    card = hit["cards"][0]
    assert [a["id"] for a in card["actions"]] == ["parry", "take"]
    parry = await gm.call("card_action", {"id": rid(), "card": card["card_id"], "action": "parry"})
    assert parry["ok"]
    update = await gm.next_push("card_update")
    assert (update["used"], update["released"]) == (["parry", "take"], [])
    take = await gm.call("card_action", {"id": rid(), "card": card["card_id"], "action": "take"})
    assert take["error"]["code"] == "follow_up_used"
    undo = await gm.call("undo", {"id": rid(), "seq": parry["seq"]})
    assert undo["ok"]
    update = await gm.next_push("card_update")
    assert (update["used"], update["released"]) == ([], ["parry", "take"])
    again = await gm.call("card_action", {"id": rid(), "card": card["card_id"], "action": "take"})
    assert again["ok"], again


async def test_a_system_that_keeps_its_initiative_starts_each_round_from_it(tiny: Env) -> None:
    Tiny.initiative_each_round = False
    try:
        gm = await tiny.join()
        assert (await gm.call("combat_start", {"id": rid(), "actors": ["ana", "beto"]}))["ok"]
        await gm.call("combat_hold", {"id": rid(), "actor": "beto"})
        await gm.call("combat_interrupt", {"id": rid(), "actor": "beto"})
        await gm.call("combat_next_turn", {"id": rid()})
        last = await gm.call("combat_next_turn", {"id": rid()})
        state = await state_after(gm, last)
        assert state["round"] == 2
        assert [[a["id"] for a in s["actors"]] for s in state["order"]] == [["beto"], ["ana"]]
        assert "initiative r2" not in trace(tiny)
    finally:
        Tiny.initiative_each_round = True
