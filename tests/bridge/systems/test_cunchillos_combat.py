"""cunchillos in the shared combat tracker, through the real server (issue 8).

'1º Determinar el orden de iniciativa ... 2º Decir qué se va a hacer en ese asalto en
orden contrario a su iniciativa ... 3º Realizar las acciones siguiendo el orden de la
iniciativa.' Sample actors: Inés (Init 16/8, Res 6, PV 30), Bruno (Init 12/10, Res 7,
PV 36), Matón (Init 10/5, Res 5, PV 24, Umbral Mortal 6).

The fight: Matón lies at -2 PV (-1 a round: the timed rule we count), Inés has a light
head wound (stunned 2 rounds: -5 initiative, a timer that runs out at the end of round 2).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from support.live import Client, Env, give, make_env, rid

SYSTEM = "cunchillos"


@pytest.fixture
async def env(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, SYSTEM):
        yield value


class Log:
    """Every card of every ack, to count the timed rules."""

    def __init__(self) -> None:
        self.cards: list[dict[str, Any]] = []

    def add(self, ack: dict[str, Any]) -> dict[str, Any]:
        assert ack["ok"], ack
        self.cards.extend(ack["cards"])
        return ack

    def titles(self, title: str) -> int:
        return sum(1 for c in self.cards if c["title"] == title)

    def lines(self, text: str) -> int:
        return sum(
            1 for c in self.cards for s in c["sections"] for line in s["lines"] if line == text
        )


async def combat(client: Client, event: str, **payload: Any) -> dict[str, Any]:
    client.drain()
    return await client.call(event, {"id": rid(), **payload})


async def state_after(client: Client, ack: dict[str, Any]) -> dict[str, Any]:
    """The combat_state push born with this ack's event."""
    assert ack["ok"], ack
    while True:
        state: dict[str, Any] = await client.next_push("combat_state")
        if state["seq"] == ack["seq"]:
            return state


async def act(client: Client, actor: str, what: str = "other") -> dict[str, Any]:
    client.drain()
    payload = {"id": rid(), "actor": actor, "action": "act", "params": {"what": what}}
    return await client.call("roll", payload)


async def gm_apply(client: Client, target: str, amount: int, location: str, **params: Any) -> None:
    payload = {
        "id": rid(),
        "actor": None,
        "action": "damage_apply",
        "params": {"amount": amount, "location": location, **params},
        "targets": [target],
    }
    ack = await client.call("damage_apply", payload)
    assert ack["ok"], ack


def order(state: dict[str, Any]) -> list[tuple[list[str], str]]:
    return [([a["id"] for a in s["actors"]], s["label"]) for s in state["order"]]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for s in card["sections"] for line in s["lines"]]


def refused(ack: dict[str, Any], code: str) -> None:
    assert not ack["ok"] and ack["error"]["code"] == code, ack


def pv(welcome: dict[str, Any], actor: str) -> int:
    return int(next(a for a in welcome["actors"] if a["id"] == actor)["state"]["pv"])


async def wounded_table(env: Env) -> Client:
    gm = await env.join()
    await gm_apply(gm, "maton", 26, "pecho", low=3)  # PV -2, limit 9: -1 a round
    await gm_apply(gm, "ines", 6, "cabeza")  # light head wound: stunned 2 rounds
    return gm


async def declare(client: Client, log: Log, actor: str, **params: Any) -> dict[str, Any]:
    return log.add(await combat(client, "combat_declare", actor=actor, params=params))


