"""brp_d10 in the shared combat tracker, through the real server (issue 8).

A fight from its first declarations to its end in the text's order: 'hay que declarar lo que se
va a hacer antes del asalto ... (yo declararé primero las acciones de todos los PNJs)', then the
round's timeline tenth by tenth ('el caballero francés haría su primera acción en la cuarta
décima, luego el español ... en la sexta, a continuación el francés su segunda acción en la
octava y finalmente el español su segunda acción en la novena'); at each round's end one second
passes: a severed limb's death clock ('en un número de asaltos ... igual a su Resistencia,
morirá desangrado'), the round's action counts, an aim not kept up. Seed:
001_375c3d4f1c0cc1cc.txt.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.model import Actor
from rules.registry import default_registry
from support.live import Client, Env, give, make_env, rid

SYSTEM = default_registry().get("brp_d10")

BLEEDER: dict[str, Any] = {
    # a ruffian with little Resistencia: a severed arm bleeds him out in 2 rounds
    "characteristics": {"fuerza": 5, "agilidad": 3, "resistencia": 2, "tamano": 5},
    "skills": {"pelea": {"label": "Pelea", "value": 3}},
    "weapons": {"navaja": {"label": "Navaja", "kind": "melee", "skill": "pelea", "damage": "1d4"}},
}


def _actor(actor_id: str, name: str, sheet: dict[str, Any]) -> Actor:
    normal = SYSTEM.validate_sheet(sheet)
    return Actor(actor_id, name, None, normal, SYSTEM.initial_state(normal))


ACTORS = (*SYSTEM.sample_actors(), _actor("herido", "Herido", BLEEDER))
FIGHTERS = ["frances", "espanol", "guardaespaldas", "herido"]


@dataclass
class Seat:
    """A connection and what it has seen: actors, combat states, cards and token changes."""

    client: Client
    actors: dict[str, dict[str, Any]] = field(default_factory=dict)
    states: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        welcome = self.client.welcome or {}
        self.actors = {a["id"]: a for a in welcome.get("actors", [])}
        if welcome.get("combat"):
            self.states.append(welcome["combat"])

    def sync(self) -> None:
        for name, body in self.client.drain():
            self._record(name, body)

    async def seen(self, kind: str, seq: int) -> dict[str, Any]:
        """Wait for this connection's ``kind`` push of event ``seq`` (another client's event)."""
        while True:
            name, body = await asyncio.wait_for(self.client.pushes.get(), 5)
            self._record(name, body)
            if name == kind and body.get("seq") == seq:
                return body

    def _record(self, name: str, body: dict[str, Any]) -> None:
        if name == "actor_update" and body["actor"] is not None:
            self.actors[body["actor"]["id"]] = body["actor"]
        elif name == "combat_state":
            self.states.append(body)
        elif name == "chat_card":
            self.cards.append(body)
        elif name == "token_status":
            self.tokens.append(body)

    @property
    def combat(self) -> dict[str, Any]:
        self.sync()
        return self.states[-1]

    def state(self, actor_id: str) -> dict[str, Any]:
        self.sync()
        return self.actors[actor_id]["state"]  # type: ignore[no-any-return]

    def statuses(self, actor_id: str) -> list[str]:
        self.sync()
        return self.actors[actor_id]["statuses"]  # type: ignore[no-any-return]


async def send(
    env: Env, seat: Seat, event: str, dice: Iterable[int] = (), **payload: Any
) -> dict[str, Any]:
    """One request with its own scripted dice (all of them used when it is accepted)."""
    rolled = tuple(dice)
    scripted: ScriptedDice | None = None
    if rolled:
        env.dice.script(*rolled)
        queued = env.dice.queued[-1]
        assert isinstance(queued, ScriptedDice)
        scripted = queued
    ack = await seat.client.call(event, {"id": rid(), **payload})
    if scripted is not None:
        if scripted in env.dice.queued:
            env.dice.queued.remove(scripted)
        else:
            assert scripted.remaining == 0, (scripted.remaining, ack)
    seat.sync()  # the pushes of an event arrive before its ack
    return ack


async def act(
    env: Env,
    seat: Seat,
    actor: str,
    action: str,
    params: dict[str, Any] | None = None,
    targets: Iterable[str] = (),
    dice: Iterable[int] = (),
) -> dict[str, Any]:
    event = SYSTEM.action_spec(action).event
    return await send(
        env,
        seat,
        event,
        dice,
        actor=actor,
        action=action,
        params=params or {},
        targets=list(targets),
    )


def ok(ack: dict[str, Any]) -> dict[str, Any]:
    assert ack["ok"], ack
    return ack


def refused(ack: dict[str, Any], code: str) -> None:
    assert not ack["ok"], ack
    assert ack["error"]["code"] == code, ack["error"]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def kinds(ack: dict[str, Any]) -> list[str]:
    return [card["kind"] for card in ack["cards"]]


def order(state: dict[str, Any]) -> list[tuple[str | None, list[str]]]:
    """The round's order as (label, actors)."""
    return [(s["label"], [a["id"] for a in s["actors"]]) for s in state["order"]]


