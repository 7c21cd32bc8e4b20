"""1o3d10 in the shared combat tracker, through the real server (RULES.md 29).

'Se tira Iniciativa +1o3d10 de cada personaje, actuando en cada ronda según lo que se ha
sacado. Lo que saquemos en iniciativa se usa para todo el combate. Si se saca 20 o más, se
tienen 2 acciones ... Una pifia en iniciativa significa que no se actua en el primer turno,
y se irá último en los siguientes.'

Sample sheets (rules/o3d10/samples.py): Iniciativa Aldara 11, Bruno 13, Casilda 14 with
estorbo 1, Bandido 9. Defensa Aldara 17, Bruno 14, Bandido 14. Each request takes its own
dice script (``env.dice.script``), queued just before it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from support.live import Client, Env, give, rid

Ack = dict[str, Any]


class Table:
    """The GM, Ana (owns Aldara) and Beto (owns Bruno), and every card title their acks bring."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.titles: list[str] = []
        self.gm: Client
        self.ana: Client
        self.beto: Client

    async def sit(self, last_seq: int | None = None) -> None:
        self.gm = await self.env.join(last_seq=last_seq)
        if last_seq is None:
            assert self.gm.welcome is not None
            await give(self.gm, "aldara", "ana", self.gm.welcome)
            await give(self.gm, "bruno", "beto", self.gm.welcome)
        self.ana = await self.env.join("player", "ana", last_seq=last_seq)
        self.beto = await self.env.join("player", "beto", last_seq=last_seq)

    async def call(
        self, client: Client, event: str, payload: dict[str, Any], dice: Iterable[int] = ()
    ) -> Ack:
        faces = tuple(dice)
        if faces:
            self.env.dice.script(*faces)
        ack = await client.call(event, {"id": rid(), **payload})
        self.titles.extend(card["title"] for card in ack.get("cards", []))
        return ack

    async def act(
        self,
        client: Client,
        event: str,
        actor: str,
        action: str,
        params: dict[str, Any] | None = None,
        targets: Iterable[str] = (),
        dice: Iterable[int] = (),
    ) -> Ack:
        payload = {"actor": actor, "action": action, "params": params or {}}
        return await self.call(client, event, {**payload, "targets": list(targets)}, dice)

    async def step(
        self,
        client: Client,
        event: str,
        payload: dict[str, Any] | None = None,
        dice: Iterable[int] = (),
    ) -> tuple[Ack, dict[str, Any]]:
        """A tracker event and the combat_state push it caused (as the GM sees it)."""
        ack = await self.call(client, event, payload or {}, dice)
        assert ack["ok"], ack
        return ack, await state_after(self.gm, ack)


async def state_after(client: Client, ack: Ack) -> dict[str, Any]:
    """The combat_state push born with this ack's event."""
    assert ack["ok"], ack
    while True:
        state: dict[str, Any] = await client.next_push("combat_state")
        if state["seq"] == ack["seq"]:
            return state


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def code(ack: Ack) -> str:
    assert not ack["ok"], ack
    assert ack["error"]["message"]
    return str(ack["error"]["code"])


def ids(state: dict[str, Any]) -> list[list[str]]:
    return [[a["id"] for a in slot["actors"]] for slot in state["order"]]


def bookkeeping(env: Env) -> dict[str, Any]:
    """The system's own round bookkeeping and counters, from the store."""
    row = env.store.load_world(env.world.world_id)
    assert row is not None
    data = row.state["data"]
    return {k: data.get(k) for k in ("o3d10_combat", "fights", "ambush", "tracker")}


async def snapshot(env: Env) -> dict[str, Any]:
    """Everything a client and the store know: a fresh GM's welcome (without its seq) and
    the world data."""
    peek = await env.join("gm", "peek")
    welcome = dict(peek.welcome or {})
    await peek.close()
    env.clients.remove(peek)
    welcome.pop("seq")
    if welcome.get("combat"):
        welcome["combat"] = {k: v for k, v in welcome["combat"].items() if k != "seq"}
    row = env.store.load_world(env.world.world_id)
    assert row is not None
    return {"welcome": welcome, "data": row.state["data"]}


