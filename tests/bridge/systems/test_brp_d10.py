"""brp_d10 through the real server: the seed's worked examples with scripted dice, refusals with
their stable codes, every follow-up chain through ``card_action``, time, undo and the browser
scenario. Seed: 001_375c3d4f1c0cc1cc.txt ("Partida Rol por web")."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.model import Actor
from rules.registry import default_registry
from support import scenario
from support.live import Client, Env, give, make_env, rid

SYSTEM = default_registry().get("brp_d10")

HITMAN: dict[str, Any] = {
    # 'El guardaespaldas tiene una Agilidad de 5 y el asesino de 4' -- he draws a revolver
    "characteristics": {"fuerza": 5, "agilidad": 4, "resistencia": 5, "tamano": 5},
    "skills": {"revolver": {"label": "Revólver", "value": 4}},
    "weapons": {
        "revolver": {
            "label": "Revólver",
            "kind": "ranged",
            "skill": "revolver",
            "damage": "1d8",
            "automatic": True,
            "modes": ["single"],
            "rate": 6,
            "magazine": 6,
            "pistol": True,
        }
    },
}

THUG: dict[str, Any] = {
    # 'un conocido delincuente' and 'otro enemigo'
    "characteristics": {"fuerza": 5, "agilidad": 5, "resistencia": 5, "tamano": 5},
    "skills": {"pelea": {"label": "Pelea", "value": 3}},
    "weapons": {"navaja": {"label": "Navaja", "kind": "melee", "skill": "pelea", "damage": "1d4"}},
}

ARCHER: dict[str, Any] = {
    # 'si un arquero dispara una flecha contra un hombre desarmado (si tuviera un escudo ...)'
    "characteristics": {"fuerza": 5, "agilidad": 6, "resistencia": 5, "tamano": 5},
    "skills": {"arco": {"label": "Arco", "value": 6}},
    "weapons": {
        "arco": {
            "label": "Arco largo",
            "kind": "ranged",
            "skill": "arco",
            "damage": "1d8",
            "magazine": 1,
            "draw_and_use": False,
        }
    },
}


def actor(actor_id: str, name: str, sheet: dict[str, Any], owner: str | None = None) -> Actor:
    normal = SYSTEM.validate_sheet(sheet)
    return Actor(actor_id, name, owner, normal, SYSTEM.initial_state(normal))


EXTRAS = (
    actor("asesino", "Asesino", HITMAN),
    actor("delincuente", "Delincuente", THUG),
    actor("agresor", "Agresor", THUG),
    actor("arquero", "Arquero", ARCHER),
)


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def faces(card: dict[str, Any]) -> list[tuple[str, int]]:
    return [(d["role"], d["faces"][0]) for d in card["dice"]]


@dataclass
class Table:
    """A brp_d10 world on a real server, its GM connection and a mirror of every actor."""

    env: Env
    gm: Client
    actors: dict[str, dict[str, Any]] = field(default_factory=dict)
    tokens: list[dict[str, Any]] = field(default_factory=list)

    def script(self, *dice: int) -> ScriptedDice:
        scripted = ScriptedDice(dice)
        self.env.dice.queued.append(scripted)
        return scripted

    def sync(self) -> None:
        for name, body in self.gm.drain():
            if name == "actor_update" and body["actor"] is not None:
                self.actors[body["actor"]["id"]] = body["actor"]
            elif name == "token_status":
                self.tokens.append(body)

    def state(self, actor_id: str) -> dict[str, Any]:
        self.sync()
        return self.actors[actor_id]["state"]  # type: ignore[no-any-return]

    def statuses(self, actor_id: str) -> list[str]:
        self.sync()
        return self.actors[actor_id]["statuses"]  # type: ignore[no-any-return]

    async def call(
        self, client: Client, event: str, payload: dict[str, Any], dice: Iterable[int] = ()
    ) -> dict[str, Any]:
        rolled = tuple(dice)
        scripted = self.script(*rolled) if rolled else None
        ack = await client.call(event, {"id": rid(), **payload})
        if scripted is not None:
            if scripted in self.env.dice.queued:  # refused before any dice were asked for
                self.env.dice.queued.remove(scripted)
            else:
                assert scripted.remaining == 0, (f"{scripted.remaining} dice left", ack)
        # Every push of this event has arrived once its ack has (same connection, in order).
        return ack

    async def act(
        self,
        actor_id: str,
        action: str,
        params: dict[str, Any] | None = None,
        targets: Iterable[str] = (),
        dice: Iterable[int] = (),
        *,
        event: str | None = None,
        client: Client | None = None,
    ) -> dict[str, Any]:
        spec = SYSTEM.action_spec(action)
        payload = {
            "actor": actor_id,
            "action": action,
            "params": params or {},
            "targets": list(targets),
        }
        return await self.call(client or self.gm, event or spec.event, payload, dice)

    async def press(
        self,
        card: dict[str, Any],
        follow: str,
        dice: Iterable[int] = (),
        *,
        client: Client | None = None,
        **ask: Any,
    ) -> dict[str, Any]:
        payload = {"card": card["card_id"], "action": follow, "params": ask}
        return await self.call(client or self.gm, "card_action", payload, dice)

    async def gm_call(self, event: str, dice: Iterable[int] = (), **payload: Any) -> dict[str, Any]:
        return await self.call(self.gm, event, payload, dice)

    async def advance(self, unit: str, count: int = 1) -> dict[str, Any]:
        ack = await self.gm_call("time_advance", unit=unit, count=count)
        assert ack["ok"], ack
        return ack


def ok(ack: dict[str, Any]) -> dict[str, Any]:
    """The single card of a successful ack."""
    assert ack["ok"], ack
    assert len(ack["cards"]) == 1, ack["cards"]
    return ack["cards"][0]  # type: ignore[no-any-return]


def refused(ack: dict[str, Any], code: str) -> None:
    assert not ack["ok"], ack
    assert ack["error"]["code"] == code, ack["error"]
    assert ack["error"]["message"]


def follow_ids(card: dict[str, Any]) -> list[str]:
    return [f["id"] for f in card["actions"]]


@pytest.fixture
async def table(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Table]:
    async for env in make_env(
        tmp_path, aiohttp_server, "brp_d10", actors=(*SYSTEM.sample_actors(), *EXTRAS)
    ):
        gm = await env.join("gm", "dm")
        assert gm.welcome is not None
        board = Table(env, gm, {a["id"]: a for a in gm.welcome["actors"]})
        yield board


async def players(table: Table, **owners: str) -> dict[str, Client]:
    """Give each actor to its owner (actor=user) and connect the players."""
    assert table.gm.welcome is not None
    for actor_id, user in owners.items():
        await give(table.gm, actor_id, user, table.gm.welcome)
    clients = {user: await table.env.join("player", user) for user in sorted(set(owners.values()))}
    table.sync()
    return clients


# --- the knights' duel ---------------------------------------------------------------------


async def test_knights_duel_both_rounds_through_the_protocol(table: Table) -> None:
    """'Un caballero francés y otro español se enfrentan en un duelo con espadas anchas.'"""
    p = await players(table, frances="ana", espanol="beto")
    ana, beto = p["ana"], p["beto"]

    # Round 1: 'decide atacar en primer lugar y parar después. El español ... dos ataques'
    declared = ok(
        await table.act(
            "frances",
            "initiative",
            {"plan": "attack:espada,parry:espada", "declare": True},
            client=ana,
        )
    )
    assert "Agilidad: 7" in lines(declared)
    assert "Acciones declaradas: no pueden cambiarse" in lines(declared)
    refused(
        await table.act(
            "frances", "initiative", {"plan": "attack:espada", "declare": True}, client=ana
        ),
        "already_declared",
    )
    ok(
        await table.act(
            "espanol",
            "initiative",
            {"plan": "attack:espada,attack:espada", "declare": True},
            client=beto,
        )
    )
    order = ok(await table.gm_call("gm_action", actor="frances", action="round_order", params={}))
    timeline = lines(order)
    # 'el caballero francés haría su primera acción en la cuarta décima, luego el español ... en
    # la sexta ... el español su segunda acción en la novena'; the parry is instantaneous.
    assert "Décima 4: Caballero francés: ataque (Agilidad 7)" in timeline
    assert "Décima 6: Caballero español: ataque (Agilidad 5)" in timeline
    assert "Décima 9: Caballero español: ataque (Agilidad 2)" in timeline
    assert any("Caballero francés: parada (instantánea)" in line for line in timeline)

    # 'el francés procede a atacar y el dado marca un 8. Ha fallado'
    miss = ok(
        await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], [8], client=ana)
    )
    assert miss["outcome"]["key"] == "failure" and faces(miss) == [("attack", 8)]
    assert "Momento: Agilidad 7, décima 4 del asalto" in lines(miss)
    assert "Tirada de ataque: 1d10 8 +0 = 8 contra 3: Fallo" in lines(miss)
    assert miss["actions"] == []

    # 'el español, que saca un 5 y acierta, causando a su enemigo una herida leve en la pierna'
    hit = ok(
        await table.act("espanol", "attack", {"weapon": "espada"}, ["frances"], [5], client=beto)
    )
    assert hit["outcome"]["key"] == "success" and hit["outcome"]["margin"] == 1
    assert "Momento: Agilidad 5, décima 6 del asalto" in lines(hit)
    assert "Nivel de éxito: 0" in lines(hit)
    assert follow_ids(hit) == ["parry", "dodge", "take"]
    refused(
        await table.press(hit, "take", client=beto), "not_allowed"
    )  # the target's owner takes it
    # location 1d10 = 1 (right leg), 1d8+1 = 1+1, Fuerza 7 +1: 3 < Resistencia 5 -> light
    took = await table.press(hit, "take", [1, 1], client=ana)
    damage = ok(took)
    assert damage["outcome"]["key"] == "wound_1" and damage["outcome"]["label"] == "Herida leve"
    assert faces(damage) == [("location", 1), ("damage", 1)]
    assert "Localización: pierna derecha" in lines(damage)
    assert "Modificador al daño por Fuerza: +1" in lines(damage)
    assert "Daño final: 3" in lines(damage)
    (token,) = took["tokens"]
    assert token["actor"] == "frances" and token["added"] == ["wounded"]
    assert token["labels"] == {"wounded": "Herido"}
    assert token["numbers"] == {"wounds": 1, "penalty": 1}
    pushed = await beto.next_push("token_status")
    assert pushed["actor"] == "frances" and pushed["statuses"] == ["wounded"]
    # 'pongamos que el francés pasa su tirada de Resistencia y aguanta el dolor'
    assert follow_ids(damage) == ["endure_1"]
    endured = ok(await table.press(damage, "endure_1", [4], client=ana))
    assert endured["outcome"]["key"] == "success"
    assert "Tirada de Resistencia: 1d10 4 +0 = 4 contra 5: Éxito" in lines(endured)
    assert table.state("frances")["wounds"][0]["ignored"] is True
    refused(await table.press(damage, "endure_1", client=ana), "follow_up_used")

    # 'primero tira el español, sacando un 4, lo que supone un nivel de éxito de 1 ... y por tanto
    # un +2 a la dificultad en la parada del otro (+1 por acumulación ... +1 por el nivel de éxito)'
    second = ok(
        await table.act("espanol", "attack", {"weapon": "espada"}, ["frances"], [4], client=beto)
    )
    assert "Acumulación de acciones: +1" in lines(second)
    assert "Momento: Agilidad 2, décima 9 del asalto" in lines(second)
    assert "Tirada de ataque: 1d10 4 +1 = 5 contra 5: Éxito" in lines(second)
    assert "Nivel de éxito: 1" in lines(second)
    refused(await table.press(second, "parry", client=beto, weapon="espada"), "not_allowed")
    # 'El francés saca un 1, con lo que consigue milagrosamente detener el ataque.'
    parry = ok(await table.press(second, "parry", [1], client=ana, weapon="espada"))
    assert parry["outcome"]["key"] == "success"
    assert "Nivel de éxito del atacante: +1" in lines(parry)
    assert "Acumulación de acciones: +1" in lines(parry)
    assert "Tirada de parada: 1d10 1 +2 = 3 contra 3: Éxito" in lines(parry)
    assert "Bloquea el ataque" in lines(parry)
    assert parry["actions"] == []
    refused(await table.press(second, "parry", client=ana, weapon="espada"), "follow_up_used")
    # a parried blow is over: it can be neither dodged nor taken any more
    refused(await table.press(second, "dodge", client=ana), "blow_resolved")
    refused(await table.press(second, "take", client=ana), "blow_resolved")

    # Round 2: 'Hará dos ataques, pero el primero lo dirigirá contra la cabeza'
    await table.advance("round")
    assert table.state("frances")["round"]["actions"] == 0
    ok(
        await table.act(
            "frances",
            "initiative",
            {"plan": "attack:espada,attack:espada", "declare": True},
            client=ana,
        )
    )
    ok(
        await table.act(
            "espanol",
            "initiative",
            {"plan": "attack:espada,attack:espada", "declare": True},
            client=beto,
        )
    )
    # 'El francés tira con un +1 a la dificultad por el golpe de precisión y saca un 2'
    head = ok(
        await table.act(
            "frances",
            "attack",
            {"weapon": "espada", "location": "cabeza"},
            ["espanol"],
            [2],
            client=ana,
        )
    )
    assert "Golpe o disparo de precisión: +1" in lines(head)
    assert "Tirada de ataque: 1d10 2 +1 = 3 contra 3: Éxito" in lines(head)
    assert "Apuntado a: cabeza" in lines(head)
    # '... hiriendo gravemente a su adversario en la cabeza, pero sin llegar a matarle':
    # 1d8+1 = 5+1 = 6, from Resistencia 5 to 9: serious. No location die: the blow was aimed.
    # 'El español, fiel a su estrategia, volverá a atacar dos veces': he declared no parry
    refused(await table.press(head, "parry", client=beto, weapon="espada"), "not_declared")
    serious = ok(await table.press(head, "take", [5], client=beto))
    assert faces(serious) == [("damage", 5)]
    assert serious["outcome"]["key"] == "wound_2"
    assert "Localización: cabeza" in lines(serious)
    assert "wounded" in table.statuses("espanol") and "dead" not in table.statuses("espanol")
    # 'El español falla su ataque.' (now at +2 for the serious wound)
    fail = ok(
        await table.act("espanol", "attack", {"weapon": "espada"}, ["frances"], [6], client=beto)
    )
    assert "Heridas: +2" in lines(fail) and fail["outcome"]["key"] == "failure"
    # 'el francés actuará en primer lugar como siempre, sin embargo saca un 9 y falla'
    nine = ok(
        await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], [9], client=ana)
    )
    assert nine["outcome"]["key"] == "failure"
    assert "Momento: Agilidad 3, décima 8 del asalto" in lines(nine)
    # 'A continuación el español saca un 1 y lleva a cabo un ataque que ... acaba con su
    # adversario': 1 + 1 (accumulation) + 2 (wound) = 4 <= 5, confirmed by a 3 <= 5.
    crit = ok(
        await table.act("espanol", "attack", {"weapon": "espada"}, ["frances"], [1, 3], client=beto)
    )
    assert crit["outcome"]["key"] == "critical"
    assert faces(crit) == [("attack", 1), ("critical_confirm", 3)]
    assert any(line.startswith("Confirmación del crítico: 3 contra 5") for line in lines(crit))
    # maximum damage 9 + 1 = 10 = two steps of Resistencia 5: the location is incapacitated;
    # location die 10: the head, death.
    killed = await table.press(crit, "take", [10], client=ana)
    fatal = ok(killed)
    assert "Daño máximo del arma: 9" in lines(fatal) and "Daño final: 10" in lines(fatal)
    assert fatal["outcome"]["key"] == "wound_3"
    (token,) = killed["tokens"]
    assert token["added"] == ["dead"] and token["labels"]["dead"] == "Muerto"
    refused(
        await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], client=ana),
        "cannot_act",
    )


# --- the special forces agent -------------------------------------------------------------


async def test_special_forces_burst_then_sustained_fire(table: Table) -> None:
    # 'Tira el dado y saca un 4. Eso significa que las dos primeras balas impactan'
    burst = ok(
        await table.act(
            "agente", "attack", {"weapon": "subfusil", "mode": "burst"}, ["delincuente"], [4]
        )
    )
    assert burst["outcome"]["key"] == "success" and burst["outcome"]["margin"] == 2
    assert "Balas de la ráfaga: bala 1 (+0): impacta, bala 2 (+1): impacta, bala 3 (+2): falla" in (
        lines(burst)
    )
    assert "Contra un disparo no se puede parar ni esquivar" in lines(burst)
    assert "Balas en el arma: 27" in lines(burst)
    assert follow_ids(burst) == ["damage"]
    assert table.state("agente")["ammo"] == {"subfusil": 27}
    refused(
        await table.act(
            "agente", "attack", {"weapon": "subfusil", "mode": "burst"}, ["delincuente"]
        ),
        "one_burst_per_round",
    )
    # two bullets: the stored follow-up params (hits 2) are used; the presser sends nothing
    damage = ok(await table.press(burst, "damage", [6, 2, 1, 1]))
    assert faces(damage) == [("location", 6), ("damage", 2), ("location", 1), ("damage", 1)]
    assert [s["title"] for s in damage["sections"]] == ["Impacto 1", "Impacto 2", "Efectos"]
    assert [w["location"] for w in table.state("delincuente")["wounds"]] == [
        "pecho",
        "pierna_derecha",
    ]

    # 'al verse atacado por otro enemigo a distancia corta, cambia el selector ... a fuego
    # sostenido ... dos rociadas de cinco balas'. A new round (the burst was this one's).
    await table.advance("round")
    # 'saca un 9, con lo que falla su primera rociada ... en esta ocasión con un -2 a la dificultad
    # (el objetivo está a distancia corta). Saca un 6 y acierta (6-2=4) ... saca otro 6 y el
    # delincuente se lleva tres balazos.'
    spray = ok(
        await table.act(
            "agente",
            "attack",
            {"weapon": "subfusil", "mode": "sustained", "range": "short"},
            ["agresor"],
            [9, 6, 6],
        )
    )
    assert faces(spray) == [("attack", 9), ("attack", 6), ("spray_hits", 6)]
    first, second = spray["sections"][1:]
    assert "Tirada de ataque: 1d10 9 +0 = 9 contra 5: Fallo" in first["lines"]
    assert "Momento: Agilidad 6, décima 5 del asalto" in first["lines"]
    assert "Rociada a distancia corta: -2" in second["lines"]
    assert "Tirada de ataque: 1d10 6 -2 = 4 contra 5: Éxito" in second["lines"]
    assert "Balas que aciertan (1d10 6 / 2): 3" in second["lines"]
    assert "Momento: Agilidad 5, décima 6 del asalto" in second["lines"]
    assert spray["outcome"]["margin"] == 3 and "Balas en el arma: 17" in lines(spray)
    (button,) = spray["actions"]
    assert button["id"] == "damage" and button["label"] == "Tirar daño (3)"
    three = ok(await table.press(spray, "damage", [1, 1, 2, 1, 3, 1]))
    assert [s["title"] for s in three["sections"]][:3] == ["Impacto 1", "Impacto 2", "Impacto 3"]
    # 'Si durante el fuego sostenido se cambia de blanco, se pierde una bala en el cambio.'
    switch = ok(
        await table.act(
            "agente",
            "attack",
            {"weapon": "subfusil", "mode": "sustained", "range": "short", "bullets": 5},
            ["delincuente"],
            [9],
        )
    )
    assert "Cambio de blanco: se pierde una bala" in lines(switch)
    assert "Balas de la rociada: 4" in lines(switch)
    assert "Rociada a distancia corta: -2" in lines(switch)  # continuing: not a first spray
    assert table.state("agente")["ammo"] == {"subfusil": 12}


# --- the bodyguard and the hitman -----------------------------------------------------------


async def test_bodyguard_three_shots_and_the_hitman_timing(table: Table) -> None:
    # 'Ninguno de los dos dispara en el mismo asalto en que desenfunda, para evitar el +2'
    drawn = ok(
        await table.act(
            "guardaespaldas",
            "attack",
            {"weapon": "pistola", "drawn": True},
            ["asesino"],
            [10],
        )
    )
    assert "Desenfundado en este asalto: +2" in lines(drawn)
    await table.advance("round")
    ok(
        await table.act(
            "guardaespaldas",
            "initiative",
            {"plan": "shoot:pistola,shoot:pistola,shoot:pistola", "declare": True},
        )
    )
    ok(await table.act("asesino", "initiative", {"plan": "shoot:revolver", "declare": True}))
    order = [
        line
        for line in lines(
            ok(await table.gm_call("gm_action", actor="asesino", action="round_order", params={}))
        )
        if "Guardaespaldas" in line or "Asesino" in line
    ]
    # 'Tira por segunda vez ... a una Agilidad de 4 por ser el segundo disparo, y por tanto al
    # mismo tiempo que el asesino ... El tercer disparo, por ser ya a una Agilidad de 3, va
    # después del ataque del matón'
    assert order == [
        "Décima 6: Guardaespaldas: disparo (Agilidad 5)",
        "Décima 7: Asesino: disparo (Agilidad 4)",
        "Décima 7: Guardaespaldas: disparo (Agilidad 4)",
        "Décima 8: Guardaespaldas: disparo (Agilidad 3)",
    ], order
    # 'Decide hacer tres disparos; tira el dado y saca en primer lugar un 2 ... Saca un 3, lo que
    # es otro éxito ... con un +2 a la dificultad. Saca un 6, un fallo.'
    shots = ok(
        await table.act(
            "guardaespaldas", "attack", {"weapon": "pistola", "shots": 3}, ["asesino"], [2, 3, 6]
        )
    )
    one, two, three = shots["sections"][1:]
    assert "Momento: Agilidad 5, décima 6 del asalto" in one["lines"]
    assert "Tirada de ataque: 1d10 2 +0 = 2 contra 4: Éxito" in one["lines"]
    assert "Momento: Agilidad 4, décima 7 del asalto" in two["lines"]
    assert "Acumulación de acciones: +1" in two["lines"]
    assert "Tirada de ataque: 1d10 3 +1 = 4 contra 4: Éxito" in two["lines"]
    assert "Momento: Agilidad 3, décima 8 del asalto" in three["lines"]
    assert "Tirada de ataque: 1d10 6 +2 = 8 contra 4: Fallo" in three["lines"]
    assert shots["outcome"]["margin"] == 2 and follow_ids(shots) == ["damage"]
    assert table.state("guardaespaldas")["ammo"] == {"pistola": 11}
    # The hitman fires at Agilidad 4 (tenth 7), with the first bullet already in him.
    back = ok(await table.act("asesino", "attack", {"weapon": "revolver"}, ["guardaespaldas"], [7]))
    assert "Momento: Agilidad 4, décima 7 del asalto" in lines(back)
    # 'una vez declarado, no puede cambiarse': a fourth shot was never declared
    refused(
        await table.act("guardaespaldas", "attack", {"weapon": "pistola"}, ["asesino"]),
        "plan_done",
    )
    # 'ya tenía una bala en el cuerpo, y en cuanto apretó el gatillo, recibió la segunda': chest
    # 1d8 = 8 and abdomen 1d8 = 8, two serious wounds (+4, not yet over Resistencia 5).
    hit = await table.press(shots, "damage", [6, 8, 5, 8])
    card = ok(hit)
    assert [s["title"] for s in card["sections"]] == ["Impacto 1", "Impacto 2", "Efectos"]
    assert "wounded" in hit["tokens"][0]["statuses"]


# --- refusals -------------------------------------------------------------------------------


async def test_impossible_requests_are_refused_with_stable_codes(table: Table) -> None:
    p = await players(table, frances="ana", guardaespaldas="gus")
    ana, gus = p["ana"], p["gus"]
    # a player acts only for their own actor, and never as the GM
    refused(
        await table.act("espanol", "attack", {"weapon": "espada"}, ["frances"], client=ana),
        "not_your_actor",
    )
    refused(
        await table.act("frances", "wound", {"location": "pecho", "level": 1}, client=ana),
        "gm_only",
    )
    # a third action with a broadsword ('dos ataques, dos paradas o un ataque y una parada')
    for die in (9, 9):
        ok(
            await table.act(
                "frances", "attack", {"weapon": "espada"}, ["espanol"], [die], client=ana
            )
        )
    refused(
        await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], client=ana),
        "too_many_actions",
    )
    # a firing mode the pistol lacks
    refused(
        await table.act(
            "guardaespaldas",
            "attack",
            {"weapon": "pistola", "mode": "burst"},
            ["asesino"],
            client=gus,
        ),
        "fire_mode_unavailable",
    )
    # more shots than the pistol holds, then an empty magazine
    refused(
        await table.act("asesino", "attack", {"weapon": "revolver", "shots": 5}, ["frances"]),
        "too_many_actions_agility",
    )
    for _ in range(2):
        ok(
            await table.act(
                "asesino", "attack", {"weapon": "revolver", "shots": 3}, ["frances"], [9, 9, 9]
            )
        )
        await table.advance("round")
    refused(await table.act("asesino", "attack", {"weapon": "revolver"}, ["frances"]), "no_ammo")
    # reloading takes the round: not after acting, not twice
    ok(await table.act("asesino", "reload", {"weapon": "revolver", "one": True}))
    refused(
        await table.act("asesino", "attack", {"weapon": "revolver"}, ["frances"]), "round_spent"
    )
    await table.advance("round")
    refused(
        await table.act("asesino", "attack", {"weapon": "revolver", "shots": 2}, ["frances"]),
        "not_enough_ammo",
    )
    # sustained fire beyond the weapon's rate, an automatic hit at range, drawing a bow
    refused(
        await table.act(
            "agente",
            "attack",
            {"weapon": "subfusil", "mode": "sustained", "bullets": 11},
            ["delincuente"],
        ),
        "too_many_bullets",
    )
    refused(
        await table.act(
            "agente", "attack", {"weapon": "subfusil", "surprise": True}, ["delincuente"]
        ),
        "surprise_melee_only",
    )
    refused(
        await table.act("arquero", "attack", {"weapon": "arco", "drawn": True}, ["espanol"]),
        "cannot_draw_and_use",
    )
    refused(await table.act("agente", "aim", {"weapon": "cuchillo"}), "cannot_aim_melee")
    refused(await table.act("agente", "reload", {"weapon": "subfusil"}), "already_loaded")
    refused(
        await table.act("agente", "attack", {"weapon": "bazooka"}, ["espanol"]), "no_such_weapon"
    )
    # a skill at 0 'impide usarla'; Medicine with nothing to treat
    refused(
        await table.act("frances", "check", {"skill": "medicina"}, client=ana), "skill_unusable"
    )
    refused(
        await table.act("espanol", "treat", {"purpose": "bleeding"}, ["frances"]),
        "nothing_to_treat",
    )
    # treating a wound twice the same day, then after a success
    wound = await table.act("frances", "wound", {"location": "pecho", "level": 2})
    assert wound["ok"], wound
    ok(await table.act("espanol", "treat", {"purpose": "wound", "wound": 1}, ["frances"], [9]))
    refused(
        await table.act("espanol", "treat", {"purpose": "wound", "wound": 1}, ["frances"]),
        "already_treated_today",
    )
    await table.advance("day")
    ok(await table.act("espanol", "treat", {"purpose": "wound", "wound": 1}, ["frances"], [1]))
    refused(
        await table.act("espanol", "treat", {"purpose": "wound", "wound": 1}, ["frances"]),
        "already_treated",
    )
    # an action kind on the wrong event, a follow-up-only action sent directly
    refused(
        await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], event="roll"),
        "wrong_event",
    )
    # a declaration beyond Agilidad 5
    refused(
        await table.act(
            "guardaespaldas",
            "initiative",
            {"plan": "shoot:pistola," * 5 + "attack:punos"},
            client=gus,
        ),
        "too_many_actions_agility",
    )


# --- follow-up chains -------------------------------------------------------------------------


async def test_opposed_check_answered_through_the_card(table: Table) -> None:
    p = await players(table, frances="ana", espanol="beto")
    card = ok(
        await table.act(
            "frances",
            "check",
            {"skill": "espadas", "opposed_skill": "espadas"},
            ["espanol"],
            [1],
            client=p["ana"],
        )
    )
    assert card["outcome"] is None and "Nivel de éxito: 2" in lines(card)
    (button,) = card["actions"]
    assert (button["id"], button["actor"], button["ask"]) == ("oppose", "espanol", [])
    refused(await table.press(card, "oppose", client=p["ana"]), "not_allowed")
    # level 5 - 2 = 3 beats 2: 'comparar el nivel de éxito de cada uno de los contendientes'
    answer = ok(await table.press(card, "oppose", [2], client=p["beto"]))
    assert answer["outcome"]["key"] == "success"
    assert "Gana Caballero español" in lines(answer)


async def test_melee_dodge_and_parry_fail_into_damage(table: Table) -> None:
    blow = ok(await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], [2]))
    # Esquivar 2 at +1 (the attacker's level 3 - 2 = 1): a 2 fails
    dodge = ok(await table.press(blow, "dodge", [2]))
    assert "Nivel de éxito del atacante: +1" in lines(dodge)
    assert "Tirada de esquiva: 1d10 2 +1 = 3 contra 2: Fallo" in lines(dodge)
    assert follow_ids(dodge) == ["damage"]
    refused(await table.press(blow, "parry", weapon="espada"), "blow_resolved")  # one defence
    refused(await table.press(blow, "take"), "blow_resolved")  # the dodge's damage button counts
    hurt = ok(await table.press(dodge, "damage", [9, 1]))  # left arm, 1d8+1 = 2: light
    assert "Localización: brazo izquierdo" in lines(hurt)
    assert hurt["outcome"]["key"] == "wound_1"

    blow = ok(await table.act("frances", "attack", {"weapon": "espada"}, ["espanol"], [2]))
    assert "Tirada de ataque: 1d10 2 +1 = 3 contra 3: Éxito" in lines(blow)
    # the shield parries (Escudo 4) at +3: level 1, accumulation +1 (the dodge was an action),
    # the light wound +1
    parry = ok(await table.press(blow, "parry", [4], weapon="rodela"))
    assert "Heridas: +1" in lines(parry)
    assert "Tirada de parada: 1d10 4 +3 = 7 contra 4: Fallo" in lines(parry)
    hurt = ok(await table.press(parry, "damage", [5, 8]))  # abdomen, 8 + 1 = 9: serious
    assert hurt["outcome"]["key"] == "wound_2"
    assert table.state("espanol")["round"]["weapons"] == {"rodela": 1}


async def test_parry_needs_a_melee_weapon_and_arrows_need_a_shield(table: Table) -> None:
    blow = ok(await table.act("espanol", "attack", {"weapon": "espada"}, ["agente"], [3]))
    refused(await table.press(blow, "parry", weapon="subfusil"), "cannot_parry_with")
    refused(await table.press(blow, "parry", weapon="nada"), "no_such_weapon")
    knife = ok(await table.press(blow, "parry", [1], weapon="cuchillo"))
    assert knife["outcome"]["key"] == "success"
    # 'si tuviera un escudo, podría utilizarlo contra la flecha'
    arrow = ok(await table.act("arquero", "attack", {"weapon": "arco"}, ["espanol"], [5]))
    assert follow_ids(arrow) == ["parry", "take"]
    refused(await table.press(arrow, "parry", weapon="espada"), "cannot_parry_missile")
    shield = ok(await table.press(arrow, "parry", [1], weapon="rodela"))
    assert "Bloquea el ataque" in lines(shield)
    assert table.state("arquero")["ammo"] == {"arco": 0}
    # an arrow at a man without a shield: no defence at all
    await table.advance("round")
    ok(await table.act("arquero", "reload", {"weapon": "arco"}))
    await table.advance("round")
    bare = ok(await table.act("arquero", "attack", {"weapon": "arco"}, ["frances"], [2]))
    assert follow_ids(bare) == ["damage"]
    assert "Sin escudo no se puede parar ni esquivar" in lines(bare)


async def test_critical_shot_offers_maximum_damage_ignoring_armour(table: Table) -> None:
    shot = ok(
        await table.act(
            "guardaespaldas",
            "attack",
            {"weapon": "pistola", "location": "pecho"},
            ["agente"],
            [1, 3],
        )
    )
    assert shot["outcome"]["key"] == "critical"
    (button,) = shot["actions"]
    assert button["id"] == "damage_crit" and button["ask"] == []
    # the stored params (critical, location pecho) are used: no dice at all
    ack = await table.press(shot, "damage_crit")
    card = ok(ack)
    assert card["dice"] == []
    assert "Daño máximo del arma: 8" in lines(card)
    assert "Armadura ignorada por el crítico: 0" in lines(card)
    assert card["outcome"]["key"] == "wound_2"  # 8 against Resistencia 6
    assert ack["tokens"][0]["numbers"]["penalty"] == 2


# --- time ---------------------------------------------------------------------------------


async def test_time_runs_the_death_clocks(table: Table) -> None:
    # 'ésta resulta seccionada y el personaje cae insconsciente ... en un número de asaltos ...
    # igual a su Resistencia, morirá desangrado' (Resistencia 6)
    ack = await table.act("agente", "wound", {"location": "brazo_derecho", "level": 4})
    (token,) = ack["tokens"]
    assert token["added"] == ["bleeding", "prone", "unconscious", "wounded"]
    assert token["labels"]["bleeding"] == "Desangrándose"
    assert table.state("agente")["timers"] == [{"kind": "amputation", "remaining": 6}]
    await table.advance("round", 5)
    assert "dead" not in table.statuses("agente")
    last = await table.advance("round")
    (token,) = last["tokens"]
    assert token["actor"] == "agente" and token["added"] == ["dead"]
    assert token["removed"] == ["bleeding", "unconscious"]
    assert "Muere desangrado" in lines(last["cards"][0])

    # abdomen: 'Si no recibe una tirada de Medicina con éxito en un número de horas igual a su
    # característica de Resistencia, morirá' -- the Spanish knight's Medicine 3 saves him
    ok(await table.act("guardaespaldas", "wound", {"location": "abdomen", "level": 3}))
    assert {"bleeding", "incapacitated", "prone"} <= set(table.statuses("guardaespaldas"))
    refused(
        await table.act("guardaespaldas", "attack", {"weapon": "pistola"}, ["frances"]),
        "cannot_act",
    )
    failed = ok(await table.act("espanol", "treat", {}, ["guardaespaldas"], [9]))
    assert "Sigue desangrándose" in lines(failed)
    saved = await table.act("espanol", "treat", {}, ["guardaespaldas"], [2])
    assert "Hemorragia detenida" in lines(ok(saved))
    assert saved["tokens"][0]["removed"] == ["bleeding"]
    await table.advance("hour", 6)
    assert "dead" not in table.statuses("guardaespaldas")

    # hypovolemic shock: 'la dificultad acumulada de todas las heridas ... supera ... su
    # Resistencia' -- 2 + 2 + 1 + 1 = 6 > 5: faints, dies in 5 minutes
    for location, level in (("pecho", 2), ("abdomen", 2), ("pierna_derecha", 1)):
        ok(await table.act("frances", "wound", {"location": location, "level": level}))
    shock = await table.act("frances", "wound", {"location": "pierna_izquierda", "level": 1})
    assert any(line.startswith("Shock hipovolémico") for line in lines(ok(shock)))
    assert {"bleeding", "unconscious"} <= set(shock["tokens"][0]["added"])
    await table.advance("minute", 4)
    assert "dead" not in table.statuses("frances")
    await table.advance("minute")
    assert "dead" in table.statuses("frances")


async def test_time_heals_wounds_and_badly_set_bones_cost_agilidad(table: Table) -> None:
    # 'Una Herida Leve se recupera simplemente teniendo unos minutos de tranquilidad'
    ok(await table.act("espanol", "wound", {"location": "brazo_izquierdo", "level": 1}))
    await table.advance("minute", 9)
    assert len(table.state("espanol")["wounds"]) == 1
    healed = await table.advance("minute")
    assert table.state("espanol")["wounds"] == []
    assert healed["tokens"][0]["removed"] == ["wounded"]
    # 'Una Herida Grave requerirá tres semanas de reposo, durante las dos primeras ... +2'
    ok(await table.act("espanol", "wound", {"location": "pecho", "level": 2}))
    await table.advance("day", 13)
    table.sync()
    assert table.actors["espanol"]["numbers"]["penalty"] == 2
    await table.advance("day")
    table.sync()
    assert table.actors["espanol"]["numbers"]["penalty"] == 0
    await table.advance("day", 7)
    assert table.state("espanol")["wounds"] == []
    # 'Una Localización Incapacitada requiere dos meses ... el hueso habrá soldado mal,
    # perdiendo el personaje un punto de la característica de Agilidad'
    ok(
        await table.act(
            "espanol", "wound", {"location": "pierna_derecha", "level": 3, "injury": "bone"}
        )
    )
    assert {"impaired", "prone"} <= set(table.statuses("espanol"))
    ok(await table.gm_call("gm_action", actor="espanol", action="interrupt_rest", params={}))
    await table.advance("day", 59)
    assert len(table.state("espanol")["wounds"]) == 1
    done = await table.advance("day")
    assert "Ha curado mal: pierde un punto de Agilidad" in lines(done["cards"][0])
    assert table.state("espanol")["losses"] == {"agilidad": 1}
    assert "impaired" not in table.statuses("espanol")


# --- undo ---------------------------------------------------------------------------------


async def test_undo_of_a_damage_application_restores_the_exact_state(table: Table) -> None:
    shot = ok(
        await table.act("guardaespaldas", "attack", {"weapon": "pistola"}, ["delincuente"], [2])
    )
    table.sync()
    before = table.actors["delincuente"]
    assert before["statuses"] == [] and before["state"]["wounds"] == []
    damage = await table.press(shot, "damage", [5, 8])  # abdomen 8: serious
    assert damage["ok"] and table.state("delincuente")["wounds"] != []
    undo = await table.gm_call("undo", seq=damage["seq"])
    assert undo["ok"], undo
    (token,) = undo["tokens"]
    assert token["actor"] == "delincuente" and token["removed"] == ["wounded"]
    table.sync()
    assert table.actors["delincuente"] == before
    refused(await table.gm_call("undo", seq=damage["seq"]), "undo_conflict")


# --- locale and the browser scenario --------------------------------------------------------


async def test_english_cards_and_labels(table: Table) -> None:
    reader = await table.env.join("gm", "en-dm", locale="en")
    ack = await table.call(
        reader,
        "attack",
        {
            "actor": "frances",
            "action": "attack",
            "params": {"weapon": "espada"},
            "targets": ["espanol"],
        },
        [3],
    )
    card = ok(ack)
    assert card["locale"] == "en" and card["outcome"]["label"] == "Hits: 1"
    assert "Attack roll: 1d10 3 +0 = 3 against 3: Success" in lines(card)
    wound = await table.call(
        reader,
        "damage_apply",
        {"actor": "espanol", "action": "wound", "params": {"location": "cabeza", "level": 1}},
    )
    assert wound["tokens"][0]["labels"] == {"wounded": "Wounded"}


async def test_browser_scenario_reaches_a_status(tmp_path: Path, aiohttp_server: Any) -> None:
    async for env in make_env(tmp_path, aiohttp_server, "brp_d10"):
        gm = await env.join()
        plan = scenario.load("brp_d10")
        rounds = await scenario.play(gm, plan)
        assert 1 <= rounds <= plan["max_rounds"]
        # at short range the first bullet of a burst hits on 8 of 10: a few loops at most
        assert rounds <= 4, rounds


async def test_an_incapacitated_arm_drops_its_weapon(table: Table) -> None:
    # 'un brazo dejaría caer lo que llevase'
    card = ok(await table.act("agente", "wound", {"location": "brazo_derecho", "level": 3}))
    assert "Se le cae: Subfusil táctico, Cuchillo de combate" in lines(card)
    assert table.state("agente")["dropped"] == ["subfusil", "cuchillo"]
    assert [b["params"] for b in table.actors["agente"]["buttons"] if b["action"] == "pick_up"] == [
        {"weapon": "subfusil"},
        {"weapon": "cuchillo"},
    ]
    refused(
        await table.act("agente", "attack", {"weapon": "subfusil"}, ["delincuente"]),
        "weapon_dropped",
    )
    refused(await table.act("agente", "pick_up", {"weapon": "subfusil"}), "hand_useless")
    picked = ok(await table.act("agente", "pick_up", {"weapon": "cuchillo"}))
    assert "Recoge Cuchillo de combate" in lines(picked)
    assert table.state("agente")["dropped"] == ["subfusil"]


async def test_world_tables_and_settings_reach_the_cards(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    settings = {"hit_locations": ",".join(["abdomen"] * 10), "wound_step": "half_resistencia"}
    async for env in make_env(tmp_path, aiohttp_server, "brp_d10", settings=settings):
        gm = await env.join()
        assert gm.welcome is not None
        assert gm.welcome["world"]["settings"]["hit_locations"].startswith("abdomen,")
        board = Table(env, gm, {a["id"]: a for a in gm.welcome["actors"]})
        shot = ok(
            await board.act("guardaespaldas", "attack", {"weapon": "pistola"}, ["frances"], [2])
        )
        # location die 1 reads the world's table; 1d8 = 6 is two steps of 3 (half Resistencia 5)
        ack = await board.press(shot, "damage", [1, 6])
        card = ok(ack)
        assert "Localización: abdomen" in lines(card) and card["outcome"]["key"] == "wound_3"
        assert {"bleeding", "incapacitated", "prone"} <= set(ack["tokens"][0]["added"])