def clocks(seat: Seat) -> dict[str, int]:
    """The ruffian's death clocks in seconds (a round is one second)."""
    return {x["kind"]: x["remaining"] for x in seat.state("herido")["timers"]}


def without_seq(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "seq"}


async def declare(env: Env, seat: Seat, actor: str, plan: str) -> dict[str, Any]:
    return await send(env, seat, "combat_declare", actor=actor, params={"plan": plan})


@pytest.fixture
async def env(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, "brp_d10", actors=ACTORS):
        yield value


async def seats(env: Env) -> tuple[Seat, Seat]:
    """The GM, and Ana who plays the French knight (everybody else is an NPC)."""
    gm = Seat(await env.join("gm", "dm"))
    await give(gm.client, "frances", "ana", gm.client.welcome or {})
    ana = Seat(await env.join("player", "ana"))
    gm.sync()
    return gm, ana


async def first_round(env: Env, gm: Seat, ana: Seat) -> None:
    """Start the fight and make round 1's declarations: NPCs first, then Ana."""
    ok(await send(env, gm, "combat_start", actors=FIGHTERS))
    ok(await declare(env, gm, "espanol", "attack:espada,attack:espada"))
    ok(await declare(env, gm, "guardaespaldas", "other"))
    ok(await declare(env, gm, "herido", "attack:navaja"))
    ok(await declare(env, ana, "frances", "attack:espada,parry:espada"))


ROUND_1 = [
    ("Décima 4", ["frances"]),
    ("Décima 6", ["espanol", "guardaespaldas"]),
    ("Décima 8", ["frances", "herido"]),
    ("Décima 9", ["espanol"]),
]


# --- a fight from its first declarations to its end ------------------------------------------


