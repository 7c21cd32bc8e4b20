"""Omertà in the shared combat tracker, through the real server: initiative 1D10 + AGI every
round in the text's order, the round's timed rules once each at the round's end, a restart in
the middle of a round, undo of a tracker step and of a damage application, players driving
only their own combatants.

Percentile dice are two d10 (tens, units; a 10 reads 0): ``pct(47)`` scripts a 47. The
tracker rolls one d10 of initiative per combatant able to act, in the order they joined.
Actors: the samples jimmy (AGI 14), frank (12), sanderson (10) — PJs of player-<id> — and
tony (AGI 13, a PNJ), plus luca, a PJ of player-luca with Frank's sheet (AGI 12).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules.model import Actor
from rules.registry import default_registry
from support.live import Client, Env, make_env, rid

FIGHTERS = ["jimmy", "frank", "sanderson", "tony", "luca"]


def pct(value: int) -> list[int]:
    tens, units = divmod(value % 100, 10)
    return [tens or 10, units or 10]


def _actors() -> tuple[Actor, ...]:
    system = default_registry().get("omerta")
    samples = system.sample_actors()
    frank = next(a for a in samples if a.id == "frank")
    luca = Actor("luca", "Luca", "player-luca", frank.sheet, system.initial_state(frank.sheet))
    return (*samples, luca)


@pytest.fixture
async def om(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, "omerta", actors=_actors()):
        yield value


async def act(
    client: Client,
    event: str,
    actor: str | None,
    action: str,
    params: dict[str, Any] | None = None,
    targets: tuple[str, ...] = (),
) -> dict[str, Any]:
    payload: dict[str, Any] = {"id": rid(), "action": action, "params": params or {}}
    payload["targets"] = list(targets)
    if actor is not None:
        payload["actor"] = actor
    ack = await client.call(event, payload)
    assert ack["ok"], ack
    return ack


async def tracker(client: Client, event: str, actor: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"id": rid()}
    if actor is not None:
        payload["actor"] = actor
    ack = await client.call(event, payload)
    assert ack["ok"], ack
    return ack


async def state_after(client: Client, ack: dict[str, Any]) -> dict[str, Any]:
    """The combat_state push born with this ack's event."""
    while True:
        state: dict[str, Any] = await client.next_push("combat_state")
        if state["seq"] == ack["seq"]:
            return state


def refused(ack: dict[str, Any], code: str) -> None:
    assert ack["ok"] is False, ack
    assert ack["error"]["code"] == code, ack
    assert ack["error"]["message"]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def all_lines(ack: dict[str, Any]) -> list[str]:
    return [line for card in ack["cards"] for line in lines(card)]


def token(ack: dict[str, Any], actor: str) -> dict[str, Any]:
    return next(t for t in ack["tokens"] if t["actor"] == actor)


def order(state: dict[str, Any]) -> list[list[str]]:
    return [[a["id"] for a in slot["actors"]] for slot in state["order"]]


def without_seq(state: dict[str, Any] | None) -> dict[str, Any]:
    assert state is not None
    return {k: v for k, v in state.items() if k != "seq"}


async def settle(env: Env) -> None:
    """Close the clients and let the server see them go before it stops (``restart`` may
    otherwise wait for a socket the server still thinks open)."""
    for client in env.clients:
        if client.sio.connected:
            await client.close()
    await asyncio.sleep(0.3)


