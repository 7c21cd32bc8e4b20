"""cunchillos through the real server: the seed's rules with scripted dice, over Socket.IO.

Dice order of an attack: the dE first ("indicado ANTES"), then the two action
dice, then (if any) the defender's two dice, then the fumble die.
Sample actors: Inés (Espada 16, Esquivar 12, Pelea 10, Fue 10, Coo 6, Res 6,
PV 30, Init 16/8), Bruno (Pelea 15, Pistola 13 in the left hand, porra of blows
in the right, Fue 14, Res 7, PV 36, Init 12/10), Matón (Hacha 12 with Fue 13
needed, Pelea 11, Esquivar 5, Fue 12, Res 5, PV 24, Umbral Mortal 6, Init 10/5).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from support import scenario
from support.live import Client, Env, give, make_env, rid

SYSTEM = "cunchillos"


@pytest.fixture
async def env(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, SYSTEM):
        yield value


async def send(
    env: Env,
    client: Client,
    event: str,
    actor: str | None,
    action: str,
    faces: tuple[int, ...] = (),
    targets: tuple[str, ...] = (),
    **params: Any,
) -> dict[str, Any]:
    """One request with its own scripted dice (none: seeded dice, unused by dice-less acts)."""
    client.drain()
    if faces:
        env.dice.script(*faces)
    payload: dict[str, Any] = {
        "id": rid(),
        "actor": actor,
        "action": action,
        "params": params,
        "targets": list(targets),
    }
    return await client.call(event, payload)


async def press(
    env: Env, client: Client, card: dict[str, Any], follow: str, *faces: int, **ask: Any
) -> dict[str, Any]:
    client.drain()
    if faces:
        env.dice.script(*faces)
    payload = {"id": rid(), "card": card["card_id"], "action": follow, "params": ask}
    return await client.call("card_action", payload)


async def advance(client: Client, unit: str, count: int = 1) -> dict[str, Any]:
    client.drain()
    ack = await client.call("time_advance", {"id": rid(), "unit": unit, "count": count})
    assert ack["ok"], ack
    return ack


async def attack(
    env: Env, client: Client, actor: str, target: str, *faces: int, **params: Any
) -> dict[str, Any]:
    return await send(env, client, "attack", actor, "attack", faces, (target,), **params)


async def declare(env: Env, client: Client, actor: str, **params: Any) -> dict[str, Any]:
    ack = await send(env, client, "roll", actor, "declare", **params)
    assert ack["ok"], ack
    return ack


async def apply(
    env: Env, client: Client, target: str, amount: int, location: str, **params: Any
) -> dict[str, Any]:
    ack = await send(
        env,
        client,
        "damage_apply",
        None,
        "damage_apply",
        (),
        (target,),
        amount=amount,
        location=location,
        **params,
    )
    assert ack["ok"], ack
    return ack


def lines(ack: dict[str, Any], index: int = 0) -> list[str]:
    return [line for s in ack["cards"][index]["sections"] for line in s["lines"]]


def token(ack: dict[str, Any], actor: str) -> dict[str, Any]:
    return next(t for t in ack["tokens"] if t["actor"] == actor)


async def actor_pushed(client: Client, actor: str) -> dict[str, Any]:
    """The next actor_update push for ``actor`` (the queue was drained before the request)."""
    while True:
        body = await client.next_push("actor_update")
        if body["actor"] is not None and body["actor"]["id"] == actor:
            return body["actor"]  # type: ignore[no-any-return]


def follow_ids(ack: dict[str, Any], index: int = 0) -> list[str]:
    return [f["id"] for f in ack["cards"][index]["actions"]]


def refused(ack: dict[str, Any], code: str) -> None:
    assert not ack["ok"] and ack["error"]["code"] == code, ack
    assert ack["error"]["message"]


# -- the attack, the damage follow-up and the statuses -----------------------------------


async def test_a_hit_its_damage_follow_up_and_the_token_status(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    await give(gm, "ines", "ana", gm.welcome)
    await give(gm, "maton", "max", gm.welcome)
    ana = await env.join("player", "ana")
    maxi = await env.join("player", "max")
    # dE 4 (pecho), dice 3 and 5; Matón's Esquivar 5 gives the unconscious dodge -5.
    ack = await attack(env, ana, "ines", "maton", 4, 3, 5)
    assert ack["ok"], ack
    card = ack["cards"][0]
    assert card["title"] == "Inés ataca a Matón" and card["target"] == "maton"
    assert [(d["role"], d["faces"]) for d in card["dice"]] == [
        ("action", [3]),
        ("action", [5]),
        ("location", [4]),
    ]
    assert card["outcome"] == {"key": "success", "label": "Éxito", "success": True, "margin": 13}
    assert lines(ack) == [
        "Inés ataca a Matón con Espada",
        "Acción 1, en Iniciativa 16",
        "Inés: TA de Espada contra 16",
        "Dados 3 y 5 (d+ 5, d- 3)",
        "Dado Exo (dE): 4",
        "Esquiva inconsciente (nivel 5): -5",
        "Total 3 contra 16 (margen 13)",
        "Inés: Éxito",
        "Acierta en Pecho (4)",
    ]
    (button,) = card["actions"]
    assert (button["id"], button["label"], button["allowed"], button["ask"]) == (
        "damage",
        "Daño a Matón",
        "owner",
        [],
    )
    # Only the attacker's owner (or the GM) rolls the damage.
    refused(await press(env, maxi, card, "damage"), "not_allowed")
    # Type II: d+ + d- = 8 on the chest against Res 5: a light wound (Res <= 8 < 2 Res).
    damage = await press(env, ana, card, "damage")
    assert damage["ok"], damage
    assert lines(damage) == [
        "Pecho: 8 puntos, HERIDA LEVE",
        "Matón: penalizador a las TA físicas",
        "PV de Matón: 16 de 24",
        "Matón ha recibido más daño: retrocede 2 m",
    ]
    status = token(damage, "maton")
    assert status["statuses"] == ["bleeding", "wounded"] and status["added"] == [
        "bleeding",
        "wounded",
    ]
    assert status["labels"] == {"bleeding": "Desangrándose", "wounded": "Herido"}
    assert status["numbers"] == {"pv": 16, "heridas": 1}
    pushed = await gm.next_push("token_status")
    assert pushed["actor"] == "maton" and pushed["statuses"] == ["bleeding", "wounded"]
    maton = await actor_pushed(ana, "maton")
    assert maton["state"]["pv"] == 16 and maton["state"]["round_damage"] == 8
    assert maton["state"]["heridas"] == [
        {"loc": "pecho", "damage": 8, "severity": "light", "bleeds": True, "age": 0}
    ]
    refused(await press(env, ana, card, "damage"), "follow_up_used")
    # The forced retreat: only the GM says it could not fall back.
    blocked = damage["cards"][0]
    assert follow_ids(damage) == ["blocked"]
    refused(await press(env, maxi, blocked, "blocked"), "not_allowed")
    ack = await press(env, gm, blocked, "blocked")
    assert lines(ack) == ["Matón tendrá -5 a su TA de esquivar el próximo asalto"]
    assert (await actor_pushed(gm, "maton"))["state"]["dodge_penalty"] == "pending"


async def test_a_player_acts_only_for_their_own_actor(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    await give(gm, "ines", "ana", gm.welcome)
    ana = await env.join("player", "ana")
    refused(await attack(env, ana, "maton", "ines", 4, 3, 5), "not_your_actor")
    refused(await send(env, ana, "roll", "bruno", "declare", actions=2), "not_your_actor")
    refused(await send(env, ana, "gm_action", None, "initiative"), "gm_only")
    refused(
        await send(
            env,
            ana,
            "damage_apply",
            "ines",
            "damage_apply",
            (),
            ("maton",),
            amount=5,
            location="pecho",
        ),
        "gm_only",
    )
    refused(await send(env, ana, "heal", "ines", "heal", (), ("ines",), amount=5), "gm_only")
    refused(await send(env, ana, "roll", "ines", "attack", (), ("maton",)), "wrong_event")
    assert (await attack(env, ana, "ines", "maton", 4, 3, 5))["ok"]


# -- order of the round --------------------------------------------------------------------


async def test_initiative_by_primary_then_secondary_and_declarations_lowest_first(
    env: Env,
) -> None:
    gm = await env.join()
    ack = await send(env, gm, "gm_action", None, "initiative")
    assert ack["ok"], ack
    assert ack["cards"][0]["title"] == "Asalto 1: orden de iniciativa"
    assert lines(ack) == [
        "1. Inés: Iniciativa 16 (8)",
        "2. Bruno: Iniciativa 12 (10)",
        "3. Matón: Iniciativa 10 (5)",
        "Declaran (de menor a mayor): Matón, Bruno, Inés",
        "Iniciativa 16: Inés, acción 1",
        "Iniciativa 12: Bruno, acción 1",
        "Iniciativa 10: Matón, acción 1",
    ]


async def test_a_tie_on_the_primary_is_broken_by_the_secondary(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM):
        gm = await env.join()
        assert gm.welcome is not None
        maton = next(a for a in gm.welcome["actors"] if a["id"] == "maton")
        sheet = {**maton["sheet"], "iniciativa": {"primaria": 12, "secundaria": 11}}
        ack = await gm.call(
            "actor_upsert",
            {"id": rid(), "actor": {"id": "maton", "name": "Matón", "sheet": sheet}},
        )
        assert ack["ok"], ack
        ack = await send(env, gm, "gm_action", None, "initiative", (), ("bruno", "maton"))
        assert lines(ack)[:2] == ["1. Matón: Iniciativa 12 (11)", "2. Bruno: Iniciativa 12 (10)"]


async def test_more_actions_cost_five_minus_coo_and_step_down_initiative(env: Env) -> None:
    gm = await env.join()
    ack = await declare(env, gm, "ines", actions=2)
    assert lines(ack) == ["Inés: 2 acciones, andar (1/2 movimiento), esquiva inconsciente"]
    first = await attack(env, gm, "ines", "maton", 4, 3, 5)
    # '(+5/acción)-Coo Pj, (mínimo +1)': 5 - 6 -> +1.
    assert "Más de una acción (2): +1" in lines(first)
    assert "Acción 1, en Iniciativa 16" in lines(first)
    second = await attack(env, gm, "ines", "maton", 4, 3, 5)
    assert "Acción 2, en Iniciativa 11" in lines(second)
    refused(await attack(env, gm, "ines", "maton", 4, 3, 5), "no_actions_left")
    # Changing the declaration after a TA is too late.
    refused(await send(env, gm, "roll", "ines", "declare", actions=3), "already_acted")
    # Three actions for Matón (Coo 3): 5*2 - 3 = +7.
    await declare(env, gm, "maton", actions=3)
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert "Más de una acción (3): +7" in lines(ack)


async def test_raising_initiative_and_changing_the_declaration(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "ines", actions=1)
    ack = await declare(env, gm, "ines", actions=1, **{"raise": "5"})
    assert lines(ack)[1:] == [
        "Mejora la Iniciativa en 5",
        "Cambia de acción: +5 a todas las TA y -5 a la Iniciativa",
    ]
    order = await send(env, gm, "gm_action", None, "initiative")
    # 16 + 5 raised - 5 changed.
    assert lines(order)[:3] == [
        "1. Inés: Iniciativa 16 (8)",
        "Mejorar la Iniciativa: +5",
        "Cambiar de acción: -5",
    ]
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5)
    assert {"Mejorar la Iniciativa: +5", "Cambiar de acción: +5"} <= set(lines(ack))
    assert "Total 13 contra 16 (margen 3)" in lines(ack)


async def test_declaration_refusals_and_movement(env: Env) -> None:
    gm = await env.join()
    refused(
        await send(env, gm, "roll", "ines", "declare", movement="sprint", actions=1),
        "sprint_no_actions",
    )
    refused(
        await send(env, gm, "roll", "ines", "declare", actions=1, two_weapons=True),
        "two_weapons_two_actions",
    )
    refused(
        await send(env, gm, "roll", "ines", "declare", actions=1, movement="fast", defence="dodge"),
        "not_enough_actions",
    )
    refused(await send(env, gm, "roll", "ines", "declare", actions=0), "invalid_actions")
    refused(await send(env, gm, "roll", "ines", "declare", actions=11), "invalid_param")
    # 'Movimiento veloz: no se pueden hacer más acciones'.
    await declare(env, gm, "ines", movement="sprint", actions=0)
    refused(await attack(env, gm, "ines", "maton", 4, 3, 5), "sprinting")
    # 'Mover hasta movimiento rápido: cuenta como 1 acción'.
    await declare(env, gm, "bruno", movement="fast", actions=1)
    refused(await attack(env, gm, "bruno", "maton", 4, 3, 5), "no_actions_left")


async def test_drawing_and_standing_count_as_actions(env: Env) -> None:
    gm = await env.join()
    ack = await send(env, gm, "roll", "ines", "act", what="draw", weapon="daga", hand="izquierda")
    assert lines(ack) == ["Inés desenvaina", "Daga en la mano izquierda"]
    assert (await actor_pushed(gm, "ines"))["state"]["hands"] == {
        "derecha": "espada",
        "izquierda": "daga",
    }
    refused(await attack(env, gm, "ines", "maton", 4, 3, 5), "no_actions_left")
    refused(await send(env, gm, "roll", "bruno", "act", what="stand"), "not_prone")
    refused(
        await send(env, gm, "roll", "bruno", "act", what="draw", weapon="rifle"), "no_such_weapon"
    )


# -- modifiers ---------------------------------------------------------------------------


async def test_two_weapons_strike_at_the_first_step_and_the_off_hand_pays(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "bruno", actions=2, two_weapons=True)
    porra = await attack(env, gm, "bruno", "maton", 4, 1, 2)
    pistol = await attack(env, gm, "bruno", "maton", 4, 1, 2, hand="izquierda")
    assert "Acción 1, en Iniciativa 12" in lines(porra)
    assert "Acción 2, en Iniciativa 12" in lines(pistol)
    # 'Mano Torpe: +5 TA con esa mano' and 'Pistolas en C/C ... +10 a la TA'.
    assert {"Mano torpe: +5", "Pistola en C/C: +10"} <= set(lines(pistol))
    assert "Mano torpe: +5" not in lines(porra)
    assert lines(pistol)[0] == "Bruno ataca a Matón con Pistola"


async def test_strength_below_the_weapons_minimum(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "maton", "bruno", 4, 1, 2)
    assert "Fue menor que la mínima (13): +1" in lines(ack)


async def test_more_than_one_attacker_and_the_maximum(tmp_path: Path, aiohttp_server: Any) -> None:
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM):
        gm = await env.join()
        first = await attack(env, gm, "ines", "maton", 4, 1, 2)
        second = await attack(env, gm, "bruno", "maton", 4, 1, 2)
        assert "Más de un atacante: -5" not in lines(first)
        assert "Más de un atacante: -5" in lines(second)
    async for env in make_env(
        tmp_path / "one", aiohttp_server, SYSTEM, settings={"max_attackers": 1}
    ):
        gm = await env.join()
        assert (await attack(env, gm, "ines", "maton", 4, 1, 2))["ok"]
        refused(await attack(env, gm, "bruno", "maton", 4, 1, 2), "too_many_attackers")
        # A shot from range does not engage.
        ack = await attack(env, gm, "bruno", "maton", 4, 1, 2, hand="izquierda", range="ranged")
        assert ack["ok"] and "Pistola en C/C: +10" not in lines(ack)


async def test_only_a_pistol_shoots_from_range(env: Env) -> None:
    gm = await env.join()
    refused(await attack(env, gm, "ines", "maton", 4, 3, 5, range="ranged"), "not_a_firearm")
    ack = await attack(env, gm, "bruno", "maton", 4, 2, 3, hand="izquierda", range="ranged")
    assert ack["ok"] and "Pistola en C/C: +10" not in lines(ack)
    # Type III: 2 x (d+ + d-) = 10 >= 2 Res 5: a serious chest wound.
    damage = await press(env, gm, ack["cards"][0], "damage")
    assert lines(damage)[0] == "Pecho: 10 puntos, HERIDA GRAVE"


async def test_height_visibility_and_the_gm_modifier(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5, height="higher", visibility=5, modifier=2)
    assert {"Altura: más alto: -5", "Visibilidad: +5", "Modificador del Director: +2"} <= set(
        lines(ack)
    )
    ack = await attack(env, gm, "bruno", "maton", 4, 3, 5, height="lower")
    assert "Altura: más bajo: +5" in lines(ack)
    # Height never touches a plain TA (nor a dodge or a parry).
    ack = await send(env, gm, "roll", "ines", "ta", (3, 4), skill="esquivar", height="higher")
    refused(ack, "invalid_param")


async def test_a_failed_ambush_costs_five_initiative_in_the_first_round(env: Env) -> None:
    gm = await env.join()
    ack = await send(env, gm, "roll", "ines", "ambush", (7, 8))
    assert ack["cards"][0]["title"] == "Emboscada: TA Alerta de Inés"
    assert ack["cards"][0]["outcome"]["key"] == "failure"
    assert lines(ack)[-1] == "Inés falla: -5 a la Iniciativa en el primer turno"
    order = await send(env, gm, "gm_action", None, "initiative")
    assert lines(order)[:3] == [
        "1. Bruno: Iniciativa 12 (10)",
        "2. Inés: Iniciativa 11 (8)",
        "Emboscada: -5",
    ]


# -- defences ----------------------------------------------------------------------------


async def test_the_unconscious_dodge_follows_the_defenders_level(env: Env) -> None:
    gm = await env.join()
    # Inés' Esquivar 12 (11-20): 0; Bruno's 8 (1-10): -5.
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert "Esquiva inconsciente (nivel 12): +0" not in lines(ack)
    assert not any(line.startswith("Esquiva inconsciente") for line in lines(ack))
    ack = await attack(env, gm, "ines", "bruno", 4, 1, 2)
    assert "Esquiva inconsciente (nivel 8): -5" in lines(ack)


async def test_a_conscious_dodge_is_an_opposed_ta(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "maton", actions=1, defence="dodge")
    # The dodge took Matón's only action.
    refused(await attack(env, gm, "maton", "ines", 4, 1, 2), "no_actions_left")
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5, 1, 1)
    card = ack["cards"][0]
    assert [d["role"] for d in card["dice"]] == [
        "action",
        "action",
        "location",
        "defence",
        "defence",
    ]
    assert "Matón esquiva conscientemente (TA enfrentada)" in lines(ack)
    assert "Matón gana y evita el daño" in lines(ack)
    assert card["outcome"]["success"] is False and card["actions"] == []


async def test_a_parry_weighs_weapons_and_strength(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "maton", actions=1, defence="parry")
    # Espada (parada 3) against Hacha (parada 2): -1 to Inés; Matón's Fue 12 < 13: +1 to him.
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5, 1, 1)
    assert "Capacidad de parada: -1" in lines(ack)
    assert "Matón para (TA enfrentada)" in lines(ack)
    assert "Fue menor que la mínima (13): +1" in lines(ack)
    assert "Matón gana y evita el daño" in lines(ack)
    # Fue 12 against 10: 1 point to Inés' sword arm, 1 to her sword.
    assert "Fue: Inés recibe 1 en el brazo del arma y Espada 1" in lines(ack)
    ines = await actor_pushed(gm, "ines")
    assert ines["state"]["weapon_damage"] == {"espada": 1} and ines["state"]["pv"] == 29


async def test_an_unarmed_parry_against_a_weapon(env: Env) -> None:
    gm = await env.join()
    sheet = {
        "caracteristicas": {"fue": 10, "coo": 5, "res": 6},
        "pv": 30,
        "iniciativa": {"primaria": 5, "secundaria": 5},
        "habilidades": {"pelea": {"label": "Pelea", "value": 12}},
    }
    ack = await gm.call(
        "actor_upsert", {"id": rid(), "actor": {"id": "peon", "name": "Peón", "sheet": sheet}}
    )
    assert ack["ok"], ack
    await declare(env, gm, "peon", actions=1, defence="parry")
    # 'Si defensor sin arma y atacante con arma: +10 TA defensor'; parada 0 - 3 to Inés.
    ack = await attack(env, gm, "ines", "peon", 4, 3, 5, 1, 2)
    assert "Capacidad de parada: -3" in lines(ack)
    assert "Parada sin arma contra arma: +10" in lines(ack)
    assert "Peón no consigue evitar el golpe" in lines(ack)


async def test_withdrawing_strikes_at_plus_five_and_moves_off_on_a_miss(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "maton", actions=1, withdraw=True)
    miss = await attack(env, gm, "ines", "maton", 4, 9, 8, modifier=10)
    assert miss["cards"][0]["outcome"]["success"] is False
    assert lines(miss)[-1] == "Matón se retira 5 m (1/2 de su movimiento)"
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert "Retirándose del combate: +5" in lines(ack)


# -- results -----------------------------------------------------------------------------


async def test_a_critical_asks_max_or_a_location(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "ines", "maton", 4, 5, 5)
    card = ack["cards"][0]
    assert (
        card["outcome"]["key"] == "critical" and card["outcome"]["label"] == "Éxito alto (crítico)"
    )
    (button,) = card["actions"]
    assert [a["name"] for a in button["ask"]] == ["crit_choice", "location"]
    refused(await press(env, gm, card, "damage", crit_choice="location"), "location_needed")
    # Normal damage (5 + 5) at the chosen head: 10 >= 2 Res, a serious head wound.
    damage = await press(env, gm, card, "damage", crit_choice="location", location=1)
    assert lines(damage)[:2] == [
        "Cabeza: 10 puntos, HERIDA GRAVE",
        "Matón: inconsciente tantas horas como daño recibido",
    ]
    assert token(damage, "maton")["statuses"] == ["bleeding", "unconscious", "wounded"]


async def test_a_critical_at_its_maximum(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "ines", "bruno", 4, 4, 4)
    damage = await press(env, gm, ack["cards"][0], "damage")
    # Type II's most, both dice at 10, at the chest: 20 >= 2 Res 7.
    assert lines(damage)[0] == "Pecho: 20 puntos, HERIDA GRAVE"
    assert token(damage, "bruno")["numbers"]["pv"] == 16


async def test_an_aimed_blow_at_the_hand_makes_it_drop(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "ines", "maton", 9, 3, 4, aim="brazo_derecho")
    assert "Golpe dirigido: +10" in lines(ack)
    assert lines(ack)[-1] == "Acierta en Brazo derecho (2)"
    damage = await press(env, gm, ack["cards"][0], "damage")
    assert "Matón suelta lo que lleva en la mano" in lines(damage)
    maton = await actor_pushed(gm, "maton")
    assert maton["state"]["hands"]["derecha"] is None
    # Empty-handed, Matón fights with his fists (Pelea, damage 0).
    await advance(gm, "round")
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert lines(ack)[0] == "Matón ataca a Inés con Sin armas"


async def test_a_fumble_breaks_drops_or_hurts(env: Env) -> None:
    gm = await env.join()
    # Hacha 12 + 1 (Fue): 6 + 6 + 1 = 13 with doubles: a fumble; fumble die 2: broken.
    ack = await attack(env, gm, "maton", "ines", 4, 6, 6, 2)
    card = ack["cards"][0]
    assert card["outcome"]["key"] == "fumble" and card["dice"][-1]["role"] == "fumble"
    assert lines(ack)[-1] == "Pifia (2): ¡Hacha se rompe!"
    state = (await actor_pushed(gm, "maton"))["state"]
    assert state["broken"] == ["hacha"] and state["hands"]["derecha"] is None
    await advance(gm, "round")
    refused(
        await send(env, gm, "roll", "maton", "act", what="draw", weapon="hacha"), "weapon_broken"
    )
    # Fumble die 5: a fall.
    await advance(gm, "round")
    ack = await attack(env, gm, "ines", "maton", 4, 9, 9, 5, modifier=10)
    assert lines(ack)[-1] == "Pifia (5): Inés cae al suelo"
    assert token(ack, "ines")["added"] == ["prone"]
    await advance(gm, "round")
    ack = await send(env, gm, "roll", "ines", "act", what="stand")
    assert token(ack, "ines")["removed"] == ["prone"]
    # Fumble die 8: self-inflicted damage, a GM button.
    await advance(gm, "round")
    ack = await attack(env, gm, "ines", "maton", 4, 9, 9, 8, modifier=10)
    assert follow_ids(ack) == ["self_damage"]
    assert ack["cards"][0]["actions"][0]["allowed"] == "gm"
    damage = await press(env, gm, ack["cards"][0], "self_damage")
    assert damage["cards"][0]["target"] == "ines"
    assert lines(damage)[0] == "Pecho: 18 puntos, HERIDA GRAVE"


async def test_a_pistol_fumbled_in_melee_hits_a_companion(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    await give(gm, "bruno", "beto", gm.welcome)
    beto = await env.join("player", "beto")
    # Pistola 13, off hand +5, in melee +10: 3 + 3 + 15 = 21, doubles: fumble; die 5: falls.
    ack = await attack(env, beto, "bruno", "ines", 4, 3, 3, 5, hand="izquierda")
    assert "La pistola pifiada en C/C hiere a un compañero cercano" in lines(ack)
    card = ack["cards"][0]
    (button,) = card["actions"]
    assert button["id"] == "companion" and button["allowed"] == "gm"
    assert [(a["name"], a["required"]) for a in button["ask"]] == [("victim", True)]
    refused(await press(env, beto, card, "companion", victim="maton"), "not_allowed")
    refused(await press(env, gm, card, "companion"), "invalid_param")
    damage = await press(env, gm, card, "companion", victim="maton")
    # Type III: 2 x (3 + 3) = 12 on the chest of Matón.
    assert damage["cards"][0]["target"] == "maton"
    assert lines(damage)[0] == "Pecho: 12 puntos, HERIDA GRAVE"


async def test_every_damage_type_spreads_as_the_text_says(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    types = ("0", "I", "II", "III", "IV", "V")
    sheet = {
        "caracteristicas": {"fue": 20, "coo": 10, "res": 50},
        "pv": 900,
        "umbral_mortal": 10,
        "iniciativa": {"primaria": 20, "secundaria": 1},
        "habilidades": {"arma": {"label": "Arma", "value": 30}, "esquivar": {"value": 12}},
        "armas": {
            f"t{k.lower()}": {"label": f"Tipo {k}", "skill": "arma", "damage": k} for k in types
        },
    }
    expected = {
        "0": ["Pecho: 3 puntos"],
        "I": ["Pecho: 5 puntos"],
        "II": ["Pecho: 8 puntos"],
        "III": ["Pecho: 16 puntos"],
        # d- = 3 locations from the dE 4 (pecho), one up (3, brazo izquierdo), one down (5).
        "IV": ["Pecho: 8 puntos", "Brazo izquierdo: 5 puntos", "Pecho: 5 puntos"],
        # The dE, d+ and d- faces: 4 pecho, 5 pecho, 3 brazo izquierdo.
        "V": ["Pecho: 8 puntos", "Pecho: 8 puntos", "Brazo izquierdo: 8 puntos"],
    }
    for actor_id in ("dummy", *(f"probe_{k.lower()}" for k in types)):
        kind = actor_id.removeprefix("probe_").upper() if actor_id != "dummy" else "0"
        upsert = {
            "id": rid(),
            "actor": {
                "id": actor_id,
                "name": actor_id.title(),
                "sheet": {**sheet, "en_mano": {"derecha": f"t{kind.lower()}"}},
            },
        }
        done = await gm.call("actor_upsert", upsert)
        assert done["ok"], done
    for kind in types:
        await advance(gm, "round")
        ack = await attack(env, gm, f"probe_{kind.lower()}", "dummy", 4, 3, 5)
        assert ack["ok"], ack
        damage = await press(env, gm, ack["cards"][0], "damage")
        got = [line.split(",")[0] for line in lines(damage) if "puntos" in line]
        assert got == expected[kind], kind
        assert all("herida sin importancia" in line for line in lines(damage) if "puntos" in line)


# -- wounds, hit points, time ------------------------------------------------------------


async def test_wound_effects_by_location(env: Env) -> None:
    gm = await env.join()
    # Head, light (Res 5 <= 6 < 10): 2 rounds stunned, -5 initiative and +5 TA.
    ack = await apply(env, gm, "maton", 6, "cabeza")
    assert "Matón: 2 asaltos aturdido (-5 Iniciativa, +5 TA)" in lines(ack)
    assert "stunned" in token(ack, "maton")["added"]
    assert token(ack, "maton")["labels"]["stunned"] == "Aturdido"
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert "Aturdido: +5" in lines(ack)
    ack = await advance(gm, "round", 2)
    assert "stunned" in token(ack, "maton")["removed"]
    # Right arm, serious: useless, drops the axe; attacks with it are refused.
    ack = await apply(env, gm, "maton", 10, "brazo_derecho")
    assert {"Matón: miembro inútil", "Matón suelta lo que lleva en la mano"} <= set(lines(ack))
    refused(await attack(env, gm, "maton", "ines", 4, 1, 2), "arm_useless")
    # Left leg, light: impaired (+5 physical).
    ack = await apply(env, gm, "bruno", 7, "pierna_izquierda")
    assert "impaired" in token(ack, "bruno")["added"]
    assert token(ack, "bruno")["labels"]["impaired"] == "Impedido"
    ack = await attack(env, gm, "bruno", "ines", 4, 1, 2)
    assert "Heridas (TA físicas): +5" in lines(ack)
    # Abdomen, serious: incapacitated, no physical acts; mental TA at +10.
    ack = await apply(env, gm, "ines", 12, "abdomen")
    assert "incapacitated" in token(ack, "ines")["added"]
    refused(await attack(env, gm, "ines", "bruno", 4, 1, 2), "actor_incapacitated")
    ack = await send(env, gm, "roll", "ines", "ta", (1, 2), skill="alerta")
    assert "Incapacitado (TA mentales): +10" in lines(ack)


async def test_amputation_is_optional(tmp_path: Path, aiohttp_server: Any) -> None:
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM, settings={"amputation": True}):
        gm = await env.join()
        ack = await apply(env, gm, "maton", 16, "brazo_izquierdo")
        assert lines(ack)[0] == "Brazo izquierdo: 16 puntos, AMPUTACIÓN"
        assert "Matón: miembro u órgano cercenado; necesita cirugía" in lines(ack)


async def test_bleeding_runs_with_time(env: Env) -> None:
    gm = await env.join()
    await apply(env, gm, "maton", 5, "pecho")  # light: -1 a minute
    await apply(env, gm, "bruno", 14, "pecho")  # serious: -1 every 5 rounds
    ack = await advance(gm, "round", 4)
    assert ack["cards"][0]["visibility"] == "gm" and lines(ack) == []
    ack = await advance(gm, "round")
    assert lines(ack) == ["Bruno se desangra: 21 PV"]
    ack = await advance(gm, "minute")
    assert ack["cards"][0]["title"] == "Pasan 1 minutos"
    assert lines(ack) == ["Bruno se desangra: 19 PV", "Matón se desangra: 18 PV"]
    assert token(ack, "bruno")["numbers"]["pv"] == 19
    # Treatment stops it; an hour then changes nothing.
    heal = await send(env, gm, "heal", None, "heal", (), ("maton",), stop_bleeding=True)
    assert "Se detiene la hemorragia de Matón" in lines(heal)
    assert token(heal, "maton")["removed"] == ["bleeding"]
    ack = await advance(gm, "hour")
    assert "Matón se desangra" not in " ".join(lines(ack))
    # Bruno's serious wound bleeds on: 19 PV, 0 at 95 rounds, then -1 a round to -12.
    assert lines(ack) == ["Bruno se desangra: -13 PV", "Bruno muere"]
    assert token(ack, "bruno")["statuses"] == ["dead"]
    ack = await advance(gm, "day")
    assert ack["tokens"] == [] and lines(ack) == []


async def test_a_serious_head_wound_knocks_out_for_hours(env: Env) -> None:
    gm = await env.join()
    ack = await apply(env, gm, "bruno", 14, "cabeza")
    assert "unconscious" in token(ack, "bruno")["added"]
    await send(env, gm, "heal", None, "heal", (), ("bruno",), stop_bleeding=True)
    refused(await attack(env, gm, "bruno", "ines", 4, 1, 2), "actor_unconscious")
    ack = await advance(gm, "hour", 13)
    assert "unconscious" not in ack["tokens"][0]["removed"] if ack["tokens"] else True
    ack = await advance(gm, "hour", 1)
    assert token(ack, "bruno")["removed"] == ["unconscious"]


async def test_zero_hit_points_bleed_a_point_a_round_until_the_mortal_threshold(
    env: Env,
) -> None:
    gm = await env.join()
    # 26 points: PV -2; the limit is Umbral Mortal 6 + the wound's d- 3 = 9.
    ack = await apply(env, gm, "maton", 26, "pecho", low=3)
    assert lines(ack)[-3:] == [
        "PV de Matón: -2 de 24",
        "Umbral Mortal + d-: muere por debajo de -9 PV",
        "Matón llega a 0 PV: inconsciente y pierde 1 PV por asalto",
    ]
    assert token(ack, "maton")["statuses"] == ["bleeding", "unconscious", "wounded"]
    # '-1 punto/asalto' replaces the wound's own loss: alive at exactly -9.
    ack = await advance(gm, "round", 7)
    assert (
        token(ack, "maton")["numbers"]["pv"] == -9 and "dead" not in token(ack, "maton")["statuses"]
    )
    ack = await advance(gm, "round")
    assert token(ack, "maton")["statuses"] == ["dead"]
    assert lines(ack) == ["Matón se desangra: -10 PV", "Matón muere"]
    refused(await attack(env, gm, "ines", "maton", 4, 1, 2), "target_dead")


async def test_blows_knock_out_and_the_excess_becomes_wound_points(env: Env) -> None:
    gm = await env.join()
    # Bruno's porra (golpe, type I): d+ 5 on the chest as blow points, no wound.
    ack = await attack(env, gm, "bruno", "maton", 4, 3, 5)
    damage = await press(env, gm, ack["cards"][0], "damage")
    assert lines(damage)[0] == "Pecho: 5 puntos, puntos de golpe"
    assert damage["tokens"] == [] or token(damage, "maton")["statuses"] == []
    ack = await apply(env, gm, "maton", 22, "pecho", blunt=True, low=2)
    assert "Matón cae inconsciente a base de puntos de golpe" in lines(ack)
    state = (await actor_pushed(gm, "maton"))["state"]
    assert (state["pv"], state["golpes"], state["heridas"]) == (-3, 24, [])
    assert token(ack, "maton")["statuses"] == ["bleeding", "unconscious"]


async def test_forced_retreat_blocked_costs_the_dodge_next_round(env: Env) -> None:
    gm = await env.join()
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5)
    damage = await press(env, gm, ack["cards"][0], "damage")
    await press(env, gm, damage["cards"][0], "blocked")
    await advance(gm, "round")
    await declare(env, gm, "maton", actions=1, defence="dodge")
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5, 1, 2)
    assert "No pudo retroceder: +5" in lines(ack)
    await advance(gm, "round")
    await declare(env, gm, "maton", actions=1, defence="dodge")
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5, 1, 2)
    assert "No pudo retroceder: +5" not in lines(ack)


# -- manoeuvres --------------------------------------------------------------------------


async def test_grapple_escape_and_surrender(env: Env) -> None:
    gm = await env.join()
    # A failed Apresar: the rival gets -5 on his next TA.
    miss = await send(env, gm, "attack", "ines", "manoeuvre", (6, 7), ("maton",), mode="grapple")
    assert lines(miss)[-1] == "Matón tendrá -5 en su próxima TA"
    ack = await attack(env, gm, "maton", "ines", 4, 1, 2)
    assert "Efecto de la maniobra anterior: -5" in lines(ack)
    refused(await send(env, gm, "roll", "maton", "escape"), "not_grappled")
    # Bruno's Pelea 15: 3 + 4 = 7, Matón is held.
    ack = await send(env, gm, "attack", "bruno", "manoeuvre", (3, 4), ("maton",), mode="grapple")
    assert lines(ack)[-1] == "Matón queda apresado e inmovilizado"
    assert token(ack, "maton")["added"] == ["grappled"]
    assert token(ack, "maton")["labels"] == {"grappled": "Agarrado"}
    # Escapes: opposed Fue (Matón 12 against Bruno 14): +0, then +5, then +10.
    for losses, step in ((0, None), (1, "+5"), (2, "+10")):
        ack = await send(env, gm, "roll", "maton", "escape", (2, 3, 2, 3))
        text = lines(ack)
        if step:
            assert f"Liberarse de un apresamiento (intentos fallidos: {losses}): {step}" in text
        assert [d["role"] for d in ack["cards"][0]["dice"]] == [
            "action",
            "action",
            "holder",
            "holder",
        ]
    assert text[-1] == "Matón falla por tercera vez y se rinde agotado"
    assert "incapacitated" in token(ack, "maton")["added"]
    refused(await send(env, gm, "roll", "maton", "escape"), "surrendered")
    refused(await attack(env, gm, "maton", "ines", 4, 1, 2), "actor_incapacitated")
    refused(
        await send(env, gm, "attack", "ines", "manoeuvre", (), ("maton",), mode="release"),
        "not_holding",
    )
    ack = await send(env, gm, "attack", "bruno", "manoeuvre", (), ("maton",), mode="release")
    assert set(token(ack, "maton")["removed"]) == {"grappled", "incapacitated"}


async def test_a_won_escape_frees_the_fighter(env: Env) -> None:
    gm = await env.join()
    await send(env, gm, "attack", "bruno", "manoeuvre", (3, 4), ("maton",), mode="grapple")
    ack = await send(env, gm, "roll", "maton", "escape", (1, 2, 6, 7))
    assert lines(ack)[-1] == "Matón se suelta"
    assert token(ack, "maton")["removed"] == ["grappled"]


async def test_hold_a_location_escape_eases_and_knockdown_pays(env: Env) -> None:
    gm = await env.join()
    refused(
        await send(env, gm, "attack", "bruno", "manoeuvre", (1, 3), ("maton",), mode="hold"),
        "location_needed",
    )
    # Sujetar: Pelea 15 + 10: 1 + 3 + 10 = 14.
    ack = await send(
        env,
        gm,
        "attack",
        "bruno",
        "manoeuvre",
        (1, 3),
        ("maton",),
        mode="hold",
        location="pierna_derecha",
    )
    assert "Sujetar: +10" in lines(ack)
    assert lines(ack)[-1] == "Matón: Pierna derecha sujeta e inmovilizada"
    ack = await send(env, gm, "roll", "maton", "escape", (2, 3, 2, 3))
    assert lines(ack)[-1] == "Matón sigue cogido (1 intentos fallidos)"
    # The second try is easier: 6 + 7 - 5 = 8 (margin 4) still loses to Bruno's margin 9.
    ack = await send(env, gm, "roll", "maton", "escape", (6, 7, 2, 3))
    assert "Liberarse de una sujeción (intentos fallidos: 1): -5" in lines(ack)
    assert lines(ack)[-1] == "Matón sigue cogido (2 intentos fallidos)"
    # Derribar a held fighter: -5. Inés' Pelea 10: 2 + 3 - 5 = 0; Impacto II = 5 vs Res 5.
    ack = await send(
        env, gm, "attack", "ines", "manoeuvre", (4, 2, 3), ("maton",), mode="knockdown"
    )
    assert "Localización ya sujeta: -5" in lines(ack)
    assert lines(ack)[-2:] == [
        "Impacto 5 (tipo II) contra Res 5",
        "Matón: 3 asaltos aturdido y retrocede varios pasos",
    ]
    assert "stunned" in token(ack, "maton")["added"]


async def test_knockdown_bands(env: Env) -> None:
    gm = await env.join()
    # Impacto 1 + 3 = 4 < Res 5: 1 round stunned.
    ack = await send(
        env, gm, "attack", "bruno", "manoeuvre", (4, 1, 3), ("maton",), mode="knockdown"
    )
    assert lines(ack)[-1] == "Matón: 1 asalto aturdido (-5 Iniciativa, +5 TA)"
    assert token(ack, "maton")["added"] == ["stunned"]
    await advance(gm, "round")
    # Impacto 5 + 6 = 11 >= 2 Res: down and 5 rounds incapacitated.
    ack = await send(
        env, gm, "attack", "bruno", "manoeuvre", (4, 5, 6), ("maton",), mode="knockdown"
    )
    assert lines(ack)[-1] == "Matón cae al suelo: 5 asaltos Incapacitado"
    assert token(ack, "maton")["statuses"] == ["incapacitated", "prone"]
    assert token(ack, "maton")["labels"] == {"incapacitated": "Incapacitado", "prone": "Derribado"}
    refused(await send(env, gm, "roll", "maton", "act", what="stand"), "actor_incapacitated")
    ack = await advance(gm, "round", 5)
    assert token(ack, "maton")["removed"] == ["incapacitated"]
    ack = await send(env, gm, "roll", "maton", "act", what="stand")
    assert token(ack, "maton")["removed"] == ["prone"]


async def test_a_held_pistol_goes_off_on_a_fumble(env: Env) -> None:
    gm = await env.join()
    # Inés holds Bruno's left arm (the pistol hand): Pelea 10 + 10 - 10 (GM) : 2 + 3 + 0 = 5.
    ack = await send(
        env,
        gm,
        "attack",
        "ines",
        "manoeuvre",
        (2, 3),
        ("bruno",),
        mode="hold",
        location="brazo_izquierdo",
        modifier=-10,
    )
    assert ack["cards"][0]["outcome"]["success"], ack
    # Bruno's escape: dE 4, 8 + 8 = 16 > Fue 14 with doubles: he fumbles; Inés rolls 1 + 2.
    ack = await send(env, gm, "roll", "bruno", "escape", (4, 8, 8, 4, 1, 2))
    assert [c["title"] for c in ack["cards"]] == [
        "Bruno intenta liberarse de Inés",
        "La pistola se dispara contra Bruno",
    ]
    # Type III: 2 x (8 + 8) = 32 on Bruno's chest.
    assert lines(ack, 1)[0] == "Pecho: 32 puntos, HERIDA GRAVE"
    assert token(ack, "bruno")["numbers"]["pv"] == 4


# -- time, undo, the browser scenario ------------------------------------------------------


async def test_time_advance_units(env: Env) -> None:
    gm = await env.join()
    await apply(env, gm, "maton", 6, "cabeza")
    ack = await advance(gm, "round")
    assert ack["cards"][0]["title"] == "Pasan 1 asaltos" and ack["tokens"] == []
    ack = await advance(gm, "round")
    assert "stunned" in token(ack, "maton")["removed"]
    for unit, title in (
        ("minute", "Pasan 2 minutos"),
        ("hour", "Pasan 2 horas"),
        ("day", "Pasan 2 días"),
    ):
        ack = await advance(gm, unit, 2)
        assert ack["cards"][0]["title"] == title
    refused(
        await gm.call("time_advance", {"id": rid(), "unit": "week", "count": 1}), "invalid_field"
    )


async def test_time_clears_the_round(env: Env) -> None:
    gm = await env.join()
    await declare(env, gm, "ines", actions=1)
    assert (await attack(env, gm, "ines", "maton", 4, 3, 5))["ok"]
    refused(await attack(env, gm, "ines", "maton", 4, 3, 5), "no_actions_left")
    await advance(gm, "round")
    assert (await attack(env, gm, "ines", "maton", 4, 3, 5))["ok"]


async def test_undo_of_a_damage_restores_the_state_exactly(env: Env) -> None:
    gm = await env.join()
    assert gm.welcome is not None
    before = next(a for a in gm.welcome["actors"] if a["id"] == "maton")
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5)
    damage = await press(env, gm, ack["cards"][0], "damage")
    assert token(damage, "maton")["numbers"]["pv"] == 16
    gm.drain()
    undo = await gm.call("undo", {"id": rid(), "seq": damage["seq"]})
    assert undo["ok"], undo
    assert token(undo, "maton")["removed"] == ["bleeding", "wounded"]
    maton = await actor_pushed(gm, "maton")
    assert maton["state"] == before["state"] and maton["statuses"] == []
    again = await env.join("gm", "other")
    assert again.welcome is not None
    fresh = next(a for a in again.welcome["actors"] if a["id"] == "maton")
    assert fresh["state"] == before["state"]


async def test_plain_ta_and_its_refusals(env: Env) -> None:
    gm = await env.join()
    ack = await send(env, gm, "roll", "ines", "ta", (4, 4), skill="espada")
    card = ack["cards"][0]
    assert card["title"] == "TA de Espada"
    assert card["outcome"]["key"] == "critical"
    ack = await send(env, gm, "roll", "ines", "ta", (9, 9), characteristic="fue")
    assert ack["cards"][0]["outcome"]["key"] == "fumble"
    refused(await send(env, gm, "roll", "ines", "ta", skill="pistola"), "no_such_skill")
    refused(
        await send(env, gm, "roll", "ines", "ta", characteristic="int"), "no_such_characteristic"
    )
    refused(await send(env, gm, "roll", "ines", "ta"), "skill_or_characteristic")
    refused(await attack(env, gm, "ines", "ines", 4, 3, 5), "self_target")


async def test_english_cards(env: Env) -> None:
    gm = await env.join(locale="en")
    ack = await attack(env, gm, "ines", "maton", 4, 3, 5)
    assert ack["cards"][0]["outcome"]["label"] == "Success"
    damage = await press(env, gm, ack["cards"][0], "damage")
    assert token(damage, "maton")["labels"] == {"bleeding": "Bleeding", "wounded": "Wounded"}


async def test_browser_scenario_reaches_a_status(env: Env) -> None:
    gm = await env.join()
    data = scenario.load(SYSTEM)
    rounds = await scenario.play(gm, data)
    assert 1 <= rounds <= data["max_rounds"]


async def test_a_running_round_keeps_the_initiative_order(env: Env) -> None:
    gm = await env.join()
    await send(env, gm, "gm_action", None, "initiative")
    # Declarations from the lowest initiative up: Matón, Bruno, Inés.
    ack = await send(env, gm, "roll", "ines", "declare", actions=2)
    refused(ack, "out_of_order")
    assert ack["error"]["message"] == (
        "Inés aún no puede declarar: antes declara Matón (de menor a mayor Iniciativa)."
    )
    for actor, actions in (("maton", 1), ("bruno", 1), ("ines", 2)):
        await declare(env, gm, actor, actions=actions)
    # Actions in initiative order: Inés 16, Bruno 12, Inés 11, Matón 10.
    ack = await attack(env, gm, "bruno", "maton", 4, 1, 2)
    assert ack["error"] == {
        "code": "out_of_order",
        "message": "Aún no es el turno de Bruno: antes va Inés.",
        "field": "actor",
    }
    assert (await attack(env, gm, "ines", "maton", 4, 1, 2))["ok"]
    refused(await attack(env, gm, "ines", "maton", 4, 1, 2), "out_of_order")
    ack = await send(env, gm, "roll", "bruno", "act", what="pass")
    assert lines(ack) == ["Bruno pasa el resto del asalto"]
    assert (await attack(env, gm, "ines", "maton", 4, 1, 2))["ok"]
    assert (await attack(env, gm, "maton", "ines", 4, 1, 2))["ok"]
    # time_advance ends the round: no order until the next initiative.
    await advance(gm, "round")
    assert (await attack(env, gm, "maton", "ines", 4, 1, 2))["ok"]


async def test_world_location_table_and_weapon_breaking(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    table = (
        "pierna_izquierda,pierna_derecha,abdomen,abdomen,pecho,pecho,pecho,"
        "brazo_izquierdo,brazo_derecho,cabeza"
    )
    settings = {"location_table": table, "weapon_breaks_at": 1}
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM, settings=settings):
        gm = await env.join()
        assert gm.welcome is not None
        assert gm.welcome["world"]["settings"]["location_table"] == table
        ack = await attack(env, gm, "ines", "maton", 10, 3, 5)
        assert lines(ack)[-1] == "Acierta en Cabeza (10)"
        damage = await press(env, gm, ack["cards"][0], "damage")
        assert lines(damage)[0] == "Cabeza: 8 puntos, HERIDA LEVE"
        await advance(gm, "round", 2)
        await declare(env, gm, "maton", actions=1, defence="parry")
        ack = await attack(env, gm, "ines", "maton", 4, 3, 5, 1, 1)
        assert "¡Espada se rompe! (1 puntos de daño)" in lines(ack)
        assert (await actor_pushed(gm, "ines"))["state"]["broken"] == ["espada"]