async def test_a_fight_in_the_texts_order_with_each_timed_rule_once(env: Env) -> None:
    gm, ana = await seats(env)
    start = ok(await send(env, gm, "combat_start", actors=FIGHTERS))
    assert start["cards"] == []
    state = gm.combat
    # before the declarations: everybody at the tenth of their Agilidad (7, 5, 5, 3)
    assert (state["round"], state["phase"], state["current"]) == (1, "declare", [])
    assert order(state) == [
        ("Décima 4", ["frances"]),
        ("Décima 6", ["espanol", "guardaespaldas"]),
        ("Décima 8", ["herido"]),
    ]
    assert state["order"][0]["data"] == {
        "tenth": 4,
        "actions": [{"actor": "frances", "declared": False, "agilidad": 7}],
    }
    # '(yo declararé primero las acciones de todos los PNJs)'
    assert state["next_to_declare"] == "espanol"
    refused(await send(env, gm, "combat_next_turn"), "declarations_pending")
    refused(await declare(env, ana, "espanol", "attack:espada"), "not_your_actor")
    refused(await declare(env, ana, "frances", "attack:espada"), "declare_order")
    refused(await declare(env, gm, "espanol", ""), "plan_required")
    refused(await declare(env, gm, "espanol", "attack:espada," * 3), "too_many_actions")

    first = ok(await declare(env, gm, "espanol", "attack:espada,attack:espada"))
    assert kinds(first) == ["initiative"]
    assert "Décima 9: Caballero español: ataque (Agilidad 2)" in lines(first["cards"][0])
    assert gm.combat["next_to_declare"] == "guardaespaldas"
    assert gm.combat["combatants"][1]["declared"] == {"plan": "attack:espada,attack:espada"}
    ok(await declare(env, gm, "guardaespaldas", "other"))
    npc = ok(await declare(env, gm, "herido", "attack:navaja"))
    assert gm.combat["next_to_declare"] == "frances"
    # the player declares last, having seen the NPCs' declarations
    seen = await ana.seen("chat_card", npc["seq"])
    assert seen["title"] == "Acciones de Herido en el asalto"
    last = ok(await declare(env, ana, "frances", "attack:espada,parry:espada"))
    assert kinds(last) == ["initiative", "round_order"]
    assert lines(last["cards"][1]) == [
        "Décima 4: Caballero francés: ataque (Agilidad 7)",
        "Décima 6: Caballero español: ataque (Agilidad 5)",
        "Décima 6: Guardaespaldas: acción (Agilidad 5)",
        "Décima 8: Caballero francés: parada (instantánea)",
        "Décima 8: Herido: ataque (Agilidad 3)",
        "Décima 9: Caballero español: ataque (Agilidad 2)",
    ]
    state = ana.combat
    assert (state["phase"], state["turn"], state["current"]) == ("act", 0, ["frances"])
    assert order(state) == ROUND_1
    assert state["order"][2]["data"]["actions"][0] == {
        "actor": "frances",
        "declared": True,
        "step": 2,
        "kind": "parry",
        "weapon": "espada",
        "agilidad": 3,
        "instant": True,
    }
    assert state["data"] == {}  # the system's own data reaches GMs only
    assert gm.combat["data"]["agilidad"]["herido"] == 3

    # Décima 4: 'el francés procede a atacar y el dado marca un 8. Ha fallado'
    miss = ok(await act(env, ana, "frances", "attack", {"weapon": "espada"}, ["espanol"], [8]))
    assert miss["cards"][0]["outcome"]["key"] == "failure"
    ok(await send(env, ana, "combat_next_turn"))
    assert gm.combat["current"] == ["espanol", "guardaespaldas"]
    refused(await send(env, ana, "combat_next_turn"), "not_your_turn")
    refused(await send(env, ana, "combat_next_round"), "gm_only")
    # Décima 6: 'el español, que saca un 5 y acierta ... una herida leve en la pierna'
    hit = ok(await act(env, gm, "espanol", "attack", {"weapon": "espada"}, ["frances"], [5]))
    card = hit["cards"][0]
    took = ok(
        await send(env, ana, "card_action", [1, 1], card=card["card_id"], action="take", params={})
    )
    assert took["cards"][0]["outcome"]["key"] == "wound_1"
    aim = ok(await act(env, gm, "guardaespaldas", "aim", {"weapon": "pistola"}))
    assert aim["tokens"][0]["added"] == ["aiming"]
    # the ruffian loses his arm: 'cae insconsciente inmediatamente', 2 rounds to live (and the
    # +4 is over his Resistencia 2: hypovolemic shock, 2 minutes)
    severed = ok(await act(env, gm, "herido", "wound", {"location": "brazo_derecho", "level": 4}))
    assert "unconscious" in severed["tokens"][0]["added"]
    assert clocks(gm) == {"amputation": 2, "shock": 120}
    ok(await send(env, gm, "combat_next_turn"))
    assert gm.combat["current"] == ["frances", "herido"] and gm.combat["turn"] == 2
    assert gm.state("frances")["round"]["actions"] == 1

    # the server restarts in the middle of the round: the fight goes on identically
    before = gm.combat
    seq = before["seq"]
    before = without_seq(before)
    await env.restart()
    gm = Seat(await env.join("gm", "dm", last_seq=seq))
    ana = Seat(await env.join("player", "ana", last_seq=seq))
    assert gm.client.welcome is not None and gm.client.welcome["seq"] == seq
    assert without_seq(gm.combat) == before
    assert clocks(gm) == {"amputation": 2, "shock": 120}

    ok(await send(env, ana, "combat_next_turn"))  # the parry needs no turn of its own
    assert ana.combat["current"] == ["espanol"]
    # Décima 9: the Spaniard's second blow; the last turn ends the round
    ok(await act(env, gm, "espanol", "attack", {"weapon": "espada"}, ["frances"], [9]))
    end_1 = ok(await send(env, gm, "combat_next_turn"))
    assert kinds(end_1) == ["time"]
    assert end_1["cards"][0]["title"] == "Pasan 1 asaltos"
    assert "Muere desangrado" not in lines(end_1["cards"][0])
    assert clocks(gm) == {"amputation": 1, "shock": 119}
    assert gm.state("frances")["round"]["actions"] == 0
    assert gm.state("espanol")["round"]["weapons"] == {}
    assert gm.state("guardaespaldas")["aim"] == {"weapon": "pistola", "rounds": 1}
    assert "aiming" in gm.statuses("guardaespaldas")  # he aimed the whole round
    state = gm.combat
    assert (state["round"], state["phase"], state["next_to_declare"]) == (2, "declare", "espanol")
    # the ruffian, unconscious, neither declares nor acts
    assert order(state) == [("Décima 4", ["frances"]), ("Décima 6", ["espanol", "guardaespaldas"])]
    assert all(c["declared"] == {} and not c["acted"] for c in state["combatants"])

    # Round 2: 'Hará dos ataques ... El español, fiel a su estrategia, volverá a atacar dos veces'
    ok(await declare(env, gm, "espanol", "attack:espada,attack:espada"))
    ok(await declare(env, gm, "guardaespaldas", "other"))  # he does not shoot: the aim lapses
    ok(await declare(env, ana, "frances", "attack:espada,attack:espada"))
    assert order(gm.combat) == [
        ("Décima 4", ["frances"]),
        ("Décima 6", ["espanol", "guardaespaldas"]),
        ("Décima 8", ["frances"]),
        ("Décima 9", ["espanol"]),
    ]
    for expected in (["espanol", "guardaespaldas"], ["frances"], ["espanol"]):
        ok(await send(env, gm, "combat_next_turn"))
        assert gm.combat["current"] == expected
    end_2 = ok(await send(env, gm, "combat_next_turn"))
    assert kinds(end_2) == ["time"]
    # 'si no recibe una tirada de Medicina con éxito en un número de asaltos ... igual a su
    # Resistencia, morirá desangrado'; the bodyguard aimed at nothing this round
    assert lines(end_2["cards"][0]) == [
        "Muere desangrado",
        "Deja de apuntar con Pistola semiautomática",
    ]
    tokens = {t["actor"]: t for t in end_2["tokens"]}
    assert tokens["herido"]["added"] == ["dead"]
    assert tokens["guardaespaldas"]["removed"] == ["aiming"]
    assert gm.state("guardaespaldas")["aim"] == {"weapon": "", "rounds": 0}
    assert gm.combat["round"] == 3 and gm.combat["next_to_declare"] == "espanol"

    done = ok(await send(env, gm, "combat_end"))
    assert kinds(done) == ["end_combat"]
    assert gm.combat["active"] is False
    assert (await ana.seen("combat_state", done["seq"]))["active"] is False
    assert gm.state("frances")["wounds"][0]["ignored"] is False
    # every timed rule fired once, at its moment
    everything = [line for c in gm.cards for line in lines(c)]
    assert everything.count("Muere desangrado") == 1
    assert everything.count("Deja de apuntar con Pistola semiautomática") == 1
    # one second per round: the ends of rounds 1 and 2 (both after the restart)
    assert [c["title"] for c in gm.cards].count("Pasan 1 asaltos") == 2
    dead = [t for t in gm.tokens if t["actor"] == "herido" and "dead" in t["added"]]
    assert len(dead) == 1