async def restart(env: Env) -> None:
    """Close the clients and let the server see them go before it stops (else the server's
    close may wait for a socket it still thinks open), then restart it."""
    for client in env.clients:
        if client.sio.connected:
            await client.close()
    await asyncio.sleep(0.3)
    await asyncio.wait_for(env.restart(), 20)


def without_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "seq"}


async def test_a_fight_from_its_first_initiative_to_its_end(env: Env) -> None:
    table = Table(env)
    await table.sit()
    gm, ana, beto = table.gm, table.ana, table.beto
    # Ana rolls Aldara's initiative before the fight (she could give the token): 11 + 9 = 20.
    pre = await table.act(ana, "roll", "aldara", "initiative", dice=(9, 9, 9))
    assert "Acciones por turno: 2" in lines(pre["cards"][0])
    # combat_start rolls for the others, in the combatants' order: Bruno fumbles (a kept 1,
    # 1 above it), Casilda 14 + 3 - 1 = 16, the hidden Bandido 9 + 8 = 17. Aldara keeps hers.
    start, state = await table.step(
        gm,
        "combat_start",
        {"actors": ["aldara", "bruno", "casilda", "bandido"], "hidden": ["bandido"]},
        dice=(1, 1, 3, 3, 3, 3, 8, 8, 8),
    )
    *rolled, order = start["cards"]
    assert [c["speaker"] for c in rolled] == ["bruno", "casilda", "bandido"]
    assert [c["visibility"] for c in rolled] == ["public", "public", "gm"]
    assert rolled[0]["outcome"]["key"] == "fumble"
    assert order["title"] == "Turno 1"
    assert lines(order) == [
        "1. Aldara: 20 (2 acción/es)",
        "2. Desconocido: 17 (1 acción/es)",
        "3. Casilda: 16 (1 acción/es)",
        "Bruno no actúa en este turno",
    ]
    assert (state["round"], state["phase"], state["turn"]) == (1, "act", 0)
    assert ids(state) == [["aldara"], ["bandido"], ["casilda"]]
    assert state["current"] == ["aldara"] and state["next_to_declare"] is None
    assert [s["label"] for s in state["order"]] == ["20 (2 acc.)", "17 (1 acc.)", "16 (1 acc.)"]
    assert state["order"][0]["data"] == {
        "iniciativa": 11,
        "total": 20,
        "actions": 2,
        "fumble": False,
    }
    assert state["data"]["lost_first_turn"] == ["bruno"]
    assert set(state["data"]["initiative"]) == {"aldara", "bruno", "casilda", "bandido"}
    seen = await state_after(ana, start)
    assert seen["data"] == {} and seen["order"][1]["actors"][0]["name"] == "Desconocido"
    assert bookkeeping(env)["o3d10_combat"]["round"] == 1
    # No declarations ('En su turno, el jugador elige'); the system's own round actions
    # would double the tracker's rules.
    assert code(await table.call(gm, "combat_declare", {"actor": "aldara"})) == "not_declaring"
    for action in ("next_round", "combat_start", "combat_end"):
        refused = await table.act(gm, "gm_action", "aldara", action)
        assert code(refused) == "tracker_running", action
    assert code(await table.call(gm, "time_advance", {"unit": "round"})) == "tracker_running"
    assert code(await table.act(ana, "heal", "aldara", "catch_breath")) == "in_combat"

    # Round 1. Aldara (2 actions) moves 9 m and attacks; a third action is refused.
    move = await table.act(ana, "roll", "aldara", "move", {"metres": 9})
    assert "Moverse gasta una acción del turno" in lines(move["cards"][0])
    hit = await table.act(
        ana, "attack", "aldara", "attack", {"weapon": "espada"}, ["bandido"], (5, 5, 5)
    )
    assert hit["ok"], hit
    third = await table.act(ana, "attack", "aldara", "attack", {}, ["bandido"])
    assert code(third) == "no_actions_left"
    # Bruno fumbled: he does not act in round 1; Beto drives only Bruno.
    assert code(await table.act(beto, "attack", "bruno", "attack", {}, ["bandido"])) == (
        "lost_first_turn"
    )
    assert code(await table.call(beto, "combat_next_turn", {})) == "not_your_turn"
    assert code(await table.call(ana, "combat_hold", {"actor": "bruno"})) == "not_your_actor"
    assert code(await table.call(beto, "combat_next_round", {})) == "gm_only"
    _, state = await table.step(ana, "combat_next_turn")
    assert state["current"] == ["bandido"] and state["turn"] == 1
    # The Bandido waits; Casilda misses with her fists (6 + 2 = 8 against 17).
    _, state = await table.step(gm, "combat_hold", {"actor": "bandido"})
    assert state["current"] == ["casilda"]
    assert next(c for c in state["combatants"] if c["actor"] == "bandido")["held"] is True
    miss = await table.act(gm, "attack", "casilda", "attack", {}, ["aldara"], (2, 2, 2))
    assert miss["cards"][0]["outcome"]["success"] is False
    # ... and he interrupts: his axe (9 + 9 = 18 against 17), 1d8+1 = 6.
    _, state = await table.step(gm, "combat_interrupt", {"actor": "bandido"})
    assert state["current"] == ["bandido"] and state["order"][2]["label"] == "Interrumpe"
    axe = await table.act(
        gm, "attack", "bandido", "attack", {"weapon": "hacha"}, ["aldara"], (9, 9, 9)
    )
    assert axe["cards"][0]["outcome"]["success"] is True
    damage = await table.call(
        gm, "card_action", {"card": axe["cards"][0]["card_id"], "action": "damage.0"}, (5,)
    )
    assert lines(damage["cards"][0])[-1] == "Daño 6"
    before = await snapshot(env)
    applied = await table.call(
        gm, "card_action", {"card": damage["cards"][0]["card_id"], "action": "apply"}
    )
    assert applied["ok"] and (await snapshot(env)) != before
    undo = await table.call(gm, "undo", {"seq": applied["seq"]})
    assert undo["ok"] and undo["cards"] == []
    assert (await snapshot(env)) == before
    applied = await table.call(
        gm, "card_action", {"card": damage["cards"][0]["card_id"], "action": "apply"}
    )
    assert applied["ok"], applied
    # Casilda's turn again: her one action of the round is spent.
    _, state = await table.step(gm, "combat_next_turn")
    assert state["current"] == ["casilda"] and state["turn"] == 3
    assert code(await table.act(gm, "attack", "casilda", "attack", {}, ["aldara"])) == (
        "no_actions_left"
    )

    # Round 2: no initiative rolled again; the order card once; Bruno acts, last; the
    # interrupt is gone; every count starts afresh.
    turn, state = await table.step(gm, "combat_next_turn")
    assert [c["title"] for c in turn["cards"]] == ["Turno 2"]
    assert lines(turn["cards"][0])[-1] == "4. Bruno: 14 (1 acción/es)"
    assert (state["round"], state["current"]) == (2, ["aldara"])
    assert ids(state) == [["aldara"], ["bandido"], ["casilda"], ["bruno"]]
    assert state["order"][3]["label"] == "Pifia (14): último"
    assert state["order"][3]["data"]["fumble"] is True
    kept = bookkeeping(env)["o3d10_combat"]
    assert (kept["round"], kept["used"], kept["moved"], kept["split"]) == (2, {}, {}, {})
    assert (await table.act(ana, "roll", "aldara", "move", {"metres": 9}))["ok"]

    # The server restarts in the middle of Aldara's turn; the fight goes on identically.
    last = without_seq(state)
    seq = env.seq()
    await restart(env)
    await table.sit(last_seq=seq)
    gm, ana, beto = table.gm, table.ana, table.beto
    assert table.gm.welcome is not None
    assert without_seq(table.gm.welcome["combat"]) == last
    hit = await table.act(ana, "attack", "aldara", "attack", {}, ["bandido"], (5, 5, 5))
    assert hit["ok"], hit
    assert code(await table.act(ana, "attack", "aldara", "attack", {}, ["bandido"])) == (
        "no_actions_left"
    )
    assert code(await table.act(ana, "roll", "aldara", "move", {"metres": 1})) == "move_limit"
    _, state = await table.step(ana, "combat_next_turn")
    assert state["current"] == ["bandido"]
    # The Bandido delays to the end of the round; Bruno acts at last.
    _, state = await table.step(gm, "combat_delay", {"actor": "bandido"})
    assert state["current"] == ["casilda"]
    assert ids(state)[-1] == ["bandido"] and state["order"][-1]["label"] == "Retrasa su acción"
    _, state = await table.step(gm, "combat_next_turn")
    assert state["current"] == ["bruno"]
    stab = await table.act(
        beto, "attack", "bruno", "attack", {"weapon": "daga"}, ["bandido"], (5, 5, 5)
    )
    assert stab["ok"], stab
    _, state = await table.step(beto, "combat_next_turn")
    assert state["current"] == ["bandido"]
    turn, state = await table.step(gm, "combat_next_turn")
    assert [c["title"] for c in turn["cards"]] == ["Turno 3"]
    assert (state["round"], ids(state)) == (3, [["aldara"], ["bandido"], ["casilda"], ["bruno"]])
    assert bookkeeping(env)["o3d10_combat"]["round"] == 3

    # The end: the fight counts for catching one's breath, once.
    end = await table.call(gm, "combat_end", {})
    assert [c["title"] for c in end["cards"]] == ["Termina el combate"]
    assert (await state_after(gm, end))["active"] is False
    kept = bookkeeping(env)
    assert kept["o3d10_combat"]["active"] is False and kept["fights"] == 1
    assert kept["tracker"] is None
    assert (await table.act(ana, "heal", "aldara", "catch_breath", dice=(3,)))["ok"]
    # Every timed card appeared exactly once: initiative per combatant, each round, the end.
    timed = [t for t in table.titles if t.startswith(("Iniciativa", "Turno", "Termina"))]
    assert timed == [
        "Iniciativa de Aldara",
        "Iniciativa de Bruno",
        "Iniciativa de Casilda",
        "Iniciativa de Bandido",
        "Turno 1",
        "Turno 2",
        "Turno 3",
        "Termina el combate",
    ]