class Log:
    """Every card line of the fight, to check each timed rule fires exactly once."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def add(self, ack: dict[str, Any]) -> dict[str, Any]:
        self.seen.update(all_lines(ack))
        return ack


async def test_a_fight_from_first_initiative_to_combat_end(om: Env) -> None:
    gm = await om.join()
    jimmy = await om.join("player", "player-jimmy")
    log = Log()

    # -- round 1: Jimmy 5+14, Frank 3+12, Sanderson 2+10, Tony 4+13, Luca 3+12 -----------
    om.dice.script(5, 3, 2, 4, 3)
    start = log.add(await gm.call("combat_start", {"id": rid(), "actors": FIGHTERS}))
    assert start["ok"], start
    (card,) = start["cards"]
    assert card["title"] == "Iniciativa"
    assert [d["total"] for d in card["dice"]] == [5, 3, 2, 4, 3]
    assert lines(card)[0] == "Asalto 1"
    assert "Jimmy Brincos: 1D10 5 + AGI 14: 19" in lines(card)
    assert lines(card)[-1] == (
        "Orden de actuación: Jimmy Brincos → Tony el Sordo → Frank + Luca → Dr. Sanderson"
    )
    state = await state_after(gm, start)
    assert (state["round"], state["phase"], state["turn"]) == (1, "act", 0)
    assert order(state) == [["jimmy"], ["tony"], ["frank", "luca"], ["sanderson"]]
    assert state["current"] == ["jimmy"]
    assert [s["label"] for s in state["order"]] == [
        "19 (1D10 5 + AGI 14)",
        "17 (1D10 4 + AGI 13)",
        "15 (1D10 3 + AGI 12)",
        "12 (1D10 2 + AGI 10)",
    ]
    assert state["order"][2]["data"] == {"total": 15, "die": 3, "agi": 12, "pc": True}
    assert state["order"][1]["data"]["pc"] is False
    assert state["data"]["round"] == 1
    assert state["data"]["rolls"]["tony"] == {
        "actor": "tony",
        "agi": 13,
        "pc": False,
        "die": 4,
        "total": 17,
    }
    seen_by_player = await state_after(jimmy, start)
    assert seen_by_player["data"] == {} and order(seen_by_player) == order(state)

    # Omertà has no declarations; its own initiative and combat_end stand aside.
    refused(await gm.call("combat_declare", {"id": rid(), "actor": "jimmy"}), "not_declaring")
    refused(
        await gm.call(
            "roll", {"id": rid(), "actor": "jimmy", "action": "initiative", "params": {}}
        ),
        "tracker_combat",
    )
    refused(
        await gm.call("gm_action", {"id": rid(), "action": "combat_end", "params": {}}),
        "tracker_combat",
    )

    # Jimmy misses, then fumbles his second shot (-20 %: 40 % fumbles on 94-00): jammed.
    om.dice.script(*pct(80))
    log.add(await act(jimmy, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",)))
    om.dice.script(*pct(96))
    ack = log.add(await act(jimmy, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",)))
    assert "Acción adicional en el asalto: -20" in all_lines(ack)
    assert token(ack, "jimmy")["added"] == ["jammed"]
    state = await state_after(gm, await tracker(jimmy, "combat_next_turn"))
    assert state["current"] == ["tony"] and state["combatants"][0]["acted"] is True
    refused(await jimmy.call("combat_next_turn", {"id": rid()}), "not_your_turn")

    # Tony dodges the shoot-out: dodging for the round.
    om.dice.script(*pct(10))
    ack = log.add(await act(gm, "roll", "tony", "dodge", {}))
    assert token(ack, "tony")["added"] == ["dodging"]
    state = await state_after(gm, await tracker(gm, "combat_next_turn"))
    assert state["current"] == ["frank", "luca"]

    # Frank goes down bleeding; Luca delays to the end of the round.
    ack = log.add(await act(gm, "damage_apply", None, "gm_damage", {"amount": 20}, ("frank",)))
    assert set(token(ack, "frank")["added"]) == {"unconscious", "bleeding", "wounded"}
    state = await state_after(gm, await tracker(gm, "combat_delay", "luca"))
    assert order(state) == [["jimmy"], ["tony"], ["frank"], ["sanderson"], ["luca"]]
    assert state["current"] == ["frank"] and state["order"][-1]["label"] == "Retrasa su acción"
    state = await state_after(gm, await tracker(gm, "combat_next_turn"))
    assert state["current"] == ["sanderson"]

    # Sanderson holds, Luca's turn comes, Sanderson interrupts it: First Aid on Frank fails.
    state = await state_after(gm, await tracker(gm, "combat_hold", "sanderson"))
    assert state["current"] == ["luca"]
    state = await state_after(gm, await tracker(gm, "combat_interrupt", "sanderson"))
    assert state["current"] == ["sanderson"] and state["order"][4]["label"] == "Interrumpe"
    om.dice.script(*pct(90))
    ack = log.add(await act(gm, "heal", "sanderson", "first_aid", {}, ("frank",)))
    assert "Frank sigue desangrándose" in all_lines(ack)
    assert "Asaltos de retraso: -10" not in all_lines(ack)
    state = await state_after(gm, await tracker(gm, "combat_next_turn"))
    assert state["current"] == ["luca"]

    # -- the end of round 1, then round 2's initiative (Frank is out) ---------------------
    om.dice.script(1, 9, 2, 1)  # Jimmy 15, Sanderson 19, Tony 15, Luca 13
    ack = log.add(await tracker(gm, "combat_next_turn"))
    time_card, initiative = ack["cards"]
    assert time_card["title"] == "Pasa el tiempo"
    assert lines(time_card) == [
        "Pasan 1 asaltos",
        "Frank se desangra: Primeros auxilios sin penalización durante 4 asaltos más",
        "Tony el Sordo deja de esquivar",
    ]
    assert token(ack, "tony")["removed"] == ["dodging"]
    assert "Frank no actúa este asalto" in lines(initiative)
    assert [d["total"] for d in initiative["dice"]] == [1, 9, 2, 1]
    state = await state_after(gm, ack)
    assert state["round"] == 2 and state["current"] == ["sanderson"]
    assert order(state) == [["sanderson"], ["jimmy"], ["tony"], ["luca"]]
    assert state["data"]["out"] == ["frank"]
    assert state["data"]["timers"]["frank"] == {"first_aid_free": 4, "bleed_out": 14}
    assert all(not c["held"] and not c["acted"] for c in state["combatants"])

    # -- round 2: a new round, new counters: Jimmy clears the jam with no extra-action penalty
    state = await state_after(gm, await tracker(gm, "combat_next_turn"))
    assert state["current"] == ["jimmy"]
    om.dice.script(*pct(10))  # half of 60 %: 30 %
    ack = log.add(await act(jimmy, "roll", "jimmy", "clear_jam", {"weapon": "colt"}))
    assert "Mitad de la habilidad: -30" in all_lines(ack)
    assert "Acción adicional en el asalto: -20" not in all_lines(ack)
    assert "Colt M1911 estará lista en 2 asaltos" in all_lines(ack)

    # -- the server restarts in the middle of round 2: the fight goes on identically -------
    before = await state_after(gm, await tracker(jimmy, "combat_next_turn"))
    assert before["current"] == ["tony"]
    seq = om.seq()
    await settle(om)
    await om.restart()
    gm = await om.join(last_seq=seq)
    assert gm.welcome is not None
    assert without_seq(gm.welcome["combat"]) == without_seq(before)
    state = await state_after(gm, await tracker(gm, "combat_next_turn"))
    assert state["current"] == ["luca"] and state["round"] == 2
    om.dice.script(5, 2, 4, 3)  # round 3: Jimmy 19, Sanderson 12, Tony 17, Luca 15
    ack = log.add(await tracker(gm, "combat_next_turn"))
    assert lines(ack["cards"][0]) == [
        "Pasan 1 asaltos",
        "Frank se desangra: Primeros auxilios sin penalización durante 3 asaltos más",
    ]
    state = await state_after(gm, ack)
    assert state["round"] == 3 and order(state) == [["jimmy"], ["tony"], ["luca"], ["sanderson"]]
    assert state["data"]["timers"] == {
        "frank": {"first_aid_free": 3, "bleed_out": 13},
        "jimmy": {"jam.colt": 1},
    }

    # -- rounds 3-5 pass: the jam clears at the end of round 3, the window closes after 5 ---
    expected = {
        3: [
            "Frank se desangra: Primeros auxilios sin penalización durante 2 asaltos más",
            "Jimmy Brincos: colt vuelve a funcionar",
        ],
        4: ["Frank se desangra: Primeros auxilios sin penalización durante 1 asaltos más"],
        5: ["Frank: pasaron 5 asaltos; Primeros auxilios con -10% por cada asalto más"],
    }
    for ending, timed in expected.items():
        om.dice.script(5, 2, 4, 3)
        ack = log.add(await tracker(gm, "combat_next_round"))
        assert lines(ack["cards"][0]) == ["Pasan 1 asaltos", *timed]
        if ending == 3:
            assert token(ack, "jimmy")["removed"] == ["jammed"]
        state = await state_after(gm, ack)
        assert state["round"] == ending + 1 and state["current"] == ["jimmy"]

    # -- round 6: First Aid one round late saves Frank --------------------------------------
    om.dice.script(*pct(20), 2)  # 70 - 10 = 60 %: success, 1D4 = 2
    ack = log.add(await act(gm, "heal", "sanderson", "first_aid", {}, ("frank",)))
    assert "Asaltos de retraso: -10" in all_lines(ack)
    assert set(token(ack, "frank")["removed"]) == {"unconscious", "bleeding"}

    # -- the Don ends the fight: round 6 ends once, nothing bleeds any more -----------------
    ack = log.add(await tracker(gm, "combat_end"))
    assert [c["title"] for c in ack["cards"]] == ["Pasa el tiempo", "Fin del combate"]
    assert lines(ack["cards"][0]) == ["Pasan 1 asaltos"]
    assert (await state_after(gm, ack))["active"] is False
    refused(await gm.call("combat_next_turn", {"id": rid()}), "no_combat")

    # every timed rule fired exactly once
    for line in (
        "Tony el Sordo deja de esquivar",
        "Jimmy Brincos: colt vuelve a funcionar",
        "Frank: pasaron 5 asaltos; Primeros auxilios con -10% por cada asalto más",
        "Frank se desangra: Primeros auxilios sin penalización durante 4 asaltos más",
        "Frank se desangra: Primeros auxilios sin penalización durante 1 asaltos más",
    ):
        assert log.seen[line] == 1, line
    assert log.seen["Pasan 1 asaltos"] == 6
    # after the fight the system's own initiative is back
    om.dice.script(5)
    await act(gm, "roll", "jimmy", "initiative", {})


async def test_hidden_combatants_show_only_their_total(om: Env) -> None:
    gm = await om.join()
    player = await om.join("player", "player-jimmy")
    om.dice.script(5, 4)
    ack = await gm.call(
        "combat_start", {"id": rid(), "actors": ["jimmy", "tony"], "hidden": ["tony"]}
    )
    assert ack["ok"], ack
    card = ack["cards"][0]
    assert "Desconocido: 1D10 4 + AGI 13: 17" in lines(card)
    assert lines(card)[-1] == "Orden de actuación: Jimmy Brincos → ?"
    seen = await state_after(player, ack)
    # the bridge hides the combatant's id and its slot data from players; the label stays
    assert seen["order"][1]["label"] == "17" and seen["order"][1]["data"] == {}
    assert seen["order"][1]["actors"][0] == {"id": "hidden-1", "name": "Desconocido"}
    gm_view = await state_after(gm, ack)
    assert gm_view["data"]["rolls"]["tony"]["die"] == 4


async def test_undo_of_a_round_end_and_of_a_damage_application(om: Env) -> None:
    gm = await om.join()
    om.dice.script(5, 4)
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["jimmy", "tony"]}))["ok"]
    om.dice.script(*pct(10))
    await act(gm, "roll", "tony", "dodge", {})
    look = await om.join("gm", "look")
    snapshot = look.welcome
    assert snapshot is not None and snapshot["combat"]["round"] == 1

    # a tracker step that ended the round (the dodge ended, time passed, initiative rolled)
    om.dice.script(1, 1)
    step = await tracker(gm, "combat_next_round")
    assert token(step, "tony")["removed"] == ["dodging"]
    assert (await state_after(gm, step))["round"] == 2
    undo = await gm.call("undo", {"id": rid(), "seq": step["seq"]})
    assert undo["ok"], undo
    assert token(undo, "tony")["added"] == ["dodging"]
    restored = await state_after(gm, undo)
    assert without_seq(restored) == without_seq(snapshot["combat"])
    again = await om.join("gm", "again")
    assert again.welcome is not None
    assert again.welcome["actors"] == snapshot["actors"]
    assert without_seq(again.welcome["combat"]) == without_seq(snapshot["combat"])

    # the fight goes on from the restored round: the same round end runs once more
    om.dice.script(1, 1)
    redo = await tracker(gm, "combat_next_round")
    assert "Tony el Sordo deja de esquivar" in all_lines(redo)

    # a damage application in the fight, undone: the actor exactly as before
    pre = (await om.join("gm", "pre")).welcome
    assert pre is not None
    before = next(a for a in pre["actors"] if a["id"] == "jimmy")
    hit = await act(gm, "damage_apply", None, "gm_damage", {"amount": 20}, ("jimmy",))
    assert "bleeding" in token(hit, "jimmy")["added"]
    undo = await gm.call("undo", {"id": rid(), "seq": hit["seq"]})
    assert undo["ok"], undo
    while True:
        update = await gm.next_push("actor_update")
        if update["seq"] == undo["seq"] and (update["actor"] or {}).get("id") == "jimmy":
            break
    assert update["actor"] == before


async def test_players_drive_only_their_own_combatants(om: Env) -> None:
    gm = await om.join()
    jimmy = await om.join("player", "player-jimmy")
    refused(await jimmy.call("combat_start", {"id": rid(), "actors": ["jimmy"]}), "gm_only")
    om.dice.script(5, 4, 1)  # Jimmy 19, Tony 17, Luca 13
    assert (await gm.call("combat_start", {"id": rid(), "actors": ["jimmy", "tony", "luca"]}))["ok"]
    refused(await jimmy.call("combat_hold", {"id": rid(), "actor": "tony"}), "not_your_actor")
    refused(await jimmy.call("combat_delay", {"id": rid(), "actor": "luca"}), "not_your_actor")
    refused(await jimmy.call("combat_next_round", {"id": rid()}), "gm_only")
    state = await state_after(jimmy, await tracker(jimmy, "combat_hold", "jimmy"))
    assert state["current"] == ["tony"]
    refused(await jimmy.call("combat_next_turn", {"id": rid()}), "not_your_turn")
    state = await state_after(jimmy, await tracker(jimmy, "combat_interrupt", "jimmy"))
    assert state["current"] == ["jimmy"]
    state = await state_after(jimmy, await tracker(jimmy, "combat_next_turn"))
    assert state["current"] == ["tony"]
    refused(await jimmy.call("combat_next_turn", {"id": rid()}), "not_your_turn")
    luca = await om.join("player", "player-luca")
    await tracker(gm, "combat_next_turn")
    state = await state_after(luca, await tracker(luca, "combat_next_turn"))
    assert state["round"] == 2