async def test_a_combat_from_its_first_initiative_to_its_last_round(env: Env) -> None:
    gm = await wounded_table(env)
    log = Log()
    start = log.add(await combat(gm, "combat_start", actors=["ines", "bruno", "maton"]))
    state = await state_after(gm, start)
    # 1º Initiative: Inés stunned (16 - 5 = 11); Matón unconscious: ordered, never declares.
    assert [c["title"] for c in start["cards"]] == ["Asalto 1: orden de iniciativa"]
    assert (state["round"], state["phase"], state["current"]) == (1, "declare", [])
    assert order(state) == [(["bruno"], "12 (10)"), (["ines"], "11 (8)"), (["maton"], "10 (5)")]
    assert state["order"][1]["data"] == {"primary": 11, "secondary": 8}
    assert state["data"]["modifiers"] == {"ines": [{"key": "stunned", "value": -5}]}
    assert state["data"]["base"] == {"bruno": 12, "ines": 16, "maton": 10}
    # 2º Declarations, lowest first; nothing happens before they are in.
    assert state["next_to_declare"] == "ines"
    refused(await combat(gm, "combat_next_turn"), "declarations_pending")
    refused(await combat(gm, "combat_declare", actor="bruno"), "declare_order")
    refused(await act(gm, "bruno"), "declarations_pending")
    plain = {"id": rid(), "actor": "ines", "action": "declare", "params": {"actions": 1}}
    refused(await gm.call("roll", plain), "use_combat_declare")
    refused(
        await combat(gm, "combat_declare", actor="ines", params={"actions": 11}), "invalid_param"
    )
    first = await declare(gm, log, "ines", actions=1, defence="parry")
    assert [c["title"] for c in first["cards"]] == ["Declaración de Inés"]
    last = await declare(gm, log, "bruno", actions=2)
    assert [c["title"] for c in last["cards"]] == [
        "Declaración de Bruno",
        "Asalto 1: orden de las acciones",
    ]
    assert lines(last["cards"][1]) == [
        "Iniciativa 12: Bruno, acción 1",
        "Iniciativa 11: Inés, acción 1",
        "Iniciativa 7: Bruno, acción 2",
    ]
    state = await state_after(gm, last)
    # 3º Actions in initiative order, the second at Init -5.
    assert (state["phase"], state["current"]) == ("act", ["bruno"])
    assert order(state) == [
        (["bruno"], "Iniciativa 12: acción 1"),
        (["ines"], "Iniciativa 11: acción 1"),
        (["bruno"], "Iniciativa 7: acción 2"),
    ]
    assert state["order"][2]["data"] == {
        "initiative": 7,
        "secondary": 10,
        "actions": {"bruno": [2]},
    }
    refused(await act(gm, "ines"), "out_of_order")
    log.add(await act(gm, "bruno"))
    refused(await act(gm, "bruno"), "out_of_order")  # the second action comes at 7
    state = await state_after(gm, log.add(await combat(gm, "combat_next_turn")))
    assert state["current"] == ["ines"]
    log.add(await act(gm, "ines"))
    state = await state_after(gm, log.add(await combat(gm, "combat_next_turn")))
    assert state["current"] == ["bruno"] and state["turn"] == 2
    log.add(await act(gm, "bruno"))
    assert log.titles("Pasan 1 asaltos") == 0
    # The round ends: one round of time (Matón bleeds once), then round 2's initiative.
    end1 = log.add(await combat(gm, "combat_next_turn"))
    assert [c["title"] for c in end1["cards"]] == [
        "Pasan 1 asaltos",
        "Asalto 2: orden de iniciativa",
    ]
    assert lines(end1["cards"][0]) == ["Matón se desangra: -3 PV"]
    state = await state_after(gm, end1)
    assert (state["round"], state["phase"], state["next_to_declare"]) == (2, "declare", "ines")
    assert order(state) == [(["bruno"], "12 (10)"), (["ines"], "11 (8)"), (["maton"], "10 (5)")]
    # The declarations of round 1 are gone with it.
    assert all(c["declared"] == {} for c in state["combatants"])
    await declare(gm, log, "ines", actions=1)
    state = await state_after(gm, await declare(gm, log, "bruno", actions=1))
    assert order(state) == [
        (["bruno"], "Iniciativa 12: acción 1"),
        (["ines"], "Iniciativa 11: acción 1"),
    ]
    # Bruno waits; Inés acts; the server restarts in the middle of the round.
    state = await state_after(gm, log.add(await combat(gm, "combat_hold", actor="bruno")))
    assert state["current"] == ["ines"]
    log.add(await act(gm, "ines"))
    seen = env.seq()
    await env.restart()
    gm = await env.join(last_seq=seen)
    assert gm.welcome is not None
    welcome = gm.welcome["combat"]
    assert (welcome["round"], welcome["current"], welcome["turn"]) == (2, ["ines"], 1)
    assert next(c for c in welcome["combatants"] if c["actor"] == "bruno")["held"] is True
    refused(await act(gm, "ines"), "out_of_order")  # her one action is spent
    state = await state_after(gm, log.add(await combat(gm, "combat_interrupt", actor="bruno")))
    assert state["current"] == ["bruno"] and state["order"][1]["label"] == "Interrumpe"
    log.add(await act(gm, "bruno"))
    state = await state_after(gm, log.add(await combat(gm, "combat_next_turn")))
    assert state["current"] == ["ines"]
    # Round 2 ends: Matón bleeds once more; Inés's stun runs out.
    end2 = log.add(await combat(gm, "combat_next_turn"))
    assert lines(end2["cards"][0]) == ["Matón se desangra: -4 PV"]
    assert next(t for t in end2["tokens"] if t["actor"] == "ines")["removed"] == ["stunned"]
    state = await state_after(gm, end2)
    assert order(state) == [(["ines"], "16 (8)"), (["bruno"], "12 (10)"), (["maton"], "10 (5)")]
    assert state["next_to_declare"] == "bruno" and state["data"]["modifiers"] == {}
    # Round 3: a change of declaration in the middle of the round moves Bruno 5 down.
    await declare(gm, log, "bruno", actions=1)
    state = await state_after(gm, await declare(gm, log, "ines", actions=2))
    assert order(state) == [
        (["ines"], "Iniciativa 16: acción 1"),
        (["bruno"], "Iniciativa 12: acción 1"),
        (["ines"], "Iniciativa 11: acción 2"),
    ]
    change = {"id": rid(), "actor": "bruno", "action": "declare", "params": {"actions": 1}}
    gm.drain()
    changed = log.add(await gm.call("roll", change))
    assert "Cambia de acción: +5 a todas las TA y -5 a la Iniciativa" in lines(changed["cards"][0])
    state = await state_after(gm, changed)
    assert order(state) == [
        (["ines"], "Iniciativa 16: acción 1"),
        (["ines"], "Iniciativa 11: acción 2"),
        (["bruno"], "Iniciativa 7: acción 1"),
    ]
    # The tracker owns time while it runs: no second round from time_advance or initiative.
    refused(await combat(gm, "time_advance", unit="round", count=1), "combat_running")
    gm_initiative = {"id": rid(), "action": "initiative", "params": {}}
    refused(await gm.call("gm_action", gm_initiative), "combat_running")
    # combat_end closes the running round: Matón's last point, exactly once.
    final = log.add(await combat(gm, "combat_end"))
    assert [c["title"] for c in final["cards"]] == ["Pasan 1 asaltos"]
    assert (await state_after(gm, final))["active"] is False
    assert log.titles("Pasan 1 asaltos") == 3
    assert log.titles("Asalto 1: orden de iniciativa") == 1
    assert log.titles("Asalto 3: orden de iniciativa") == 1
    for value in (-3, -4, -5):
        assert log.lines(f"Matón se desangra: {value} PV") == 1
    again = await env.join("gm", "late")
    assert again.welcome is not None and again.welcome["combat"] is None
    assert pv(again.welcome, "maton") == -5
    bruno = next(a for a in again.welcome["actors"] if a["id"] == "bruno")
    assert bruno["state"]["round"] == {}


