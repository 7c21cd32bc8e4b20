"""Savage Worlds in the shared combat tracker, through the protocol (issue 8).

A fight from the first deal (``combat_start``) to ``combat_end``: a Joker in
round 1 (and the reshuffle before round 2's deal), a hold and an interrupt with
opposed Athletics, a Shaken recovery roll at the start of the Shaken character's
turn, Bleeding Out rolled at the start of each round before the cards are dealt;
a restart in the middle of a round, undo of a damage application and of a
tracker step, a player driving only her own combatant. Seed:
/work/shared/seeds/004_bafd3d4b8a0f1c8d.txt; rulings in rules/savage_worlds/RULES.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

from rules.registry import Registry
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.initiative import new_deck
from support.live import Client, Env, give, make_env, rid

REGISTRY = Registry([SYSTEM])
FIGHTERS = ["agente", "barbara", "ogro", "terrorista1", "terrorista2"]


@pytest.fixture
async def sw(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for env in make_env(tmp_path, aiohttp_server, "savage_worlds", registry=REGISTRY):
        yield env


def stack(deck: Iterable[str], top: list[str]) -> list[int]:
    """The Fisher-Yates faces (d54 ... d2) that put ``top`` on top of ``deck`` when shuffled."""
    cards = list(deck)
    target = top + [c for c in cards if c not in top]
    faces = []
    for i in range(len(cards) - 1, 0, -1):
        j = cards.index(target[i])
        faces.append(j + 1)
        cards[i], cards[j] = cards[j], cards[i]
    assert cards == target
    return faces


async def pushed(client: Client, kind: str, ack: dict[str, Any]) -> dict[str, Any]:
    """The ``kind`` push born with this ack's event."""
    assert ack["ok"], ack
    while True:
        body: dict[str, Any] = await client.next_push(kind)
        if body["seq"] == ack["seq"]:
            return body


def order(state: dict[str, Any]) -> list[list[str]]:
    return [[a["id"] for a in slot["actors"]] for slot in state["order"]]


def labels(state: dict[str, Any]) -> list[str | None]:
    return [slot["label"] for slot in state["order"]]


def kinds(ack: dict[str, Any]) -> list[str]:
    assert ack["ok"], ack
    return [card["kind"] for card in ack["cards"]]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def held(state: dict[str, Any]) -> list[str]:
    return [c["actor"] for c in state["combatants"] if c["held"]]


def without_seq(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "seq"}