async def test_players_drive_only_their_own_combatants(env: Env) -> None:
    table = Table(env)
    await table.sit()
    gm, ana, beto = table.gm, table.ana, table.beto
    assert code(await table.call(ana, "combat_start", {"actors": ["aldara"]})) == "gm_only"
    # Aldara 11 + 5 = 16, Bruno 13 + 5 = 18: Bruno first.
    _, state = await table.step(
        gm, "combat_start", {"actors": ["aldara", "bruno"]}, dice=(5, 5, 5, 5, 5, 5)
    )
    assert ids(state) == [["bruno"], ["aldara"]]
    assert code(await table.call(ana, "combat_next_turn", {})) == "not_your_turn"
    assert code(await table.call(ana, "combat_delay", {"actor": "bruno"})) == "not_your_actor"
    assert code(await table.call(beto, "combat_next_round", {})) == "gm_only"
    assert code(await table.call(beto, "combat_end", {})) == "gm_only"
    assert code(await table.act(beto, "gm_action", "bruno", "next_round")) == "gm_only"
    # Beto holds Bruno; Ana plays Aldara's turn and ends it; Bruno interrupts at the start
    # of the next round, before Bruno's own slot.
    _, state = await table.step(beto, "combat_hold", {"actor": "bruno"})
    assert state["current"] == ["aldara"]
    assert code(await table.call(beto, "combat_next_turn", {})) == "not_your_turn"
    assert (await table.act(ana, "attack", "aldara", "attack", {}, ["bruno"], (2, 2, 2)))["ok"]
    assert code(await table.act(ana, "attack", "bruno", "attack", {}, ["aldara"])) == (
        "not_your_actor"
    )
    turn, state = await table.step(ana, "combat_next_turn")
    assert [c["title"] for c in turn["cards"]] == ["Turno 2"]
    assert state["round"] == 2 and state["current"] == ["bruno"]
    _, state = await table.step(beto, "combat_interrupt", {"actor": "bruno"})
    assert ids(state) == [["bruno"], ["bruno"], ["aldara"]]
    assert state["order"][0]["label"] == "Interrumpe"
    # Bruno's action count is one for the round, however many of his slots come up.
    assert (await table.act(beto, "attack", "bruno", "attack", {}, ["aldara"], (2, 2, 2)))["ok"]
    assert code(await table.act(beto, "attack", "bruno", "attack", {}, ["aldara"])) == (
        "no_actions_left"
    )
    _, state = await table.step(beto, "combat_next_turn")
    assert state["current"] == ["bruno"]
    _, state = await table.step(beto, "combat_next_turn")
    assert state["current"] == ["aldara"]
    # Round 3 drops the interrupt: the order is read again from the fight's initiative.
    _, state = await table.step(ana, "combat_next_turn")
    assert state["round"] == 3 and ids(state) == [["bruno"], ["aldara"]]


