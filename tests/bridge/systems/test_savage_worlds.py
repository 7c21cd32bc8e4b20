"""Savage Worlds through the protocol: the seed text's worked examples with scripted dice,
refusals with their codes, every follow-up chain, time, undo, and the browser scenario.

Seed: /work/shared/seeds/004_bafd3d4b8a0f1c8d.txt (issue 7). Each request gets its own
script (``env.dice.script``); requests without one get seeded dice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

from support import scenario
from support.live import Client, Env, give, make_env, rid

SYSTEM = "savage_worlds"


@pytest.fixture
async def sw(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM):
        yield env


async def act(
    client: Client,
    event: str,
    actor: str | None,
    action: str,
    params: dict[str, Any] | None = None,
    targets: Iterable[str] = (),
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": rid(),
        "action": action,
        "params": params or {},
        "targets": list(targets),
    }
    if actor is not None:
        payload["actor"] = actor
    return await client.call(event, payload)


async def press(
    client: Client, card: dict[str, Any], follow: str, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    return await client.call(
        "card_action",
        {"id": rid(), "card": card["card_id"], "action": follow, "params": params or {}},
    )


def only_card(ack: dict[str, Any]) -> dict[str, Any]:
    assert ack["ok"], ack
    (card,) = ack["cards"]
    return card  # type: ignore[no-any-return]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def follow_ids(card: dict[str, Any]) -> list[str]:
    return [f["id"] for f in card["actions"]]


def follow_of(card: dict[str, Any], prefix: str) -> str:
    return next(f["id"] for f in card["actions"] if f["id"].startswith(prefix))


def dice_of(card: dict[str, Any]) -> list[tuple[str, list[int], bool]]:
    return [(d["role"], d["faces"], d["kept"]) for d in card["dice"]]


def token(ack: dict[str, Any], actor: str) -> dict[str, Any]:
    return next(t for t in ack["tokens"] if t["actor"] == actor)  # type: ignore[no-any-return]


def refused(ack: dict[str, Any]) -> str:
    assert not ack["ok"], ack
    assert ack["error"]["message"]
    return str(ack["error"]["code"])


async def actor_update(client: Client, actor: str, seq: int) -> dict[str, Any]:
    """The ``actor_update`` push of ``actor`` caused by event ``seq``."""
    while True:
        push = await client.next_push("actor_update")
        if push["seq"] == seq and push["actor"] and push["actor"]["id"] == actor:
            return push["actor"]  # type: ignore[no-any-return]


def world_data(env: Env) -> dict[str, Any]:
    row = env.store.load_world(env.world.world_id)
    assert row is not None
    return row.state["data"]  # type: ignore[no-any-return]


async def table(env: Env, **owners: str) -> Client:
    """The GM, having handed the named actors to players (``actor=user``)."""
    gm = await env.join("gm", "dm")
    assert gm.welcome is not None
    for actor_id, user in owners.items():
        await give(gm, actor_id, user, gm.welcome)
    return gm


# -- worked example 1: the ogre of Toughness 11 -------------------------------------------
async def _barbarian_hits_the_ogre(gm: Client, bea: Client, env: Env) -> dict[str, Any]:
    """Fighting d10 shows 6 (wild die 2) against the ogre's Parry 6: a hit, no raise."""
    env.dice.script(6, 2)
    card = only_card(
        await act(bea, "attack", "barbara", "attack", {"weapon": "espada_larga"}, ["ogro"])
    )
    assert card["title"] == "Brunhilda la Bárbara ataca con Espada larga"
    assert dice_of(card) == [("trait", [6], True), ("wild", [2], False)]
    assert card["outcome"]["key"] == "success" and card["outcome"]["label"] == "Éxito"
    assert lines(card) == ["Espada larga: Pelear d10", "Dado 1: 6 contra 6: impacta (Ogro)"]
    assert follow_ids(card) == ["damage-0"]
    assert card["actions"][0]["label"] == "Tirar daño (impacto 1 a Ogro)"
    return card