def actor_of(welcome: dict[str, Any], actor_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(a for a in welcome["actors"] if a["id"] == actor_id)
    return found


class Log:
    """Every card the fight produced, to check each timed rule fired exactly once."""

    def __init__(self) -> None:
        self.cards: list[dict[str, Any]] = []

    def add(self, ack: dict[str, Any]) -> dict[str, Any]:
        assert ack["ok"], ack
        self.cards += ack["cards"]
        return ack

    def count(self) -> Counter[str]:
        return Counter(card["kind"] for card in self.cards)


async def test_two_rounds_with_joker_hold_interrupt_recovery_and_bleeding(sw: Env) -> None:
    gm = await sw.join()
    assert gm.welcome is not None
    await give(gm, "barbara", "bea", gm.welcome)
    bea = await sw.join("player", "bea")
    log = Log()

    # Round 1: the first deal shuffles a new deck. Agente (Temple) draws two and keeps
    # the King; Brunhilda gets the Joker; the terrorists share one card.
    sw.dice.script(*stack(new_deck(), ["KS", "2C", "JK1", "QH", "10D"]))
    start = log.add(await gm.call("combat_start", {"id": rid(), "actors": FIGHTERS}))
    assert kinds(start) == ["combat_start", "shuffle"]
    assert start["cards"][1]["visibility"] == "gm"
    state = await pushed(gm, "combat_state", start)
    assert (state["round"], state["phase"], state["current"]) == (1, "act", ["barbara"])
    assert order(state) == [["barbara"], ["agente"], ["ogro"], ["terrorista1", "terrorista2"]]
    assert labels(state) == ["Comodín", "K♠", "Q♥", "10♦"]
    assert state["order"][0]["data"]["joker"] is True
    assert state["order"][3]["data"] == {
        "card": "10D",
        "rank": "10",
        "suit": "D",
        "joker": False,
        "unit": "group:terroristas",
        "kept": False,
    }
    assert state["data"]["deck"]["discard"] == ["2C"] and len(state["data"]["deck"]["draw"]) == 49
    seen = await pushed(bea, "combat_state", start)
    assert seen["data"] == {} and labels(seen) == labels(state)
    joker = next(t for t in start["tokens"] if t["actor"] == "barbara")
    assert "joker" in joker["statuses"]

    # Brunhilda ends her own turn; she may not end the Agente's.
    log.add(await bea.call("combat_next_turn", {"id": rid()}))
    refused = await bea.call("combat_next_turn", {"id": rid()})
    assert refused["error"]["code"] == "not_your_turn"

    # The GM's hurt of 11 (Toughness 11) leaves the ogre Shaken; undo puts it back exactly.
    ogre_before = actor_of(gm.welcome, "ogro")
    hurt = await gm.call(
        "damage_apply",
        {"id": rid(), "actor": "ogro", "action": "hurt", "params": {"damage": 11}, "targets": []},
    )
    assert hurt["ok"] and "stunned" in (await pushed(gm, "actor_update", hurt))["actor"]["statuses"]
    undo = await gm.call("undo", {"id": rid(), "seq": hurt["seq"]})
    assert (await pushed(gm, "actor_update", undo))["actor"] == ogre_before
    hurt = log.add(
        await gm.call(
            "damage_apply",
            {
                "id": rid(),
                "actor": "ogro",
                "action": "hurt",
                "params": {"damage": 11},
                "targets": [],
            },
        )
    )

    # The Agente holds: the ogre's turn starts and he rolls Spirit (2, wild 1): still Shaken.
    sw.dice.script(2, 1)
    hold = log.add(await gm.call("combat_hold", {"id": rid(), "actor": "agente"}))
    assert kinds(hold) == ["start_turn"] and hold["cards"][0]["speaker"] == "ogro"
    assert "Ogro sigue aturdido: solo acciones gratuitas" in lines(hold["cards"][0])
    state = await pushed(gm, "combat_state", hold)
    assert state["current"] == ["ogro"] and held(state) == ["agente"]
    agente = next(t for t in hold["tokens"] if t["actor"] == "agente")
    assert "on_hold" in agente["added"]

    # He interrupts the ogre: opposed Athletics, 5 against 2, the Agente first.
    sw.dice.script(5, 3, 2, 1)
    interrupt = log.add(await gm.call("combat_interrupt", {"id": rid(), "actor": "agente"}))
    assert kinds(interrupt) == ["interrupt"]
    (card,) = interrupt["cards"]
    assert card["outcome"]["key"] == "success" and "Agente Vega actúa primero" in lines(card)
    state = await pushed(gm, "combat_state", interrupt)
    assert state["current"] == ["agente"] and held(state) == []
    assert order(state)[2:4] == [["agente"], ["ogro"]] and labels(state)[2] == "Interrumpe"

    # The Agente goes down bleeding; the ogre's turn comes back without a second Spirit roll.
    down = await gm.call(
        "status_set", {"id": rid(), "actor": "agente", "add": ["incapacitated", "bleeding"]}
    )
    assert down["ok"]
    sw.dice.script()  # no die may be rolled
    again = log.add(await gm.call("combat_next_turn", {"id": rid()}))
    assert kinds(again) == [] and (await pushed(gm, "combat_state", again))["current"] == ["ogro"]
    step = log.add(await gm.call("combat_next_turn", {"id": rid()}))
    state = await pushed(gm, "combat_state", step)
    assert state["current"] == ["terrorista1", "terrorista2"]

    # The system's own round actions would double the tracker's rules: refused.
    own = await gm.call(
        "gm_action", {"id": rid(), "action": "next_round", "params": {}, "targets": []}
    )
    assert own["error"]["code"] == "tracker_active"
    time = await gm.call("time_advance", {"id": rid(), "unit": "round", "count": 1})
    assert time["error"]["code"] == "tracker_active"

    # Round 2: Bleeding Out (5, wild 2: keeps bleeding) before the deal; a Joker was dealt,
    # so the discards go back and the deck is shuffled; Brunhilda (Rápido) redraws her 3.
    deck = state["data"]["deck"]
    back = [*deck["draw"], *deck["discard"], *state["data"]["cards"].values()]
    sw.dice.script(5, 2, *stack(back, ["3C", "9H", "AS", "2D"]), 5, 1)
    round2 = log.add(await gm.call("combat_next_turn", {"id": rid()}))
    assert kinds(round2) == ["bleeding", "next_round", "shuffle", "start_turn"]
    assert "Agente Vega sigue desangrándose: 5" in lines(round2["cards"][0])
    assert round2["cards"][3]["speaker"] == "ogro" and "Ogro deja de estar aturdido" in lines(
        round2["cards"][3]
    )
    state = await pushed(gm, "combat_state", round2)
    assert (state["round"], state["current"]) == (2, ["ogro"])
    assert order(state) == [["ogro"], ["barbara"], ["terrorista1", "terrorista2"]]
    assert labels(state) == ["A♠", "9♥", "2♦"]
    ogre = next(t for t in round2["tokens"] if t["actor"] == "ogro")
    assert "stunned" in ogre["removed"]
    brunhilda = next(t for t in round2["tokens"] if t["actor"] == "barbara")
    assert "joker" in brunhilda["removed"]

    step = log.add(await gm.call("combat_next_turn", {"id": rid()}))
    before = await pushed(gm, "combat_state", step)
    assert before["current"] == ["barbara"]

    # The server restarts in the middle of the round; the combat goes on identically.
    await sw.restart()
    gm = await sw.join(last_seq=before["seq"])
    assert gm.welcome is not None and without_seq(gm.welcome["combat"]) == without_seq(before)
    bea = await sw.join("player", "bea", last_seq=before["seq"])
    other = await bea.call("combat_hold", {"id": rid(), "actor": "ogro"})
    assert other["error"]["code"] == "not_your_actor"
    step = log.add(await bea.call("combat_next_turn", {"id": rid()}))
    state = await pushed(gm, "combat_state", step)
    assert state["current"] == ["terrorista1", "terrorista2"]

    # Round 3 (no Joker in round 2: no shuffle), undone, then played again.
    look = await sw.join("gm", "look")
    sw.dice.script(1, 1)
    dying = await gm.call("combat_next_turn", {"id": rid()})
    assert kinds(dying) == ["bleeding", "next_round"]
    assert lines(dying["cards"][0]) == ["Agente Vega muere desangrado: 1"]
    undo = await gm.call("undo", {"id": rid(), "seq": dying["seq"]})
    restored = await pushed(gm, "combat_state", undo)
    assert without_seq(restored) == without_seq(state)
    after = await sw.join("gm", "after")
    assert look.welcome is not None and after.welcome is not None
    assert after.welcome["actors"] == look.welcome["actors"]
    assert without_seq(after.welcome["combat"]) == without_seq(look.welcome["combat"])
    sw.dice.script(5, 2)
    round3 = log.add(await gm.call("combat_next_turn", {"id": rid()}))
    assert kinds(round3) == ["bleeding", "next_round"]
    state = await pushed(gm, "combat_state", round3)
    assert state["round"] == 3 and len(state["order"]) == 3

    end = log.add(await gm.call("combat_end", {"id": rid()}))
    assert kinds(end) == ["combat_end"]
    assert (await pushed(gm, "combat_state", end))["active"] is False

    # Each timed rule once at its moment: two Spirit rolls (the ogre's turns), Bleeding Out
    # at rounds 2 and 3, shuffles at the first deal and after the Joker round only.
    assert log.count() == Counter(
        {
            "combat_start": 1,
            "next_round": 2,
            "shuffle": 2,
            "bleeding": 2,
            "start_turn": 2,
            "interrupt": 1,
            "damage": 1,
            "combat_end": 1,
        }
    )


async def test_a_held_character_who_becomes_shaken_loses_the_hold(sw: Env) -> None:
    gm = await sw.join()
    sw.dice.script(*stack(new_deck(), ["KS", "2C", "QH"]))
    start = await gm.call("combat_start", {"id": rid(), "actors": ["agente", "ogro"]})
    assert (await pushed(gm, "combat_state", start))["current"] == ["agente"]
    hold = await gm.call("combat_hold", {"id": rid(), "actor": "agente"})
    assert (await pushed(gm, "combat_state", hold))["current"] == ["ogro"]
    hurt = await gm.call(
        "damage_apply",
        {"id": rid(), "actor": "agente", "action": "hurt", "params": {"damage": 7}, "targets": []},
    )
    assert hurt["ok"], hurt
    text = [line for card in hurt["cards"] for line in lines(card)]
    assert any("deja de estar en espera" in line for line in text)
    token = next(t for t in hurt["tokens"] if t["actor"] == "agente")
    assert "on_hold" not in token["statuses"] and "stunned" in token["statuses"]
    # Interrupting now costs no roll: the hold is gone and the Agente acts at once.
    sw.dice.script()
    acts = await gm.call("combat_interrupt", {"id": rid(), "actor": "agente"})
    assert kinds(acts) == ["interrupt"] and acts["cards"][0]["dice"] == []
    assert (await pushed(gm, "combat_state", acts))["current"] == ["agente"]


async def test_a_held_card_is_kept_into_the_next_round(sw: Env) -> None:
    gm = await sw.join()
    sw.dice.script(*stack(new_deck(), ["KS", "2C", "QH"]))
    start = await gm.call("combat_start", {"id": rid(), "actors": ["agente", "ogro"]})
    assert start["ok"]
    assert (await gm.call("combat_hold", {"id": rid(), "actor": "agente"}))["ok"]
    round2 = await gm.call("combat_next_round", {"id": rid()})
    assert kinds(round2) == ["next_round"]
    assert any("conserva su carta en espera" in line for line in lines(round2["cards"][0]))
    state = await pushed(gm, "combat_state", round2)
    assert order(state) == [["ogro"]] and held(state) == ["agente"]
    assert state["data"]["cards"]["agente"] == "KS"
    sw.dice.script(4, 1, 5, 1)
    ack = await gm.call("combat_interrupt", {"id": rid(), "actor": "agente"})
    state = await pushed(gm, "combat_state", ack)
    assert ack["cards"][0]["outcome"]["key"] == "failure"
    assert state["current"] == ["agente"] and held(state) == []


async def test_own_combat_and_tracker_exclude_each_other(sw: Env) -> None:
    gm = await sw.join()
    own = await gm.call(
        "gm_action",
        {"id": rid(), "action": "combat_start", "params": {}, "targets": ["agente", "ogro"]},
    )
    assert own["ok"], own
    tracker = await gm.call("combat_start", {"id": rid(), "actors": ["agente", "ogro"]})
    assert tracker["error"]["code"] == "already_in_combat"