async def test_undo_of_a_round_restores_the_exact_previous_state(env: Env) -> None:
    table = Table(env)
    await table.sit()
    gm, ana = table.gm, table.ana
    # Aldara 11 + 9 = 20 (2 actions), the Bandido 9 + 5 = 14.
    _, state = await table.step(
        gm, "combat_start", {"actors": ["aldara", "bandido"]}, dice=(9, 9, 9, 5, 5, 5)
    )
    assert (await table.act(ana, "roll", "aldara", "move", {"metres": 6}))["ok"]
    before = await snapshot(env)
    assert before["data"]["o3d10_combat"]["moved"] == {"aldara": 6}
    _, state = await table.step(gm, "combat_next_turn")
    turn, state = await table.step(gm, "combat_next_turn")
    assert state["round"] == 2 and bookkeeping(env)["o3d10_combat"]["moved"] == {}
    # Undo the round change, then the turn: the tracker, the round's counts and every
    # client's view are exactly as before.
    undo = await table.call(gm, "undo", {"seq": turn["seq"]})
    assert (await state_after(gm, undo))["round"] == 1
    assert bookkeeping(env)["o3d10_combat"]["moved"] == {"aldara": 6}
    undo = await table.call(gm, "undo", {"seq": turn["seq"] - 1})
    restored = await state_after(gm, undo)
    assert without_seq(restored) == before["welcome"]["combat"]
    assert await snapshot(env) == before
    # Aldara's round goes on: 3 m more, then the 9 m are spent.
    assert (await table.act(ana, "roll", "aldara", "move", {"metres": 3}))["ok"]
    assert code(await table.act(ana, "roll", "aldara", "move", {"metres": 1})) == "move_limit"