async def test_undo_of_a_round_end_and_of_a_damage_restores_everything(env: Env) -> None:
    gm = await wounded_table(env)
    log = Log()
    log.add(await combat(gm, "combat_start", actors=["ines", "bruno", "maton"]))
    await declare(gm, log, "ines", actions=1)
    await declare(gm, log, "bruno", actions=1)
    log.add(await combat(gm, "combat_next_turn"))
    # A hit in Inés's turn: dE 4 (chest), 3 and 5; her stun costs +5.
    env.dice.script(4, 3, 5)
    gm.drain()
    payload = {"id": rid(), "actor": "ines", "action": "attack", "params": {}, "targets": ["bruno"]}
    hit = log.add(await gm.call("attack", payload))
    assert hit["cards"][0]["outcome"]["success"] is True
    before = await env.join("gm", "before")
    assert before.welcome is not None
    gm.drain()
    press = {"id": rid(), "card": hit["cards"][0]["card_id"], "action": "damage", "params": {}}
    damage = log.add(await gm.call("card_action", press))
    assert pv({"actors": [await actor_pushed(gm, "bruno")]}, "bruno") < 36
    gm.drain()
    undo = await gm.call("undo", {"id": rid(), "seq": damage["seq"]})
    assert undo["ok"], undo
    restored = await actor_pushed(gm, "bruno")
    assert restored == next(a for a in before.welcome["actors"] if a["id"] == "bruno")
    # The round's end (bleeding, timers, the new initiative) undone: the welcome as before.
    snapshot = await env.join("gm", "snap")
    assert snapshot.welcome is not None
    step = log.add(await combat(gm, "combat_next_turn"))
    assert lines(step["cards"][0]) == ["Matón se desangra: -3 PV"]
    assert (await state_after(gm, step))["round"] == 2
    gm.drain()
    undo = await gm.call("undo", {"id": rid(), "seq": step["seq"]})
    state = await state_after(gm, undo)
    after = await env.join("gm", "snap2")
    assert after.welcome is not None
    for key in ("actors", "combat"):
        old, new = dict(snapshot.welcome)[key], dict(after.welcome)[key]
        if key == "combat":
            old, new = {**old, "seq": 0}, {**new, "seq": 0}
            assert {**state, "seq": 0} == new
        assert old == new, key
    # ...and the combat goes on as it would have.
    again = log.add(await combat(gm, "combat_next_turn"))
    assert lines(again["cards"][0]) == ["Matón se desangra: -3 PV"]