# --- undo ------------------------------------------------------------------------------------


async def test_undo_of_a_round_end_and_of_a_damage_restores_the_exact_state(env: Env) -> None:
    gm, ana = await seats(env)
    await first_round(env, gm, ana)
    ok(await act(env, gm, "guardaespaldas", "aim", {"weapon": "pistola"}))
    ok(await act(env, gm, "herido", "wound", {"location": "brazo_derecho", "level": 4}))
    for _ in range(3):
        ok(await send(env, gm, "combat_next_turn"))
    assert gm.combat["current"] == ["espanol"]
    watcher = await env.join("gm", "watcher")
    welcome = watcher.welcome or {}
    state = without_seq(gm.combat)
    actors = {a: gm.actors[a] for a in FIGHTERS}

    step = ok(await send(env, gm, "combat_next_turn"))  # ends round 1: clocks, counts, plans
    assert gm.combat["round"] == 2
    assert clocks(gm) == {"amputation": 1, "shock": 119}
    undo = ok(await send(env, gm, "undo", seq=step["seq"]))
    assert undo["cards"] == []
    assert without_seq(gm.combat) == state
    assert {a: gm.actors[a] for a in FIGHTERS} == actors
    late = await env.join("gm", "late")
    assert late.welcome is not None
    assert late.welcome["actors"] == welcome["actors"]
    assert without_seq(late.welcome["combat"]) == without_seq(welcome["combat"])
    refused(await send(env, gm, "undo", seq=step["seq"]), "undo_conflict")
    # the round ends again, once, as it did the first time
    again = ok(await send(env, gm, "combat_next_turn"))
    assert kinds(again) == ["time"] and gm.combat["round"] == 2
    assert clocks(gm) == {"amputation": 1, "shock": 119}

    # round 2: a damage application undone puts the knight back as he was
    ok(await declare(env, gm, "espanol", "attack:espada"))
    ok(await declare(env, gm, "guardaespaldas", "other"))
    ok(await declare(env, ana, "frances", "attack:espada"))
    ok(await send(env, ana, "combat_next_turn"))
    hit = ok(await act(env, gm, "espanol", "attack", {"weapon": "espada"}, ["frances"], [2]))
    knight = gm.actors["frances"]
    combat = without_seq(gm.combat)
    took = ok(
        await send(
            env,
            ana,
            "card_action",
            [7, 4],
            card=hit["cards"][0]["card_id"],
            action="take",
            params={},
        )
    )
    assert took["cards"][0]["outcome"]["key"] == "wound_2"
    wounded = await gm.seen("actor_update", took["seq"])
    assert wounded["actor"] != knight and gm.actors["frances"] == wounded["actor"]
    ok(await send(env, gm, "undo", seq=took["seq"]))
    assert gm.actors["frances"] == knight
    assert without_seq(gm.combat) == combat


