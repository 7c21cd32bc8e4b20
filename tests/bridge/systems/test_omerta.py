"""Omertà through the real server: the seed's worked examples with scripted dice, every
follow-up chain pressed with ``card_action``, refusals with their codes, time and undo.

Percentile dice are two d10 (tens, units; a 10 reads 0): ``pct(47)`` scripts a 47.
Sample actors: jimmy (player-jimmy), frank (player-frank), sanderson (player-sanderson) and
tony (a PNJ: only the Don acts for him).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from support import scenario
from support.live import Client, Env, make_env, rid


def pct(value: int) -> list[int]:
    tens, units = divmod(value % 100, 10)
    return [tens or 10, units or 10]


@pytest.fixture
async def om(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, "omerta"):
        yield value


async def act(
    client: Client,
    event: str,
    actor: str | None,
    action: str,
    params: dict[str, Any] | None = None,
    targets: tuple[str, ...] = (),
    *,
    ok: bool = True,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": rid(),
        "action": action,
        "params": params or {},
        "targets": list(targets),
    }
    if actor is not None:
        payload["actor"] = actor
    ack = await client.call(event, payload)
    if ok:
        assert ack["ok"], ack
    return ack


async def press(
    client: Client, card: dict[str, Any], follow: str, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    return await client.call(
        "card_action",
        {"id": rid(), "card": card["card_id"], "action": follow, "params": params or {}},
    )


async def advance(gm: Client, unit: str, count: int = 1) -> dict[str, Any]:
    ack = await gm.call("time_advance", {"id": rid(), "unit": unit, "count": count})
    assert ack["ok"], ack
    return ack


def refused(ack: dict[str, Any], code: str) -> None:
    assert ack["ok"] is False, ack
    assert ack["error"]["code"] == code, ack
    assert ack["error"]["message"]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def roles(card: dict[str, Any]) -> list[tuple[str, int]]:
    return [(die["role"], die["total"]) for die in card["dice"]]


def token(ack: dict[str, Any], actor: str) -> dict[str, Any]:
    return next(t for t in ack["tokens"] if t["actor"] == actor)


async def actor_state(client: Client, actor: str, seq: int) -> dict[str, Any]:
    """The ``actor_update`` push event ``seq`` sent for ``actor``."""
    while True:
        body = await client.next_push("actor_update")
        found = body.get("actor") or {}
        if body["seq"] == seq and found.get("id") == actor:
            return found  # type: ignore[no-any-return]


# -- checks -------------------------------------------------------------------------------


async def test_the_texts_critical_and_fumble_examples(om: Env) -> None:
    """'Si tenemos un 85% ... la pifia ... sería de 98-00, si tenemos un 05% ... de 90 a 00'."""
    gm = await om.join()
    doc = await om.join("player", "player-sanderson")
    cases = [
        ("medicina", 5, 98, "fumble"),  # 80 + 5 = 85 %
        ("medicina", 5, 97, "failure"),
        ("medicina", 5, 8, "critical"),  # 10 % of 85 is 8
        ("medicina", 5, 9, "success"),
        ("medicina", 5, 100, "fumble"),  # 00 always fumbles
        ("pelea", -15, 90, "fumble"),  # 20 - 15 = 05 %
        ("pelea", -15, 89, "failure"),
        ("pelea", -15, 1, "critical"),  # 01 always a critical
        ("pelea", -15, 5, "success"),
    ]
    for skill, modifier, rolled, grade in cases:
        om.dice.script(*pct(rolled))
        ack = await act(doc, "roll", "sanderson", "roll", {"skill": skill, "modifier": modifier})
        (card,) = ack["cards"]
        assert card["outcome"]["key"] == grade, (skill, rolled, card["outcome"])
        assert card["outcome"]["margin"] == 80 + 5 - rolled if skill == "medicina" else True
        assert [r for r, _ in roles(card)] == ["skill.tens", "skill.units"]
        assert f"Tirada 1D100: {rolled}" in lines(card)
        assert "Modificador del Don: " + f"{modifier:+d}" in lines(card)
    ack = await act(doc, "roll", "sanderson", "roll", {"skill": "medicina", "automatic": "success"})
    card = ack["cards"][0]
    assert card["dice"] == [] and card["outcome"]["key"] == "success"
    assert "Éxito automático por decisión del Don" in lines(card)
    del gm


async def test_opposed_fue_contra_fue_through_the_oppose_follow_up(om: Env) -> None:
    """'una sencilla tirada de FUE contra FUE': the opponent answers with the follow-up."""
    frank = await om.join("player", "player-frank")
    jimmy = await om.join("player", "player-jimmy")
    om.dice.script(*pct(40))  # FUE 14 x5 = 70 %: success, category 30
    ack = await act(
        frank,
        "roll",
        "frank",
        "roll",
        {"characteristic": "fue", "opposed_characteristic": "fue"},
        ("jimmy",),
    )
    card = ack["cards"][0]
    assert card["title"] == "Frank: FUE×5" and card["outcome"]["key"] == "success"
    (button,) = card["actions"]
    assert (button["id"], button["actor"], button["allowed"]) == ("oppose", "jimmy", "owner")
    refused(await press(frank, card, "oppose"), "not_allowed")
    om.dice.script(*pct(50))  # FUE 12 x5 = 60 %: success, category 10
    answer = await press(jimmy, card, "oppose")
    assert answer["ok"], answer
    (result,) = answer["cards"]
    assert result["title"] == "Tirada enfrentada: Frank contra Jimmy Brincos"
    assert result["outcome"]["key"] == "failure" and result["outcome"]["margin"] == -20
    assert lines(result)[-1] == "Gana Frank: por categoría de éxito"
    refused(await press(jimmy, card, "oppose"), "follow_up_used")


# -- the worked example -----------------------------------------------------------------


async def test_jimmy_brincos_bullet_extraction(om: Env) -> None:
    """Two bullet wounds (5, 8) and a kick (3): 16 HP lost; Dr. Sanderson (Medicina 80 %)
    rolls 12, 86, 47: two bullets out, one HP lost, two First Aid rolls allowed."""
    gm = await om.join()
    doc = await om.join("player", "player-sanderson")
    for params in (
        {"amount": 5, "bullet": True},
        {"amount": 8, "bullet": True},
        {"amount": 3, "kind": "contusion"},
    ):
        ack = await act(gm, "damage_apply", None, "gm_damage", params, ("jimmy",))
    jimmy = token(ack, "jimmy")
    assert jimmy["numbers"]["hp"] == 2 and jimmy["numbers"]["bullets_in"] == 2
    assert jimmy["statuses"] == ["wounded"] and jimmy["labels"] == {"wounded": "Herido"}
    refused(
        await act(doc, "heal", "sanderson", "first_aid", {"wound": 1}, ("jimmy",), ok=False),
        "bullet_not_extracted",
    )

    om.dice.script(*pct(12))
    first = (await act(doc, "heal", "sanderson", "extract_bullet", {}, ("jimmy",)))["cards"][0]
    assert first["outcome"]["key"] == "success"
    assert "Bala extraída (herida 1)" in lines(first)
    assert [(b["id"], b["actor"], b["ask"]) for b in first["actions"]] == [
        ("first_aid", "sanderson", [])
    ]

    om.dice.script(*pct(86))
    ack = await act(doc, "heal", "sanderson", "extract_bullet", {}, ("jimmy",))
    second = ack["cards"][0]
    assert second["outcome"]["key"] == "failure"
    assert "La bala se resiste: Jimmy Brincos pierde 1 PV" in lines(second)
    assert token(ack, "jimmy")["numbers"]["hp"] == 1
    (retry,) = second["actions"]
    assert (retry["id"], retry["actor"], retry["allowed"]) == ("retry", "sanderson", "owner")

    om.dice.script(*pct(47))
    ack = await press(doc, second, "retry")
    assert ack["ok"], ack
    third = ack["cards"][0]
    assert third["outcome"]["key"] == "success" and "Bala extraída (herida 2)" in lines(third)
    jimmy = token(ack, "jimmy")
    assert jimmy["numbers"] == {
        "hp": 1,
        "hp_max": 18,
        "bullets_in": 0,
        "ammo.colt": 7,
        "ammo.cuchillo_arrojadizo": 3,
    }
    state = await actor_state(gm, "jimmy", ack["seq"])
    assert [(w["kind"], w["damage"], w["extracted"]) for w in state["state"]["wounds"]] == [
        ("bullet", 5, True),
        ("bullet", 8, True),
        ("contusion", 3, True),
    ]

    # "Ahora, Brincos puede beneficiarse de hasta dos tiradas exitosas de Primeros Auxilios"
    om.dice.script(*pct(30), 3)
    healed = await press(doc, first, "first_aid")
    assert healed["ok"], healed
    assert "Herida 1 (herida de bala): 5" in lines(healed["cards"][0])  # the stored wound
    assert "Jimmy Brincos recupera 3 PV (1 → 4)" in lines(healed["cards"][0])
    om.dice.script(*pct(20), 2)
    healed = await press(doc, third, "first_aid")
    assert "Herida 2 (herida de bala): 8" in lines(healed["cards"][0])
    assert "Jimmy Brincos recupera 2 PV (4 → 6)" in lines(healed["cards"][0])
    assert token(healed, "jimmy")["numbers"]["hp"] == 6
    refused(await press(doc, first, "first_aid"), "follow_up_used")
    refused(
        await act(doc, "heal", "sanderson", "first_aid", {"wound": 1}, ("jimmy",), ok=False),
        "wound_treated_today",
    )


# -- firearms -------------------------------------------------------------------------


async def test_pistol_shot_pushes_statuses_and_state_to_everyone(om: Env) -> None:
    gm = await om.join()
    watcher = await om.join("player", "player-frank", locale="en")
    om.dice.script(*pct(30), 12, 7)  # 30 vs 60 %; d20 12 = chest (missile table); 1d10+2
    ack = await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",))
    (card,) = ack["cards"]
    assert card["title"] == "Jimmy Brincos: Colt M1911 (ataque)"
    assert card["outcome"] == {"key": "success", "label": "Éxito", "success": True, "margin": 30}
    assert roles(card) == [
        ("attack.tens", 3),
        ("attack.units", 10),
        ("location", 12),
        ("damage", 7),
    ]
    assert lines(card) == [
        "Arma corta: 60%",
        "Porcentaje final: 60%",
        "Tirada 1D100: 30",
        "Categoría de éxito: 30",
        "Munición de Colt M1911: 6/7",
        "Bala: 9 de daño en pecho",
        "Tony el Sordo: 14 → 5 PV (de 14)",
    ]
    tony = token(ack, "tony")
    assert (tony["added"], tony["labels"]) == (["wounded"], {"wounded": "Herido"})
    assert tony["numbers"]["hp"] == 5 and tony["numbers"]["bullets_in"] == 1
    assert token(ack, "jimmy")["numbers"]["ammo.colt"] == 6
    state = (await actor_state(watcher, "tony", ack["seq"]))["state"]
    pushed = await watcher.next_push("token_status")  # pushed right after tony's actor_update
    assert pushed["actor"] == "tony" and pushed["seq"] == ack["seq"]
    assert pushed["labels"] == {"wounded": "Wounded"}
    assert state["hp"] == 5
    (wound,) = state["wounds"]
    assert (wound["kind"], wound["damage"], wound["location"], wound["extracted"]) == (
        "bullet",
        9,
        "chest",
        False,
    )
    # a second shot at another target: extra action -20 and change of target -20
    om.dice.script(*pct(25), 1, 1)
    again = (await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("frank",)))["cards"]
    assert "Acción adicional en el asalto: -20" in lines(again[0])
    assert "Cambio de blanco: -20" in lines(again[0])
    assert "Porcentaje final: 20%" in lines(again[0]) and again[0]["outcome"]["key"] == "failure"
    om.dice.script(*pct(90))  # 20 % now: fumbles only from 92
    await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("frank",))
    refused(
        await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("frank",), ok=False),
        "shot_limit",
    )


async def test_critical_fumble_jam_and_clearing_it_over_rounds(om: Env) -> None:
    gm = await om.join()
    om.dice.script(*pct(5), 20)  # 05 <= 6: critical, maximum damage (12), head
    ack = await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("frank",))
    card = ack["cards"][0]
    assert card["outcome"]["key"] == "critical" and roles(card)[-1] == ("location", 20)
    assert "Crítico: daño máximo" in lines(card) and "Bala: 12 de daño en cabeza" in lines(card)
    frank = token(ack, "frank")
    assert frank["added"] == ["wounded"] and frank["numbers"]["hp"] == 3
    await advance(gm, "round")
    om.dice.script(*pct(96))  # 60 % fumbles on 96-00
    ack = await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",))
    assert ack["cards"][0]["outcome"]["key"] == "fumble"
    assert "¡Colt M1911 se encasquilla!" in lines(ack["cards"][0])
    assert token(ack, "jimmy")["added"] == ["jammed"]
    refused(
        await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",), ok=False),
        "weapon_jammed",
    )
    refused(
        await act(gm, "roll", "jimmy", "reload", {"weapon": "navaja"}, ok=False), "not_a_firearm"
    )
    om.dice.script(*pct(40))  # half of 60 % (with the extra action -20): 10 %: failure
    ack = await act(gm, "roll", "jimmy", "clear_jam", {"weapon": "colt"})
    assert "Mitad de la habilidad: -30" in lines(ack["cards"][0])
    assert "Colt M1911 sigue encasquillada" in lines(ack["cards"][0])
    await advance(gm, "round")
    om.dice.script(*pct(10))  # 30 %: success; a pistol takes 2 rounds
    ack = await act(gm, "roll", "jimmy", "clear_jam", {"weapon": "colt"})
    assert "Colt M1911 estará lista en 2 asaltos" in lines(ack["cards"][0])
    refused(
        await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",), ok=False),
        "jam_clearing",
    )
    ack = await advance(gm, "round", 2)
    assert "Jimmy Brincos: colt vuelve a funcionar" in lines(ack["cards"][0])
    assert token(ack, "jimmy")["removed"] == ["jammed"]


async def test_aimed_rifle_shot_picks_the_location(om: Env) -> None:
    gm = await om.join()
    ack = await act(gm, "attack", "tony", "aim", {"weapon": "springfield"}, ("jimmy",))
    assert token(ack, "tony")["added"] == ["aiming"]
    refused(
        await act(
            gm,
            "attack",
            "tony",
            "attack",
            {"weapon": "springfield", "location": "head"},
            ("jimmy",),
            ok=False,
        ),
        "location_needs_aimed_rifle",
    )
    await advance(gm, "round", 2)
    om.dice.script(*pct(60), 3, 3)  # 55 + 15 = 70 %; 2d6+4, no location die
    ack = await act(
        gm, "attack", "tony", "attack", {"weapon": "springfield", "location": "head"}, ("jimmy",)
    )
    card = ack["cards"][0]
    assert "Disparo apuntado: +15" in lines(card) and "Bala: 10 de daño en cabeza" in lines(card)
    assert [r for r, _ in roles(card)] == ["attack.tens", "attack.units", "damage", "damage"]
    assert token(ack, "tony")["removed"] == ["aiming"]


async def test_impossible_attacks_are_refused_with_their_codes(om: Env) -> None:
    gm = await om.join()
    jimmy = await om.join("player", "player-jimmy")
    colt, thompson = {"weapon": "colt"}, {"weapon": "thompson"}
    cases = [
        (gm, "jimmy", {**colt, "mode": "concentrated"}, ("tony",), "mode_not_available"),
        (gm, "frank", {**thompson, "mode": "single"}, ("tony",), "thompson_mode_required"),
        (
            gm,
            "frank",
            {**thompson, "mode": "short_burst", "precise": 30},
            ("tony",),
            "thompson_no_precise",
        ),
        (gm, "frank", {"weapon": "lupara"}, ("tony",), "range_needed"),
        (gm, "frank", {"weapon": "lupara", "range_m": 12}, ("tony",), "out_of_range"),
        (gm, "jimmy", {"weapon": "navaja", "precise": 30}, ("tony",), "precise_firearm_only"),
        (gm, "jimmy", {**colt, "precise": 10}, ("tony",), "precise_too_small"),
        (gm, "jimmy", colt, ("jimmy",), "self_target"),
        (gm, "jimmy", colt, ("tony", "frank"), "one_target_only"),
        (gm, "jimmy", {"weapon": "bazooka"}, ("tony",), "unknown_weapon"),
        (jimmy, "frank", {**thompson, "mode": "concentrated"}, ("tony",), "not_your_actor"),
        (
            gm,
            "frank",
            {**thompson, "mode": "empty", "gaps": "3"},
            ("tony", "jimmy"),
            "chain_too_far",
        ),
        (
            gm,
            "frank",
            {**thompson, "mode": "empty", "gaps": "x"},
            ("tony", "jimmy"),
            "invalid_list",
        ),
    ]
    for client, actor, params, targets, code in cases:
        refused(await act(client, "attack", actor, "attack", params, targets, ok=False), code)
    refused(
        await act(jimmy, "damage_apply", "jimmy", "gm_damage", {"amount": 3}, ("tony",), ok=False),
        "gm_only",
    )
    refused(await act(jimmy, "roll", "jimmy", "initiative", {}, ("tony",), ok=False), "gm_only")
    # ammunition: the Don sets Frank's magazines through actor_upsert
    assert gm.welcome is not None
    frank = next(a for a in gm.welcome["actors"] if a["id"] == "frank")
    upsert = {
        "id": "frank",
        "name": "Frank",
        "owner": "player-frank",
        "sheet": frank["sheet"],
        "state": {"ammo": {"thompson": 24, "lupara": 0}},
    }
    assert (await gm.call("actor_upsert", {"id": rid(), "actor": upsert}))["ok"]
    refused(
        await act(
            gm, "attack", "frank", "attack", {**thompson, "mode": "empty"}, ("tony",), ok=False
        ),
        "magazine_below_half",
    )
    refused(
        await act(
            gm, "attack", "frank", "attack", {"weapon": "lupara", "range_m": 3}, ("tony",), ok=False
        ),
        "no_ammo",
    )
    upsert["state"] = {"ammo": {"thompson": 2, "lupara": 2}}
    assert (await gm.call("actor_upsert", {"id": rid(), "actor": upsert}))["ok"]
    refused(
        await act(
            gm,
            "attack",
            "frank",
            "attack",
            {**thompson, "mode": "short_burst"},
            ("tony",),
            ok=False,
        ),
        "not_enough_ammo",
    )
    ack = await act(gm, "roll", "frank", "reload", {"weapon": "thompson"})
    assert "Munición de Thompson M1928: 50/50" in lines(ack["cards"][0])
    assert token(ack, "frank")["numbers"]["ammo.thompson"] == 50


async def test_the_thompsons_four_modes(om: Env) -> None:
    """Frank (Metralleta 55 %, DES 13, FUE 14: at most 6 + 7 = 13 bullets hit a target)."""
    gm = await om.join()
    frank = await om.join("player", "player-frank")
    jimmy = await om.join("player", "player-jimmy")
    gun = {"weapon": "thompson"}
    # concentrated fire: 20 vs 55 %, category 35: 1 + 7 bullets, but the d20 fired only 2
    om.dice.script(*pct(20), 2, 1, 1)
    ack = await act(frank, "attack", "frank", "attack", {**gun, "mode": "concentrated"}, ("tony",))
    card = ack["cards"][0]
    assert card["title"] == "Frank: Thompson M1928 (concentrar fuego)"
    assert [r for r, _ in roles(card)] == [
        "attack.tens",
        "attack.units",
        "bullets",
        "damage.1",
        "damage.2",
    ]
    assert "Tope de balas que impactan (DES/2+FUE/2): 13" in lines(card)
    assert "Balas disparadas: 2" in lines(card) and "Balas que impactan: 2" in lines(card)
    assert "Tony el Sordo: 14 → 8 PV (de 14)" in lines(card)
    assert token(ack, "frank")["numbers"]["ammo.thompson"] == 48
    # short burst: second attack this round (-20): 10 vs 35 %; 1D3 = 2 hit; first bullet
    # located (d20 8 = abdomen), the rest to the chest
    om.dice.script(*pct(10), 2, 8, 1, 1)
    ack = await act(frank, "attack", "frank", "attack", {**gun, "mode": "short_burst"}, ("tony",))
    card = ack["cards"][0]
    assert [r for r, _ in roles(card)][2:] == ["hits", "location", "damage.1", "damage.2"]
    assert "Bala: 3 de daño en abdomen" in lines(card) and "Bala: 3 de daño en pecho" in lines(card)
    assert token(ack, "frank")["numbers"]["ammo.thompson"] == 45
    await advance(gm, "round")
    # long burst over Tony and Jimmy 2 m apart: one roll, 4 bullets lost between them
    om.dice.script(*pct(20), 1, 1, 1, 5)
    ack = await act(
        frank,
        "attack",
        "frank",
        "attack",
        {**gun, "mode": "long_burst", "gaps": "2"},
        ("tony", "jimmy"),
    )
    card = ack["cards"][0]
    assert "Balas perdidas entre blancos: 4" in lines(card)
    assert "Barrido sobre Tony el Sordo: Éxito" in lines(card)
    assert "Barrido sobre Jimmy Brincos: Éxito" in lines(card)
    assert set(token(ack, "tony")["added"]) == {"unconscious", "bleeding"}
    assert token(ack, "jimmy")["numbers"]["hp"] == 11
    assert token(ack, "frank")["numbers"]["ammo.thompson"] == 35
    # empty the magazine on Jimmy and the doctor 1 m apart: 13 bullets hit, one damage roll
    # (d10 4 + 2) + 5 per bullet = 71 for the attacker to spread
    om.dice.script(*pct(30), 4)
    ack = await act(
        frank,
        "attack",
        "frank",
        "attack",
        {**gun, "mode": "empty", "gaps": "1"},
        ("jimmy", "sanderson"),
    )
    card = ack["cards"][0]
    assert "Balas que impactan: 13" in lines(card) and "Daño total a repartir: 71" in lines(card)
    assert token(ack, "frank")["numbers"]["ammo.thompson"] == 0
    (spread,) = card["actions"]
    assert (spread["id"], spread["actor"], [p["name"] for p in spread["ask"]]) == (
        "spread",
        "frank",
        ["split"],
    )
    refused(await press(jimmy, card, "spread", {"split": "6,65"}), "not_allowed")
    refused(await press(frank, card, "spread", {"split": "1,1"}), "split_mismatch")
    ack = await press(frank, card, "spread", {"split": "6,65"})
    assert ack["ok"], ack
    assert lines(ack["cards"][0])[0] == "Daño para Jimmy Brincos: 6"
    assert token(ack, "jimmy")["numbers"] == {
        "hp": 5,
        "hp_max": 18,
        "bullets_in": 2,
        "ammo.colt": 7,
        "ammo.cuchillo_arrojadizo": 3,
    }
    doc = token(ack, "sanderson")
    assert set(doc["added"]) == {"unconscious", "bleeding", "wounded"}
    assert doc["numbers"]["bullets_in"] == 12  # 13 bullets shared 1 : 12 like the damage
    refused(await press(frank, card, "spread", {"split": "6,65"}), "follow_up_used")
    await advance(gm, "round")
    refused(
        await act(
            frank,
            "attack",
            "frank",
            "attack",
            {**gun, "mode": "concentrated"},
            ("jimmy",),
            ok=False,
        ),
        "no_ammo",
    )


# -- melee --------------------------------------------------------------------------------


async def test_melee_blows_and_the_defence_follow_ups(om: Env) -> None:
    gm = await om.join()
    jimmy = await om.join("player", "player-jimmy")
    frank = await om.join("player", "player-frank")
    knife = {"weapon": "navaja"}
    om.dice.script(*pct(20))  # Arma blanca 45 %
    blow = (await act(jimmy, "attack", "jimmy", "attack", knife, ("frank",)))["cards"][0]
    assert "Frank puede parar, esquivar o recibir el golpe" in lines(blow)
    assert [(b["id"], b["actor"], b["allowed"]) for b in blow["actions"]] == [
        ("parry", "frank", "owner"),
        ("dodge", "frank", "owner"),
        ("take", "frank", "owner"),
    ]
    parry = blow["actions"][0]
    assert parry["ask"][0]["name"] == "parry_with"
    assert parry["ask"][0]["choices"] == ["bate", "punos", "unarmed"]
    refused(await press(jimmy, blow, "parry", {"parry_with": "bate"}), "not_allowed")
    om.dice.script(*pct(30))  # the bat parries with Pelea 55 %
    ack = await press(frank, blow, "parry", {"parry_with": "bate"})
    card = ack["cards"][0]
    assert card["title"] == "Frank para el golpe de Jimmy Brincos (Navaja)"
    assert [r for r, _ in roles(card)] == ["parry.tens", "parry.units"]
    assert "Golpe parado: sin daño" in lines(card)
    refused(await press(frank, blow, "take"), "blow_answered")  # one answer per blow
    # a second blow, parried unarmed (-20 for the second parry): half damage
    om.dice.script(*pct(10))
    blow = (await act(jimmy, "attack", "jimmy", "attack", knife, ("frank",)))["cards"][0]
    om.dice.script(*pct(20), 12, 4)  # melee table 12 = chest; 1d4+2 = 6, halved
    ack = await press(frank, blow, "parry", {"parry_with": "unarmed"})
    card = ack["cards"][0]
    assert "Parada adicional en el asalto: -20" in lines(card)
    assert "Golpe parado con el cuerpo" in lines(card)
    assert "Parada desarmada: mitad del daño" in lines(card)
    assert token(ack, "frank")["numbers"]["hp"] == 12
    # fists cannot be parried with a weapon; the dodge then avoids Jimmy for the round
    om.dice.script(*pct(10))
    blow = (await act(jimmy, "attack", "jimmy", "attack", {"weapon": "punos"}, ("frank",)))[
        "cards"
    ][0]
    refused(await press(frank, blow, "parry", {"parry_with": "bate"}), "cannot_parry_natural")
    om.dice.script(*pct(10))
    ack = await press(frank, blow, "dodge")
    assert "Evita todos los ataques de Jimmy Brincos este asalto" in lines(ack["cards"][0])
    ack = await act(jimmy, "attack", "jimmy", "attack", knife, ("frank",))
    assert ack["cards"][0]["dice"] == []
    assert "Frank ya esquivó a Jimmy Brincos este asalto: el ataque no alcanza" in lines(
        ack["cards"][0]
    )
    # Tony (the Don's) punches Jimmy, whose player takes it (fists: contusion)
    om.dice.script(*pct(10))
    blow = (await act(gm, "attack", "tony", "attack", {"weapon": "punos"}, ("jimmy",)))["cards"][0]
    om.dice.script(19, 3)  # melee 19 = head; 1d3
    ack = await press(jimmy, blow, "take")
    assert ack["ok"], ack
    assert "3 de daño de contusión en cabeza" in lines(ack["cards"][0])
    # an unaware target cannot defend: the blow lands at once
    await advance(gm, "round")
    om.dice.script(*pct(10), 1, 1)
    ack = await act(gm, "attack", "tony", "attack", {**knife, "unaware": True}, ("frank",))
    assert ack["cards"][0]["actions"] == []
    assert "No puede pararse ni esquivarse" in lines(ack["cards"][0])


# -- bleeding, time, undo -----------------------------------------------------------------


async def test_first_aid_within_five_rounds_then_late_then_bleeding_out(om: Env) -> None:
    gm = await om.join()
    doc = await om.join("player", "player-sanderson")
    ack = await act(gm, "damage_apply", None, "gm_damage", {"amount": 20}, ("tony", "jimmy"))
    for who in ("tony", "jimmy"):
        assert set(token(ack, who)["added"]) == {"unconscious", "bleeding", "wounded"}
    assert "Tony el Sordo cae inconsciente y se desangra: Primeros auxilios antes de 5 asaltos" in (
        lines(ack["cards"][0])
    )
    await advance(gm, "round", 4)  # still within the 5 rounds: no penalty
    om.dice.script(*pct(60), 3)  # Primeros auxilios 70 %
    ack = await act(doc, "heal", "sanderson", "first_aid", {}, ("tony",))
    card = ack["cards"][0]
    assert card["title"] == "Dr. Sanderson intenta salvar a Tony el Sordo"
    assert "Porcentaje final: 70%" in lines(card)
    assert "Tony el Sordo recupera la conciencia: 0 PV + 3" in lines(card)
    tony = token(ack, "tony")
    assert set(tony["removed"]) == {"unconscious", "bleeding"} and tony["numbers"]["hp"] == 3
    await advance(gm, "round", 3)  # Jimmy has bled 7 rounds: -10 % per round after the 5th
    om.dice.script(*pct(50))
    ack = await act(doc, "heal", "sanderson", "first_aid", {}, ("jimmy",))
    card = ack["cards"][0]
    assert "Asaltos de retraso: -30" in lines(card) and "Porcentaje final: 40%" in lines(card)
    assert "Jimmy Brincos sigue desangrándose" in lines(card)
    ack = await advance(gm, "round", 7)
    assert "Jimmy Brincos sigue desangrándose" not in lines(ack["cards"][0])
    assert "statuses" not in {k for t in ack["tokens"] if t["actor"] == "jimmy" for k in t}
    ack = await advance(gm, "round")  # the 15th round (setting bleed_out_rounds)
    assert "Jimmy Brincos muere desangrado" in lines(ack["cards"][0])
    jimmy = token(ack, "jimmy")
    assert jimmy["added"] == ["dead"] and jimmy["statuses"] == ["dead"]
    assert jimmy["labels"] == {"dead": "Muerto"}
    refused(
        await act(doc, "heal", "sanderson", "first_aid", {}, ("jimmy",), ok=False), "target_dead"
    )


async def test_time_advance_runs_the_timers(om: Env) -> None:
    gm = await om.join()
    # round: a shoot-out dodge lasts the round
    om.dice.script(*pct(10))
    ack = await act(gm, "roll", "tony", "dodge", {})
    assert token(ack, "tony")["added"] == ["dodging"]
    ack = await advance(gm, "round")
    assert ack["cards"][0]["title"] == "Pasa el tiempo"
    assert lines(ack["cards"][0])[0] == "Pasan 1 asaltos"
    assert token(ack, "tony")["removed"] == ["dodging"]
    # minute: 16 points of contusion on 14 HP: out for 2 minutes
    ack = await act(
        gm, "damage_apply", None, "gm_damage", {"amount": 16, "kind": "contusion"}, ("tony",)
    )
    assert "Tony el Sordo cae inconsciente durante 2 minutos" in lines(ack["cards"][0])
    ack = await advance(gm, "minute")
    assert "unconscious" in token(ack, "tony")["statuses"] if ack["tokens"] else True
    ack = await advance(gm, "minute")
    assert "Tony el Sordo recupera el conocimiento" in lines(ack["cards"][0])
    assert token(ack, "tony")["removed"] == ["unconscious"]
    # hour: an unextracted bullet asks for CON x5 at hours 2, 4, 6, 7...
    await act(gm, "damage_apply", None, "gm_damage", {"amount": 3, "bullet": True}, ("frank",))
    om.dice.script(*pct(50))
    ack = await advance(gm, "hour", 2)
    assert [r for r, _ in roles(ack["cards"][0])] == ["con.h2.tens", "con.h2.units"]
    assert "Frank: tirada de CON por la bala (hora 2, 70%): Éxito" in lines(ack["cards"][0])
    om.dice.script(*pct(80))
    ack = await advance(gm, "hour", 2)
    assert "Frank muere por la pérdida de sangre y el shock" in lines(ack["cards"][0])
    assert token(ack, "frank")["added"] == ["dead"]
    # day: natural recovery at rest (CON 13: 1 point; contusion all back). Tony dodged today,
    # which is no rest, but the Don rules he rested.
    await act(gm, "damage_apply", None, "gm_damage", {"amount": 4}, ("jimmy",))
    ack = await act(gm, "gm_action", None, "gm_condition", {"change": "resting"}, ("tony",))
    assert lines(ack["cards"][0]) == ["Tony el Sordo guarda reposo hoy"]
    ack = await advance(gm, "day")
    text = lines(ack["cards"][0])
    assert "Jimmy Brincos recupera 1 PV (queda a 15)" in text
    assert "Tony el Sordo recupera 16 PV de contusión" in text
    tony = token(ack, "tony")
    assert tony["numbers"]["hp"] == 14 and tony["removed"] == ["wounded"]


async def test_undo_of_a_damage_application_restores_the_actor_exactly(om: Env) -> None:
    gm = await om.join()
    assert gm.welcome is not None
    before = next(a for a in gm.welcome["actors"] if a["id"] == "tony")
    om.dice.script(*pct(10), 5, 10)
    shot = await act(gm, "attack", "jimmy", "attack", {"weapon": "colt"}, ("tony",))
    assert token(shot, "tony")["numbers"]["hp"] == 2
    ack = await act(gm, "damage_apply", None, "gm_damage", {"amount": 9}, ("tony",))
    assert set(token(ack, "tony")["added"]) == {"unconscious", "bleeding"}
    after_shot = await actor_state(gm, "tony", shot["seq"])
    undo = await gm.call("undo", {"id": rid(), "seq": ack["seq"]})
    assert undo["ok"], undo
    tony = token(undo, "tony")
    assert set(tony["removed"]) == {"unconscious", "bleeding"} and tony["numbers"]["hp"] == 2
    restored = await actor_state(gm, "tony", undo["seq"])
    assert restored == after_shot
    undo = await gm.call("undo", {"id": rid(), "seq": shot["seq"]})
    assert undo["ok"], undo
    restored = await actor_state(gm, "tony", undo["seq"])
    assert restored["state"] == before["state"] and restored["statuses"] == before["statuses"]
    refused(await gm.call("undo", {"id": rid(), "seq": shot["seq"]}), "undo_conflict")


async def test_initiative_order_and_combat_end(om: Env) -> None:
    gm = await om.join()
    jimmy = await om.join("player", "player-jimmy")
    om.dice.script(5, 7, 6)  # Jimmy 5 + 14, Frank 7 + 12, Tony 6 + 13: all 19
    ack = await act(gm, "roll", "jimmy", "initiative", {}, ("frank", "tony"))
    card = ack["cards"][0]
    assert roles(card) == [("initiative", 5), ("initiative", 7), ("initiative", 6)]
    assert lines(card)[-1] == "Orden de actuación: Jimmy Brincos → Tony el Sordo → Frank"
    om.dice.script(10)
    ack = await act(jimmy, "roll", "jimmy", "initiative", {})
    assert lines(ack["cards"][0])[-1].startswith("Orden de actuación: Jimmy Brincos → Tony")
    ack = await act(gm, "gm_action", None, "combat_end", {})
    assert ack["cards"][0]["title"] == "Fin del combate"


async def test_the_browser_scenario_reaches_a_status(om: Env) -> None:
    gm = await om.join()
    plan = scenario.load("omerta")
    rounds = await scenario.play(gm, plan)
    assert 1 <= rounds <= plan["max_rounds"]


async def test_throwing_knives_are_counted_and_picked_up(om: Env) -> None:
    gm = await om.join()
    knives = {"weapon": "cuchillo_arrojadizo"}
    for rolled in (90, 90, 90):  # Lanzar 40 % (less each extra action): three misses
        om.dice.script(*pct(rolled))
        ack = await act(gm, "attack", "jimmy", "attack", knives, ("tony",))
    assert "Munición de Cuchillo arrojadizo: 0/3" in lines(ack["cards"][0])
    assert token(ack, "jimmy")["numbers"]["ammo.cuchillo_arrojadizo"] == 0
    refused(await act(gm, "attack", "jimmy", "attack", knives, ("tony",), ok=False), "no_ammo")
    ack = await act(gm, "roll", "jimmy", "reload", knives)
    assert token(ack, "jimmy")["numbers"]["ammo.cuchillo_arrojadizo"] == 3
    await advance(gm, "round")
    om.dice.script(*pct(10), 5, 2)  # missile table 5 = left leg; 1d4; a throw has no parry
    ack = await act(gm, "attack", "jimmy", "attack", knives, ("tony",))
    card = ack["cards"][0]
    assert card["actions"] == [] and "2 de daño letal en pierna izquierda" in lines(card)


async def test_opposed_characteristic_with_its_own_multiplier_and_the_dons_modifier(
    om: Env,
) -> None:
    """CON x3 against CON x3; the presser of ``oppose`` supplies only the Don's modifier."""
    gm = await om.join()
    om.dice.script(*pct(30))  # Jimmy CON 13 x3 = 39 %: category 9
    ack = await act(
        gm,
        "roll",
        "jimmy",
        "roll",
        {
            "characteristic": "con",
            "multiplier": 3,
            "opposed_characteristic": "con",
            "opposed_multiplier": 3,
        },
        ("tony",),
    )
    card = ack["cards"][0]
    (oppose,) = card["actions"]
    assert [p["name"] for p in oppose["ask"]] == ["modifier"]
    refused(await press(gm, card, "oppose", {"multiplier": 5}), "invalid_param")
    om.dice.script(*pct(20))  # Tony CON 12 x3 = 36 % + 10: category 26
    ack = await press(gm, card, "oppose", {"modifier": 10})
    result = ack["cards"][0]
    assert "CON×3: 36%" in lines(result) and "Modificador del Don: +10" in lines(result)
    assert lines(result)[-1] == "Gana Tony el Sordo: por categoría de éxito"