@pytest.mark.parametrize(
    ("already", "faces", "damage", "outcome", "line", "statuses", "wounds"),
    [
        # 'Si el daño ... está entre 11 y 14, será un éxito simple ... solo dejaría aturdido'.
        (False, (9, 2), 11, "shaken", "Ogro queda aturdido", ["stunned"], 0),
        (False, (12, 1, 1), 14, "shaken", "Ogro queda aturdido", ["stunned"], 0),
        # '... como este ya lo estaba, sufrirá una herida y seguirá estando aturdido'.
        (
            True,
            (12, 1, 1),
            14,
            "wounds",
            "Ogro ya estaba aturdido: sufre 1 herida",
            ["stunned", "wounded"],
            1,
        ),
        # '15 o más ... directamente causará heridas ... no hay efectos adicionales'.
        (
            True,
            (9, 6),
            15,
            "wounds",
            "Ogro sufre 1 herida(s) y queda aturdido",
            ["stunned", "wounded"],
            1,
        ),
        (
            False,
            (12, 6, 1),
            19,
            "wounds",
            "Ogro sufre 2 herida(s) y queda aturdido",
            ["stunned", "wounded"],
            2,
        ),
    ],
)
async def test_worked_example_the_ogre_of_toughness_11(
    sw: Env,
    already: bool,
    faces: tuple[int, ...],
    damage: int,
    outcome: str,
    line: str,
    statuses: list[str],
    wounds: int,
) -> None:
    gm = await table(sw, barbara="bea")
    bea = await sw.join("player", "bea")
    if already:
        # 'Uno de sus amigos, un pícaro, ya ha confundido primero al monstruo'.
        shaken = await gm.call("status_set", {"id": rid(), "actor": "ogro", "add": ["stunned"]})
        assert token(shaken, "ogro")["labels"] == {"stunned": "Aturdido"}
    attack = await _barbarian_hits_the_ogre(gm, bea, sw)
    sw.dice.script(*faces)
    damage_ack = await press(bea, attack, "damage-0")
    card = only_card(damage_ack)
    assert card["title"] == "Daño de Brunhilda la Bárbara" and card["target"] == "ogro"
    # Strength d12 + sword d8, every die acing; no wild die and no raise die (no raise hit).
    assert [d["role"] for d in card["dice"]] == ["strength", "damage"]
    assert card["outcome"]["key"] == outcome and card["outcome"]["margin"] == damage - 11
    assert lines(card)[0] == f"Daño {damage} contra Dureza 11 de Ogro"
    assert line in lines(card)
    if wounds:
        # The ogre has a benny: the wounds wait for a soak or an "apply".
        pending = follow_of(card, "soak")[len("soak-") :]
        assert follow_ids(card) == [f"soak-{pending}", f"apply-{pending}"]
        assert [f["allowed"] for f in card["actions"]] == ["owner", "owner"]
        assert damage_ack["tokens"] == []  # nothing applied yet
        refusal = await press(bea, card, f"apply-{pending}")
        assert refused(refusal) == "not_allowed"  # the ogre is the GM's
        applied = await press(gm, card, f"apply-{pending}")
        assert lines(only_card(applied))[0] == f"Daño {damage} contra Dureza 11"
        tokens = applied["tokens"]
    else:
        # Nothing to soak (no wound): applied at once, no buttons.
        assert follow_ids(card) == []
        tokens = damage_ack["tokens"]
    ogre = token({"tokens": tokens}, "ogro")
    assert ogre["statuses"] == statuses
    assert ogre["numbers"] == {"wounds": wounds, "bennies": 1}
    assert ogre["labels"]["stunned"] == "Aturdido"
    if wounds:
        assert ogre["labels"]["wounded"] == "Herido"


async def test_ogre_soaks_the_wound_with_his_benny_and_loses_shaken(sw: Env) -> None:
    """'Si el personaje absorbe todas las heridas ... también elimina el estado de aturdimiento
    (incluso si se debía a otro efecto distinto)'."""
    gm = await table(sw, barbara="bea")
    bea = await sw.join("player", "bea")
    await gm.call("status_set", {"id": rid(), "actor": "ogro", "add": ["stunned"]})
    attack = await _barbarian_hits_the_ogre(gm, bea, sw)
    sw.dice.script(9, 6)  # 15: a wound
    hit = only_card(await press(bea, attack, "damage-0"))
    sw.dice.script(5, 3)  # Vigor d12 5, wild 3: success, soaks 1
    soak_ack = await press(gm, hit, follow_of(hit, "soak"))
    soak = only_card(soak_ack)
    assert soak["title"] == "Ogro: tirada de absorción"
    assert dice_of(soak) == [("soak", [5], True), ("wild", [3], False)]
    assert soak["outcome"]["key"] == "soaked" and soak["outcome"]["label"] == "Absorbe 1"
    assert lines(soak)[0] == "Gasta un beni (propio)"
    assert "Ogro absorbe todas las heridas y deja de estar aturdido" in lines(soak)
    ogre = token(soak_ack, "ogro")
    assert ogre["statuses"] == [] and ogre["removed"] == ["stunned"]
    assert ogre["numbers"] == {"wounds": 0, "bennies": 1 - 1}
    assert world_data(sw)["pending"] == {}
    # Nothing left pending: applying the old hit is refused with the system's code.
    assert refused(await press(gm, hit, follow_of(hit, "apply"))) == "unknown_pending"