# --- the system's own combat actions ------------------------------------------------------


async def test_the_systems_own_combat_actions_defer_to_the_tracker(env: Env) -> None:
    gm, ana = await seats(env)
    ok(
        await send(
            env,
            gm,
            "combat_start",
            actors=["frances", "espanol", "agente"],
            hidden=["agente"],
        )
    )
    # declarations go through the tracker, in its order
    refused(
        await act(env, ana, "frances", "initiative", {"plan": "attack:espada", "declare": True}),
        "use_combat_declare",
    )
    refused(
        await act(env, gm, "espanol", "initiative", {"plan": "attack:espada", "declare": True}),
        "use_combat_declare",
    )
    preview = ok(await act(env, ana, "frances", "initiative", {"plan": "attack:espada"}))
    assert kinds(preview) == ["initiative"]  # a look at the timing is still fine
    # the hidden NPC's declaration is the GM's secret
    assert gm.combat["next_to_declare"] == "agente"  # NPCs first, the fastest (6) first
    hidden = ok(await declare(env, gm, "agente", "burst:subfusil,spray:subfusil"))
    assert hidden["cards"][0]["visibility"] == "gm"
    ok(await declare(env, gm, "espanol", "attack:espada"))
    last = ok(await declare(env, ana, "frances", "attack:espada"))
    secret = "Acciones de Agente de las Fuerzas Especiales en el asalto"
    assert all(c["title"] != secret for c in ana.cards)
    assert "Décima 5: Desconocido: ráfaga (Agilidad 6)" in lines(last["cards"][-1])
    # players see the hidden NPC under an opaque id, its slot without data
    assert "agente" not in str(ana.combat["order"])
    public = [s for s in ana.combat["order"] if s["actors"][0]["id"] == "hidden-1"]
    assert public[0]["actors"][0]["name"] == "Desconocido"
    assert public[0]["data"] == {}
    # the GM may still change a plan once the round acts (R38); a player may not
    ok(await act(env, gm, "espanol", "initiative", {"plan": "parry:espada", "declare": True}))
    refused(
        await act(env, ana, "frances", "initiative", {"plan": "parry:espada", "declare": True}),
        "use_combat_declare",
    )
    # a round of time and the end of the fight are the tracker's
    refused(await send(env, gm, "time_advance", unit="round", count=1), "use_combat_next_round")
    refused(await act(env, gm, "frances", "end_combat"), "use_combat_end")
    ok(await send(env, gm, "time_advance", unit="minute", count=1))  # other time still passes
    ok(await send(env, gm, "combat_end"))
    ok(await send(env, gm, "time_advance", unit="round", count=1))
    ok(await act(env, gm, "frances", "end_combat"))


# --- hold, interrupt, delay, next round ------------------------------------------------------


async def test_hold_interrupt_delay_and_next_round_run_the_round_end_once(env: Env) -> None:
    gm, ana = await seats(env)
    await first_round(env, gm, ana)
    refused(await send(env, ana, "combat_hold", actor="espanol"), "not_your_actor")
    held = ok(await send(env, ana, "combat_hold", actor="frances"))
    assert held["cards"] == [] and gm.combat["current"] == ["espanol", "guardaespaldas"]
    delayed = ok(await send(env, gm, "combat_delay", actor="guardaespaldas"))
    assert delayed["cards"] == [] and gm.combat["current"] == ["espanol"]
    assert order(gm.combat)[-1] == ("Retrasa su acción", ["guardaespaldas"])
    ok(await send(env, ana, "combat_interrupt", actor="frances"))
    assert gm.combat["current"] == ["frances"]
    assert order(gm.combat)[1] == ("Interrumpe", ["frances"])
    ok(await act(env, ana, "frances", "attack", {"weapon": "espada"}, ["espanol"], [8]))
    skipped = ok(await send(env, gm, "combat_next_round"))
    assert kinds(skipped) == ["time"]
    assert gm.combat["round"] == 2 and gm.combat["phase"] == "declare"
    assert gm.state("frances")["round"]["actions"] == 0
    clock = [c for c in gm.cards if c["title"] == "Pasan 1 asaltos"]
    assert len(clock) == 1