async def test_a_late_combatant_rolls_once(env: Env) -> None:
    table = Table(env)
    await table.sit()
    gm, ana = table.gm, table.ana
    _, state = await table.step(gm, "combat_start", {"actors": ["bruno"]}, dice=(5, 5, 5))
    # Aldara joins mid-round: she rolls with her own button and acts this round ...
    _, state = await table.step(gm, "combat_add", {"actors": ["aldara"]})
    assert ids(state) == [["bruno"], ["aldara"]] and state["order"][1]["label"] == (
        "Se une al combate"
    )
    assert code(await table.act(ana, "attack", "aldara", "attack", {}, ["bruno"])) == (
        "no_initiative"
    )
    assert (await table.act(ana, "roll", "aldara", "initiative", dice=(9, 9, 9)))["ok"]
    assert (await table.act(ana, "attack", "aldara", "attack", {}, ["bruno"], (2, 2, 2)))["ok"]
    # ... and the next round orders her by it without rolling again; Casilda, who joins
    # without rolling, rolls when the round starts.
    _, state = await table.step(gm, "combat_add", {"actors": ["casilda"]})
    _, state = await table.step(gm, "combat_next_turn")
    _, state = await table.step(gm, "combat_next_turn")
    assert state["current"] == ["casilda"]
    assert code(await table.act(gm, "attack", "casilda", "attack", {}, ["bruno"])) == (
        "no_initiative"
    )
    turn, state = await table.step(gm, "combat_next_turn", dice=(3, 3, 3))
    assert [c["title"] for c in turn["cards"]] == ["Iniciativa de Casilda", "Turno 2"]
    assert ids(state) == [["aldara"], ["bruno"], ["casilda"]]
    assert [s["label"] for s in state["order"]] == ["20 (2 acc.)", "18 (1 acc.)", "16 (1 acc.)"]
    timed = [t for t in table.titles if t.startswith("Iniciativa")]
    assert timed == ["Iniciativa de Bruno", "Iniciativa de Aldara", "Iniciativa de Casilda"]