async def test_soak_rerolls_keep_the_best_then_apply_and_undo_restores_exactly(sw: Env) -> None:
    """'Lo que sí podría ... es emplear un segundo beni en repetir la tirada de Vigor'; the
    application, undone, leaves the victim and the system data exactly as before it."""
    gm = await table(sw, barbara="bea")
    bea = await sw.join("player", "bea")
    sw.dice.script(7, 1)  # the ogre's Fighting d8 7 against Parry 7: a hit
    attack = only_card(
        await act(gm, "attack", "ogro", "attack", {"weapon": "garrote"}, ["barbara"])
    )
    assert lines(attack)[-1] == "Dado 1: 7 contra 7: impacta (Brunhilda la Bárbara)"
    sw.dice.script(10, 7)  # Strength d12 10 + club d8 7 = 17 against Toughness 8: two raises
    hit = only_card(await press(gm, attack, "damage-0"))
    assert hit["outcome"]["key"] == "wounds" and hit["outcome"]["label"] == "2 herida(s)"
    assert "Brunhilda la Bárbara sufre 2 herida(s) y queda aturdido" in lines(hit)
    soak_id = follow_of(hit, "soak")
    assert [f["allowed"] for f in hit["actions"]] == ["owner", "owner"]
    assert hit["actions"][0]["once"] is False  # each further benny rerolls
    sw.dice.script(2, 1)  # Vigor d10 2, wild 1: failure, soaks nothing
    first = only_card(await press(bea, hit, soak_id))
    assert first["outcome"]["key"] == "failure"
    assert "Heridas pendientes: 2" in lines(first)
    sw.dice.script(6, 2)  # a second benny: 6, one wound soaked (the best roll counts)
    second = only_card(await press(bea, first, follow_of(first, "soak")))
    assert "Absorbe 1 (mejor tirada: 1 de 2)" in lines(second)
    assert "Repite la tirada con otro beni: cuenta la mejor" in lines(second)
    assert "Heridas pendientes: 1" in lines(second)
    sw.dice.script(1, 1)  # a third reroll, worse: the best (1) still counts
    third = only_card(await press(bea, second, follow_of(second, "soak")))
    assert "Absorbe 0 (mejor tirada: 1 de 2)" in lines(third)
    # Out of bennies: the button stays but the system refuses.
    assert refused(await press(bea, third, follow_of(third, "soak"))) == "no_bennies"
    before_data = world_data(sw)
    gm.drain()
    applied = await press(bea, third, follow_of(third, "apply"))
    card = only_card(applied)
    assert card["title"] == "Daño aplicado a Brunhilda la Bárbara"
    assert lines(card) == ["Daño 17 contra Dureza 8", "Brunhilda la Bárbara tiene 1 herida(s)"]
    barbara = token(applied, "barbara")
    assert barbara["statuses"] == ["stunned", "wounded"]
    assert barbara["labels"] == {"stunned": "Aturdido", "wounded": "Herido"}
    assert barbara["numbers"] == {"wounds": 1, "bennies": 0, "ammo.granada": 2}
    state = (await actor_update(gm, "barbara", applied["seq"]))["state"]
    assert (state["wounds"], state["bennies"]) == (1, 0)
    assert world_data(sw)["pending"] == {}
    # Undo the application: the victim and the pending hit are back, exactly.
    undo = await gm.call("undo", {"id": rid(), "seq": applied["seq"]})
    assert undo["ok"], undo
    back = token(undo, "barbara")
    assert back["statuses"] == [] and back["removed"] == ["stunned", "wounded"]
    assert back["numbers"] == {"wounds": 0, "bennies": 0, "ammo.granada": 2}
    assert world_data(sw) == before_data
    restored = (await actor_update(gm, "barbara", undo["seq"]))["state"]
    assert restored == {**state, "wounds": 0}
    # The pending hit works again: the GM gives a benny and Brunhilda soaks it all.
    await act(gm, "gm_action", "barbara", "benny", {"count": 1})
    sw.dice.script(9, 3)  # Vigor 9: a raise, soaks 2 of 2
    soaked = only_card(await press(bea, third, follow_of(third, "soak")))
    assert "Brunhilda la Bárbara absorbe todas las heridas y deja de estar aturdido" in lines(
        soaked
    )


# -- worked example 2: the agent's SMG at RoF 3 on two terrorists ---------------------
SMG_DICE = (7, 6, 2, 6, 3)
"""Shooting d8: 7, 6 and 2, recoil -2 (5, 4, 0); the wild die aces 6+3 = 9 (7)."""