async def actor_pushed(client: Client, actor: str) -> dict[str, Any]:
    while True:
        body = await client.next_push("actor_update")
        if body["actor"] is not None and body["actor"]["id"] == actor:
            return body["actor"]  # type: ignore[no-any-return]


async def test_a_player_drives_only_their_own_combatant(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    await give(gm, "bruno", "bea", gm.welcome)
    bea = await env.join("player", "bea")
    refused(await combat(bea, "combat_start", actors=["bruno"]), "gm_only")
    start = await combat(gm, "combat_start", actors=["ines", "bruno", "maton"])
    state = await state_after(bea, start)
    assert state["data"] == {} and state["next_to_declare"] == "maton"
    refused(await combat(bea, "combat_declare", actor="maton", params={}), "not_your_actor")
    assert (await combat(gm, "combat_declare", actor="maton", params={"actions": 1}))["ok"]
    ack = await combat(bea, "combat_declare", actor="bruno", params={"actions": 1})
    assert ack["ok"], ack
    assert (await combat(gm, "combat_declare", actor="ines", params={"actions": 1}))["ok"]
    refused(await combat(bea, "combat_next_turn"), "not_your_turn")  # Inés's turn
    refused(await act(bea, "bruno"), "out_of_order")
    refused(await combat(bea, "combat_hold", actor="ines"), "not_your_actor")
    assert (await combat(gm, "combat_next_turn"))["ok"]
    assert (await act(bea, "bruno"))["ok"]
    refused(await combat(bea, "combat_next_round"), "gm_only")
    ack = await combat(bea, "combat_next_turn")  # her own turn: she may end it
    state = await state_after(bea, ack)
    assert state["current"] == ["maton"]
    refused(await combat(bea, "combat_next_turn"), "not_your_turn")
    refused(await combat(bea, "combat_end"), "gm_only")