async def _agent_fires(
    gm: Client, env: Env, params: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    env.dice.script(*SMG_DICE)
    ack = await act(
        gm,
        "attack",
        "agente",
        "attack",
        {"weapon": "subfusil", "rof": 3, **(params or {})},
        ["terrorista1", "terrorista2"],
    )
    card = only_card(ack)
    assert card["title"] == "Agente Vega ataca con Subfusil"
    # 'Tira ... 3d8 ... y finalmente su dado salvaje ... reemplaza el dado de Disparar fallido'.
    assert dice_of(card) == [
        ("trait", [7], True),
        ("trait", [6], True),
        ("trait", [2], False),
        ("wild", [6, 3], True),
    ]
    assert card["outcome"]["key"] == "hits" and card["outcome"]["label"] == "3 impacto(s) de 3"
    assert "Retroceso: -2" in lines(card)
    assert "Balas gastadas: 10 (quedan 20)" in lines(card)
    agent = token(ack, "agente")
    assert agent["numbers"]["ammo.subfusil"] == 20
    return ack, card


async def test_worked_example_smg_rof3_two_dice_on_the_nearer_one_on_the_farther(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    """The official assignment ('autofire: assigned', spread 2+1), as in the example."""
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM, settings={"autofire": "assigned"}):
        gm = await table(env)
        _, card = await _agent_fires(gm, env, {"spread": "2,1"})
        shots = [line for line in lines(card) if line.startswith("Dado")]
        assert shots == [
            "Dado 1: 5 contra 4: impacta (Terrorista 1)",
            "Dado 2: 4 contra 4: impacta (Terrorista 1)",
            "Dado 3: 7 contra 4: impacta (Terrorista 2): dado salvaje",
        ]
        assert [f["label"] for f in card["actions"]] == [
            "Tirar daño (impacto 1 a Terrorista 1)",
            "Tirar daño (impacto 2 a Terrorista 1)",
            "Tirar daño (impacto 3 a Terrorista 2)",
        ]
        env.dice.script(3, 4)  # 7 against Toughness 5: Shaken
        first = only_card(await press(gm, card, "damage-0"))
        assert first["outcome"]["key"] == "shaken"
        env.dice.script(2, 3)  # 5 on a Shaken Extra: a wound, and Extras are out
        second_ack = await press(gm, card, "damage-1")
        second = only_card(second_ack)
        assert "Terrorista 1 ya estaba aturdido: sufre 1 herida" in lines(second)
        assert "Terrorista 1 (Extra) queda fuera de combate" in lines(second)
        out = token(second_ack, "terrorista1")
        assert out["statuses"] == ["incapacitated"]
        assert out["labels"] == {"incapacitated": "Incapacitado"}
        env.dice.script(5, 5)  # 10 against 5: a raise, a wound
        third_ack = await press(gm, card, "damage-2")
        assert token(third_ack, "terrorista2")["added"] == ["incapacitated"]
        assert world_data(env)["attacks"] == {}


async def test_worked_example_smg_extermination_order_moves_to_the_next_target(sw: Env) -> None:
    """This table's 'orden de exterminio': hits go in order, the next target once one falls."""
    gm = await table(sw)
    _, card = await _agent_fires(gm, sw)
    assert "Orden de exterminio: los impactos van en orden a los objetivos declarados" in lines(
        card
    )
    assert [f["label"] for f in card["actions"]] == [
        "Tirar daño (impacto 1)",
        "Tirar daño (impacto 2)",
        "Tirar daño (impacto 3)",
    ]
    sw.dice.script(1, 2)
    first = only_card(await press(gm, card, "damage-0"))
    assert first["target"] == "terrorista1" and first["outcome"]["key"] == "no_effect"
    sw.dice.script(5, 5)
    second_ack = await press(gm, card, "damage-1")
    assert only_card(second_ack)["target"] == "terrorista1"
    assert token(second_ack, "terrorista1")["statuses"] == ["incapacitated"]
    sw.dice.script(3, 4)
    third_ack = await press(gm, card, "damage-2")
    third = only_card(third_ack)
    assert third["target"] == "terrorista2" and third["outcome"]["key"] == "shaken"
    assert token(third_ack, "terrorista2")["statuses"] == ["stunned"]
    # Every hit was rolled once.
    assert refused(await press(gm, card, "damage-2")) == "follow_up_used"


# -- the browser scenario -------------------------------------------------------------
async def test_browser_scenario_reaches_a_status_within_its_rounds(sw: Env) -> None:
    """The barbarian hits the ogre until he is wounded (Shaken first, then a wound that
    waits for the GM's "apply" because the ogre holds a benny)."""
    gm = await table(sw)
    plan = scenario.load(SYSTEM)
    assert plan["system"] == SYSTEM
    rounds = await scenario.play(gm, plan)
    assert 1 <= rounds <= plan["max_rounds"]


# -- refusals -------------------------------------------------------------------------
async def test_more_actions_than_declared_and_full_round_actions_are_refused(sw: Env) -> None:
    """'hasta un máximo de tres acciones ... declare todas las acciones ... antes de comenzar'."""
    gm = await table(sw, agente="ana")
    ana = await sw.join("player", "ana")
    start = await act(gm, "gm_action", None, "combat_start", {}, ["agente", "terrorista1"])
    assert start["ok"], start
    assert start["cards"][0]["title"] == "¡Combate!"
    assert any(c["visibility"] == "gm" for c in start["cards"])  # the shuffle's dice
    assert refused(await act(ana, "roll", "agente", "declare", {"count": 4})) == "too_many_actions"
    declared = only_card(await act(ana, "roll", "agente", "declare", {"count": 2}))
    assert lines(declared) == ["2 acción(es) declarada(s): -2"]
    shot = {"weapon": "subfusil", "rof": 1}
    first = only_card(await act(ana, "attack", "agente", "attack", shot, ["terrorista1"]))
    assert "Acciones múltiples: -2" in lines(first)
    again = await act(ana, "roll", "agente", "declare", {"count": 3})
    assert refused(again) == "actions_already_started"
    # A set bipod takes the whole round: not after an action.
    bipod = await act(ana, "roll", "agente", "bipod", {"weapon": "ametralladora"})
    assert refused(bipod) == "full_round_action"
    second = await act(ana, "attack", "agente", "attack", shot, ["terrorista1"])
    assert second["ok"], second
    third = await act(ana, "attack", "agente", "attack", shot, ["terrorista1"])
    assert refused(third) == "not_enough_actions"
    assert third["error"]["field"] == "actor"
    # Drawing the knife from its sheath is free; a free action never counts.
    ready = only_card(await act(ana, "roll", "agente", "ready", {"weapon": "cuchillo"}))
    assert lines(ready) == ["Prepara Cuchillo: gratis"]
    assert (await act(ana, "roll", "agente", "free", {"what": "prone"}))["ok"]
    end = await act(gm, "gm_action", None, "combat_end")
    assert end["ok"] and refused(await act(gm, "gm_action", None, "next_round")) == "not_in_combat"


@pytest.mark.parametrize(
    ("params", "targets", "code"),
    [
        ({"weapon": "subfusil", "rof": 4}, ["terrorista1"], "rof_not_available"),
        ({"weapon": "cuchillo", "rof": 2}, ["terrorista1"], "rof_not_available"),
        ({"weapon": "cuchillo", "frenzy": True}, ["terrorista1"], "no_frenzy"),
        ({"weapon": "lanzallamas"}, ["terrorista1"], "unknown_weapon"),
        ({"weapon": "subfusil"}, ["terrorista1", "terrorista2"], "too_many_targets"),
        ({"weapon": "subfusil", "rof": 3}, ["ogro", "ogro"], "duplicate_target"),
        ({"weapon": "subfusil"}, ["agente"], "self_target"),
        ({"weapon": "subfusil", "lighting": "dark", "distance": 11}, ["ogro"], "not_visible"),
        ({"weapon": "subfusil", "rof": 7}, ["ogro"], "invalid_param"),
        ({"weapon": "subfusil"}, [], "invalid_targets"),
    ],
)
async def test_impossible_attacks_are_refused_with_their_codes(
    sw: Env, params: dict[str, Any], targets: list[str], code: str
) -> None:
    gm = await table(sw)
    before = sw.seq()
    assert refused(await act(gm, "attack", "agente", "attack", params, targets)) == code
    assert sw.seq() == before  # nothing stored


async def test_ammunition_by_rate_of_fire_empty_magazine_and_reload(sw: Env) -> None:
    """'CDF 1: 1 ... 3: 10': a burst of RoF 3 spends ten rounds; a reload is an action."""
    gm = await table(sw)
    burst = {"weapon": "subfusil", "rof": 3}
    for left in (20, 10, 0):
        ack = await act(gm, "attack", "agente", "attack", burst, ["ogro"])
        assert token(ack, "agente")["numbers"]["ammo.subfusil"] == left
    empty = await act(gm, "attack", "agente", "attack", {"weapon": "subfusil"}, ["ogro"])
    assert refused(empty) == "no_ammo" and empty["error"]["field"] == "params.weapon"
    reload = await act(gm, "roll", "agente", "reload", {"weapon": "subfusil"})
    assert lines(only_card(reload)) == [
        "Recarga Subfusil (30 balas): una acción",
        "Cargadores restantes: 2",
    ]
    assert token(reload, "agente")["numbers"]["ammo.subfusil"] == 30
    full = await act(gm, "roll", "agente", "reload", {"weapon": "subfusil"})
    assert refused(full) == "already_loaded"
    for _ in range(2):
        await act(gm, "attack", "agente", "attack", burst, ["ogro"])
    await act(gm, "attack", "agente", "attack", {"weapon": "subfusil"}, ["ogro"])  # 9 left
    short = await act(gm, "attack", "agente", "attack", burst, ["ogro"])
    assert refused(short) == "not_enough_ammo" and short["error"]["field"] == "params.rof"
    # A sword needs no reload; the grenade's last one thrown leaves no spare.
    assert refused(await act(gm, "roll", "barbara", "reload", {"weapon": "espada_larga"})) == (
        "no_reload_needed"
    )


async def test_players_act_only_for_their_own_actors(sw: Env) -> None:
    gm = await table(sw, agente="ana", barbara="bea")
    ana = await sw.join("player", "ana")
    bea = await sw.join("player", "bea")
    shot = {"weapon": "subfusil"}
    assert refused(await act(bea, "attack", "agente", "attack", shot, ["ogro"])) == (
        "not_your_actor"
    )
    assert refused(await act(bea, "damage_apply", "barbara", "hurt", {"damage": 5})) == "gm_only"
    assert refused(await act(bea, "gm_action", None, "combat_start")) == "gm_only"
    assert refused(await act(bea, "roll", "barbara", "attack", shot, ["ogro"])) == "wrong_event"
    sw.dice.script(8, 1, 1)  # Shooting d8 aces 8+1 = 9 (wild 1): a raise
    attack = only_card(await act(ana, "attack", "agente", "attack", shot, ["barbara"]))
    # Only the attacker's owner (or the GM) rolls the damage.
    assert refused(await press(bea, attack, "damage-0")) == "not_allowed"
    sw.dice.script(5, 5, 2)  # 2d6 10 + raise d6 2 = 12 against Toughness 8: a wound, pending
    hit = only_card(await press(ana, attack, "damage-0"))
    assert follow_ids(hit)[0].startswith("soak-")
    # Only the victim's owner soaks: Ana cannot spend Brunhilda's benny.
    assert refused(await press(ana, hit, follow_of(hit, "soak"))) == "not_allowed"
    assert refused(await press(ana, hit, follow_of(hit, "apply"))) == "not_allowed"
    # While that hit is pending, a new hit on Brunhilda waits ('Resuelve cada tirada ... por
    # separado ... antes de pasar a la siguiente').
    hurt = await act(gm, "damage_apply", "barbara", "hurt", {"damage": 20})
    assert refused(hurt) == "hit_pending"
    assert (await press(bea, hit, follow_of(hit, "apply")))["ok"]


async def test_shaken_recovery_spirit_roll_and_benny(sw: Env) -> None:
    """'Al comenzar su turno, un personaje aturdido debe ... una tirada de Espíritu'; 'Un
    personaje puede gastar un beni en cualquier momento para eliminar el ... aturdimiento'."""
    gm = await table(sw, agente="ana")
    ana = await sw.join("player", "ana")
    await gm.call("status_set", {"id": rid(), "actor": "agente", "add": ["stunned"]})
    shot = {"weapon": "subfusil"}
    assert refused(await act(ana, "attack", "agente", "attack", shot, ["ogro"])) == "shaken"
    sw.dice.script(2, 3)  # Spirit d6 2, wild 3: failure
    turn = only_card(await act(ana, "roll", "agente", "start_turn"))
    assert turn["title"] == "Turno de Agente Vega"
    assert dice_of(turn) == [("spirit", [2], False), ("wild", [3], True)]
    assert turn["outcome"]["key"] == "failure"
    assert lines(turn)[-1] == "Agente Vega sigue aturdido: solo acciones gratuitas"
    assert (await act(ana, "roll", "agente", "free", {"what": "speak"}))["ok"]
    unshake = await act(ana, "roll", "agente", "unshake")
    assert lines(only_card(unshake)) == [
        "Gasta un beni (propio)",
        "Agente Vega deja de estar aturdido",
    ]
    agent = token(unshake, "agente")
    assert agent["removed"] == ["stunned"] and agent["numbers"]["bennies"] == 2
    assert refused(await act(ana, "roll", "agente", "unshake")) == "not_shaken"
    sw.dice.script(4, 1)
    assert (await act(ana, "attack", "agente", "attack", shot, ["ogro"]))["ok"]


# -- incapacitation, Bleeding Out and time ----------------------------------------------
async def _incapacitate(gm: Client, env: Env, actor: str, faces: tuple[int, ...]) -> dict[str, Any]:
    """The GM's ``hurt`` of 30 (five raises) waits for a soak; applying it rolls Vigor at -3."""
    hurt = only_card(await act(gm, "damage_apply", actor, "hurt", {"damage": 30}))
    assert hurt["outcome"]["key"] == "wounds"
    env.dice.script(*faces)
    applied = await press(gm, hurt, follow_of(hurt, "apply"))
    assert applied["ok"], applied
    return applied


async def test_incapacitated_then_bleeding_out_each_minute_until_stable(sw: Env) -> None:
    """'Fallo: ... sus efectos son permanentes y la víctima comienza a desangrarse'; out of
    combat the Vigor roll comes 'cada minuto'; a raise stabilises."""
    gm = await table(sw, barbara="bea")
    # Vigor d10 5 - 3 = 2: failure (not 1 or less); Injury 2d6 1+2 = 3: arm.
    applied = await _incapacitate(gm, sw, "barbara", (5, 2, 1, 2))
    card = only_card(applied)
    assert [d["role"] for d in card["dice"]] == ["vigor", "wild", "injury", "injury"]
    assert lines(card)[1:] == [
        "Brunhilda la Bárbara tiene 3 herida(s)",
        "Brunhilda la Bárbara queda incapacitado: tirada de Vigor 2",
        "Brunhilda la Bárbara empieza a desangrarse",
        "Tabla de Heridas Críticas: Brazo inutilizado (permanente)",
    ]
    barbara = token(applied, "barbara")
    assert barbara["statuses"] == ["bleeding", "incapacitated", "stunned", "wounded"]
    assert barbara["labels"]["bleeding"] == "Desangrándose"
    assert barbara["labels"]["incapacitated"] == "Incapacitado"
    # Three minutes: 9 - 3 = 6 (success, again), 6 again, then the wild die 6+5 = 11 - 3 = 8.
    sw.dice.script(9, 1, 9, 1, 2, 6, 5)
    later = await gm.call("time_advance", {"id": rid(), "unit": "minute", "count": 3})
    time_card = only_card(later)
    assert time_card["title"] == "Pasa el tiempo"
    assert lines(time_card) == [
        "Brunhilda la Bárbara sigue desangrándose: 6",
        "Brunhilda la Bárbara sigue desangrándose: 6",
        "Brunhilda la Bárbara se estabiliza: 8",
    ]
    assert [d["role"] for d in time_card["dice"]].count("bleeding") == 3
    assert token(later, "barbara")["removed"] == ["bleeding"]
    # Nothing left to run: time passes quietly.
    quiet = await gm.call("time_advance", {"id": rid(), "unit": "minute", "count": 10})
    assert quiet["ok"] and quiet["cards"] == [] and quiet["tokens"] == []


async def test_bleeding_out_rolls_at_the_start_of_the_round_before_the_deal(sw: Env) -> None:
    """'una tirada de Vigor al comienzo de cada ronda ... antes de que se reparta ninguna carta'."""
    gm = await table(sw)
    await _incapacitate(gm, sw, "barbara", (5, 2, 1, 2))
    start = await act(gm, "gm_action", None, "combat_start", {}, ["agente", "barbara", "ogro"])
    assert "Brunhilda la Bárbara" not in " ".join(lines(start["cards"][0]))  # no card
    sw.dice.script(3, 1, *[1] * 53)  # Vigor 3 - 3 = 0: dies; ones for a possible reshuffle
    ack = await gm.call("time_advance", {"id": rid(), "unit": "round", "count": 1})
    card = ack["cards"][0]
    assert lines(card)[:2] == ["Brunhilda la Bárbara muere desangrado: 0", "Ronda 2"]
    dead = token(ack, "barbara")
    assert "dead" in dead["added"] and "bleeding" in dead["removed"]
    assert dead["labels"]["dead"] == "Muerto"


async def test_a_raise_on_incapacitation_leaves_an_injury_for_24_hours(sw: Env) -> None:
    """'Aumento: ... los efectos desaparecerán a las 24 horas'; broken guts lower Agility."""
    gm = await table(sw)
    # Vigor d6 aces 6+5 = 11 - 3 = 8: a raise; Injury 3+4 = 7: guts, d6 1: broken.
    applied = await _incapacitate(gm, sw, "agente", (6, 5, 1, 3, 4, 1))
    assert lines(only_card(applied))[-1] == (
        "Tabla de Heridas Críticas: Tripas: rotas (Agilidad -1 dado) (desaparece en 24 horas)"
    )
    agent = token(applied, "agente")
    assert agent["statuses"] == ["incapacitated", "stunned", "wounded"]
    await gm.call("status_set", {"id": rid(), "actor": "agente", "remove": ["incapacitated"]})
    sw.dice.script(3, 2)
    roll = only_card(await act(gm, "roll", "agente", "trait", {"trait": "agilidad", "free": True}))
    assert lines(roll)[0] == "Agilidad d6"  # d8 one step down while the injury lasts
    hours = await gm.call("time_advance", {"id": rid(), "unit": "hour", "count": 23})
    assert lines(only_card(hours)) == ["Pasa el tiempo"]
    day = await gm.call("time_advance", {"id": rid(), "unit": "day", "count": 1})
    assert lines(only_card(day)) == [
        "Desaparece la herida crítica de Agente Vega: Tripas: rotas (Agilidad -1 dado)"
    ]
    sw.dice.script(3, 2)
    roll = only_card(await act(gm, "roll", "agente", "trait", {"trait": "agilidad", "free": True}))
    assert lines(roll)[0] == "Agilidad d8"


async def test_healing_roll_by_another_stops_bleeding_out(sw: Env) -> None:
    """'Otros personajes pueden detener un desangramiento realizando ... una tirada de Sanar'."""
    gm = await table(sw, agente="ana", barbara="bea")
    ana = await sw.join("player", "ana")
    await _incapacitate(gm, sw, "barbara", (5, 2, 1, 2))
    bea = await sw.join("player", "bea")
    assert refused(await act(bea, "heal", "barbara", "stabilise", {}, ["barbara"])) == "self_heal"
    sw.dice.script(3, 5)  # Healing d4 3, wild 5: success
    ack = await act(ana, "heal", "agente", "stabilise", {}, ["barbara"])
    card = only_card(ack)
    assert card["title"] == "Agente Vega: Sanar" and card["target"] == "barbara"
    assert dice_of(card) == [("healing", [3], False), ("wild", [5], True)]
    assert lines(card)[-1] == "Brunhilda la Bárbara deja de desangrarse"
    assert token(ack, "barbara")["removed"] == ["bleeding"]
    again = await act(ana, "heal", "agente", "stabilise", {}, ["barbara"])
    assert refused(again) == "not_bleeding"
    # The GM's lever heals wounds; the last one lifts incapacitation.
    healed = await act(gm, "heal", "barbara", "gm_heal", {"wounds": 3})
    assert sorted(token(healed, "barbara")["removed"]) == ["incapacitated", "wounded"]


# -- the XCOM variant's follow-up chain ------------------------------------------------
async def test_xcom_end_of_turn_spotted_civilian_attack_chain(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    """'Al final de cada uno de los turnos ... sigilo de los civiles y el notar de los aliens
    ... Si los aliens los detectan les atacarán pudiendo matarles. Civil Muerto'."""
    async for env in make_env(tmp_path, aiohttp_server, SYSTEM, settings={"variant": "xcom"}):
        gm = await table(env, agente="ana")
        ana = await env.join("player", "ana")
        assert refused(await act(ana, "gm_action", None, "xcom_end_turn", {}, ["civil"])) == (
            "gm_only"
        )
        env.dice.script(6, 3)  # the sectoid's Notice d8 6; the civilian's Stealth d6 3
        end = only_card(
            await act(gm, "gm_action", None, "xcom_end_turn", {}, ["civil", "sectoide"])
        )
        assert end["title"] == "Fin de turno"
        assert lines(end) == [
            "Notar de Sectoide: 6",
            "Sectoide detecta a Civil: 3",
            "Civiles salvados: 0; civiles muertos: 0",
            "Empieza el turno 2",
        ]
        (button,) = end["actions"]
        assert (button["id"], button["allowed"]) == ("attack-civil", "gm")
        assert button["label"] == "Sectoide ataca a Civil"
        assert refused(await press(ana, end, "attack-civil")) == "not_allowed"
        env.dice.script(5)  # Shooting d6 5 (an Extra: no wild die): a hit
        attack = only_card(await press(gm, end, "attack-civil"))
        assert attack["title"] == "Sectoide ataca con Pistola de plasma"
        assert dice_of(attack) == [("trait", [5], True)]
        env.dice.script(5, 6)  # 2d8 11 against Toughness 5: a raise, a wound: the Extra is out
        hit_ack = await press(gm, attack, "damage-0")
        assert token(hit_ack, "civil")["statuses"] == ["incapacitated"]
        env.dice.script(2)
        tally = only_card(
            await act(gm, "gm_action", None, "xcom_end_turn", {}, ["civil", "sectoide"])
        )
        assert "Civiles salvados: 0; civiles muertos: 1" in lines(tally)


async def test_treating_wounds_with_healing_once_a_day(sw: Env) -> None:
    """Core rule added as a setting (`healing_rolls`): a Healing roll heals a wound per success
    and raise, the patient's wounds count against it, and a patient is treated once a day."""
    gm = await table(sw, agente="ana")
    ana = await sw.join("player", "ana")
    hurt = only_card(await act(gm, "damage_apply", "barbara", "hurt", {"damage": 12}))
    await press(gm, hurt, follow_of(hurt, "apply"))  # one wound (12 against 8)
    sw.dice.script(1, 2)  # Healing d4 1, wild 2; the patient's wound -1: 1, a failure
    failed = only_card(await act(ana, "heal", "agente", "treat", {}, ["barbara"]))
    assert failed["title"] == "Agente Vega trata las heridas de Brunhilda la Bárbara"
    assert failed["outcome"]["key"] == "failure"
    assert "Heridas del paciente: -1" in lines(failed)
    again = await act(ana, "heal", "agente", "treat", {}, ["barbara"])
    assert refused(again) == "already_treated" and again["error"]["field"] == "targets.0"
    await gm.call("time_advance", {"id": rid(), "unit": "day", "count": 1})
    sw.dice.script(3, 5)  # wild 5 - 1 = 4: a success, one wound healed
    ack = await act(ana, "heal", "agente", "treat", {}, ["barbara"])
    assert lines(only_card(ack))[-1] == "Brunhilda la Bárbara cura 1 herida(s); le quedan 0"
    barbara = token(ack, "barbara")
    assert "wounded" in barbara["removed"] and barbara["numbers"]["wounds"] == 0
    assert refused(await act(ana, "heal", "agente", "treat", {}, ["barbara"])) == "no_wounds"
