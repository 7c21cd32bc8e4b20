"""1o3d10 (``o3d10``) through the real server: the seed text's worked examples with scripted
dice, every follow-up chain, refusals with their codes, time, undo and the browser scenario.

Sample sheets (rules/o3d10/samples.py): Aldara Físico 8, Destreza 6, Percepción 5, Cuerpo a
Cuerpo 4, Armas a Distancia 3, Sigilo 2, Advertir/Notar 0, espada 2d6, ballesta 1d10 (1 bolt),
mail (+2): Defensa 17, Iniciativa 11. Bruno Físico 6, Destreza 7, Percepción 6, CaC 2,
Sigilo 4, Advertir 3, daga 1d6+1 and espada corta 1d6+3 (both light), leather: Defensa 14,
Iniciativa 13. Casilda Destreza 7, Armas a Distancia 5, flintlock pistol 2d6 (fails on 3 or
less), estorbo 1: Iniciativa 13. Bandido Físico 6, CaC 3, hacha 1d8+1: Defensa 14, Iniciativa 9.

Each request takes its own dice script (``env.dice.script``), queued just before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from rules.model import Actor
from rules.o3d10 import SYSTEM
from rules.o3d10.samples import SAMPLES
from support import scenario
from support.live import Client, Env, give, make_env, rid

Ack = dict[str, Any]


def lines(card: dict[str, Any]) -> list[str]:
    return [line for section in card["sections"] for line in section["lines"]]


def kept(card: dict[str, Any]) -> list[int]:
    return [d["faces"][0] for d in card["dice"] if d["kept"]]


def flags(card: dict[str, Any]) -> list[bool]:
    return [d["kept"] for d in card["dice"]]


async def send(
    env: Env,
    client: Client,
    event: str,
    actor: str | None,
    action: str,
    params: dict[str, Any] | None = None,
    targets: Iterable[str] = (),
    dice: Iterable[int] | None = None,
) -> Ack:
    if dice is not None:
        env.dice.script(*dice)
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
    env: Env,
    client: Client,
    card: dict[str, Any],
    follow: str,
    params: dict[str, Any] | None = None,
    dice: Iterable[int] | None = None,
) -> Ack:
    if dice is not None:
        env.dice.script(*dice)
    payload = {"id": rid(), "card": card["card_id"], "action": follow, "params": params or {}}
    return await client.call("card_action", payload)


def ok(ack: Ack) -> dict[str, Any]:
    """The ack's only card."""
    assert ack["ok"], ack
    (card,) = ack["cards"]
    return card


def code(ack: Ack) -> str:
    assert not ack["ok"], ack
    assert ack["error"]["message"]
    return str(ack["error"]["code"])


async def table(env: Env) -> tuple[Client, Client, Client]:
    """The GM, Ana (owns Aldara) and Beto (owns Bruno)."""
    gm = await env.join()
    assert gm.welcome is not None
    await give(gm, "aldara", "ana", gm.welcome)
    await give(gm, "bruno", "beto", gm.welcome)
    ana = await env.join("player", "ana")
    beto = await env.join("player", "beto", locale="en")
    return gm, ana, beto


def actor_of(client: Client, actor_id: str) -> dict[str, Any]:
    assert client.welcome is not None
    return next(a for a in client.welcome["actors"] if a["id"] == actor_id)


async def last_actor_update(client: Client, actor_id: str) -> dict[str, Any]:
    while True:
        push = await client.next_push("actor_update")
        if push["actor"] and push["actor"]["id"] == actor_id:
            return push["actor"]  # type: ignore[no-any-return]


# -- Tiradas: 1o3d10 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "flags_", "die"),
    [
        # 'Ejemplo con dado medio: 5, 3, 9 = 5 ; 4,4,2 = 4 ; 8, 6, 1 = 6 ; 10,7,10 = 10 suma y sigue.'
        ((5, 3, 9), [True, False, False], 5),
        ((4, 4, 2), [True, False, False], 4),
        ((8, 6, 1), [False, True, False], 6),
        ((10, 7, 10, 4, 4, 2), [True, False, False, True, False, False], 14),
    ],
)
async def test_the_median_examples(
    env: Env, faces: tuple[int, ...], flags_: list[bool], die: int
) -> None:
    gm = await env.join()
    card = ok(
        await send(env, gm, "roll", "aldara", "attribute", {"attribute": "fisico"}, (), faces)
    )
    assert [d["faces"] for d in card["dice"]] == [[f] for f in faces]
    assert {d["role"] for d in card["dice"]} == {"objetivo"}
    assert flags(card) == flags_
    assert lines(card)[0] == "Dado objetivo: el medio"
    assert f"Físico 8 + 1o3d10 {die}" in lines(card)
    assert lines(card)[-1] == f"Total {8 + die}"
    assert card["outcome"]["key"] == "rolled"
    if len(faces) > 3:
        assert [d["group"] for d in card["dice"]] == [0, 0, 0, 1, 1, 1]
        assert "¡Diez en el dado objetivo! Suma y sigue: 10 + 4" in lines(card)


@pytest.mark.parametrize(
    ("faces", "die"),
    [
        # 'Ejemplo con dado alto: 5,3,9 = 9; 4,4,2 = 4; 8,6,1 = 8; 10,7,10 = 10 suma y sigue
        #  (guardando otra vez el mayor).'
        ((5, 3, 9), 9),
        ((4, 4, 2), 4),
        ((8, 6, 1), 8),
        ((10, 7, 10, 3, 5, 2), 15),
    ],
)
async def test_the_highest_die_examples(env: Env, faces: tuple[int, ...], die: int) -> None:
    gm = await env.join()
    params = {"attribute": "fisico", "keep": "highest"}
    card = ok(await send(env, gm, "roll", "aldara", "attribute", params, (), faces))
    assert lines(card)[0] == "Dado objetivo: el mayor (por decisión del Director)"
    assert sum(kept(card)) == die and lines(card)[-1] == f"Total {8 + die}"


async def test_the_token_keeps_the_highest_and_handed_back_the_lowest(env: Env) -> None:
    gm, ana, _ = await table(env)
    gm.drain()
    params = {"attribute": "fisico", "give_token": True}
    card = ok(await send(env, ana, "roll", "aldara", "attribute", params, (), (5, 3, 9)))
    assert lines(card)[0] == "Dado objetivo: el mayor (token entregado)" and kept(card) == [9]
    assert (await last_actor_update(gm, "aldara"))["state"]["token"] == "gm"
    again = await send(env, ana, "roll", "aldara", "attribute", params, (), (5, 3, 9))
    assert code(again) == "token_not_held"
    assert code(await send(env, ana, "roll", "aldara", "token_return")) == "gm_only"
    back = ok(await send(env, gm, "roll", "aldara", "token_return"))
    assert lines(back) == ["La próxima tirada de Aldara guardará el dado menor"]
    card = ok(
        await send(env, ana, "roll", "aldara", "attribute", {"attribute": "fisico"}, (), (5, 3, 9))
    )
    assert lines(card)[0] == "Dado objetivo: el menor (token devuelto)" and kept(card) == [3]
    assert (await last_actor_update(gm, "aldara"))["state"]["token"] == "returned"
    assert (await last_actor_update(gm, "aldara"))["state"]["token"] == "player"
    assert code(await send(env, gm, "roll", "aldara", "token_return")) == "token_not_with_gm"
    forced = await send(
        env, ana, "roll", "aldara", "attribute", {"attribute": "fisico", "keep": "highest"}
    )
    assert code(forced) == "keep_is_gm_only"


async def test_difficulty_ladders(env: Env) -> None:
    gm = await env.join()
    attribute = {"facil": 9, "normal": 12, "dificil": 15, "muy_dificil": 18, "casi_imposible": 21}
    skill = {"facil": 10, "normal": 15, "dificil": 20, "muy_dificil": 25, "casi_imposible": 30}
    for level, difficulty in attribute.items():
        params = {"attribute": "fisico", "level": level}
        card = ok(await send(env, gm, "roll", "aldara", "attribute", params, (), (5, 5, 5)))
        assert lines(card)[-1] == f"Dificultad {difficulty}"
        assert card["outcome"]["margin"] == 13 - difficulty
    for level, difficulty in skill.items():
        params = {"skill": "cuerpo_a_cuerpo", "level": level}
        card = ok(await send(env, gm, "roll", "aldara", "skill", params, (), (5, 5, 5)))
        assert "Físico 8 + Cuerpo a Cuerpo 4 + 1o3d10 5" in lines(card)
        assert lines(card)[-1] == f"Dificultad {difficulty}"
    # 'Granularidad: ... tiradas con dificultad de 12 o 18 también funciona'
    card = ok(
        await send(
            env, gm, "roll", "aldara", "skill", {"skill": "sigilo", "difficulty": 18}, (), (9, 9, 9)
        )
    )
    assert card["outcome"] == {"key": "failure", "label": "Fallo", "success": False, "margin": -1}
    both = {"skill": "sigilo", "difficulty": 18, "level": "normal"}
    assert code(await send(env, gm, "roll", "aldara", "skill", both, (), (5, 5, 5))) == (
        "invalid_param"
    )


async def test_natural_one_fumble_and_critical(env: Env) -> None:
    gm = await env.join()

    async def sigilo(difficulty: int, faces: tuple[int, ...]) -> dict[str, Any]:
        params = {"skill": "sigilo", "difficulty": difficulty}
        return ok(await send(env, gm, "roll", "aldara", "skill", params, (), faces))

    # 'un 1 natural (un 1 de resultado en el dado objetivo) siempre es fallo en tiradas de
    #  habilidad': 8 + 1 = 9 beats 5 and still fails.
    card = await sigilo(5, (1, 1, 7))
    assert card["outcome"]["key"] == "failure"
    assert "Un 1 natural en el dado objetivo siempre falla una tirada de habilidad" in lines(card)
    # 'Una pifia es un 1 en el dado guardado, y <=5 en el dado inmediatamente anterior'
    assert (await sigilo(5, (1, 1, 5)))["outcome"]["key"] == "fumble"
    assert (await sigilo(5, (1, 1, 6)))["outcome"]["key"] == "failure"
    # 'Una tirada de crítico ... es una que supera en 10 la dificultad': 8 + 7 = 15 = 5 + 10.
    assert (await sigilo(5, (7, 7, 7)))["outcome"]["key"] == "critical"
    assert (await sigilo(5, (6, 6, 6)))["outcome"]["key"] == "success"
    # Attribute rolls: a natural 1 is not a failure by itself (Físico 8 + 1 = 9 = Fácil).
    params = {"attribute": "fisico", "level": "facil"}
    card = ok(await send(env, gm, "roll", "aldara", "attribute", params, (), (1, 1, 7)))
    assert card["outcome"]["key"] == "success"


async def test_opposed_arm_wrestling_through_the_follow_up(env: Env) -> None:
    """'Ejemplo: un pulso sería tiradas enfrentadas de Físico.'"""
    gm, ana, beto = await table(env)
    params = {"attribute": "fisico", "opposed_attribute": "fisico"}
    card = ok(await send(env, ana, "roll", "aldara", "attribute", params, ["bruno"], (5, 5, 5)))
    assert card["outcome"] is None and lines(card)[-1] == "Bruno debe responder con Físico"
    (follow,) = card["actions"]
    assert (follow["id"], follow["actor"], follow["allowed"]) == ("oppose", "bruno", "owner")
    assert code(await press(env, ana, card, "oppose")) == "not_allowed"
    # Bruno: Físico 6 + 7 = 13 against Aldara's 8 + 5 = 13: a tie is rolled again.
    answer = ok(await press(env, beto, card, "oppose", dice=(7, 7, 7)))
    assert answer["title"] == "Opposed roll: Aldara against Bruno"
    assert answer["outcome"]["key"] == "tie" and lines(answer)[-1] == "Tie: roll again"
    assert code(await press(env, beto, card, "oppose", dice=(7, 7, 7))) == "follow_up_used"
    card = ok(await send(env, ana, "roll", "aldara", "attribute", params, ["bruno"], (5, 5, 5)))
    answer = ok(await press(env, gm, card, "oppose", dice=(4, 4, 4)))
    assert lines(answer)[-1] == "Gana Aldara" and answer["outcome"]["key"] == "failure"


async def test_hiding_ambush_and_the_free_first_attack(env: Env) -> None:
    """'alguien intenta esconderse (Destreza + Sigilo + 1o3d10) y alguien intenta encontrarlo
    (Percepción + Advertir/Notar + 1o3d10)' and 'Emboscadas ... el primer ataque es gratuito'."""
    _gm, ana, beto = await table(env)
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar", "ambush": True}
    card = ok(await send(env, beto, "roll", "bruno", "skill", params, ["aldara"], (5, 5, 5)))
    # Beto reads English.
    assert "Dexterity 7 + Sigilo 4 + 1o3d10 5" in lines(card)
    assert "Ambush: on a win the first attack is free" in lines(card)
    # Aldara has no points in Advertir/Notar: she keeps the lowest (2): 5 + 0 + 2 = 7 < 16.
    answer = ok(await press(env, ana, card, "oppose", dice=(2, 3, 9)))
    assert lines(answer)[0] == "Dado objetivo: el menor (habilidad desconocida)"
    assert "Percepción 5 + Advertir/Notar 0 + 1o3d10 2" in lines(answer)
    assert "Gana Bruno" in lines(answer)
    assert "¡Emboscada con éxito! El primer ataque de Bruno contra Aldara es gratuito" in lines(
        answer
    )
    # Initiative: Bruno 13 + 5 = 18 (one action). The free attack does not spend it.
    ok(await send(env, beto, "roll", "bruno", "initiative", {}, (), (5, 5, 5)))
    first = ok(
        await send(env, beto, "attack", "bruno", "attack", {"weapon": "daga"}, ["aldara"], (5,) * 3)
    )
    assert lines(first)[0] == "Free attack from Bruno's ambush on Aldara"
    second = await send(env, beto, "attack", "bruno", "attack", {"weapon": "daga"}, ["aldara"])
    assert second["ok"] and "Free attack" not in " ".join(lines(second["cards"][0]))
    third = await send(env, beto, "attack", "bruno", "attack", {"weapon": "daga"}, ["aldara"])
    assert code(third) == "no_actions_left"


# -- Circunstancias especiales ---------------------------------------------------------------


async def test_badly_hurt_unknown_skill_and_split(env: Env) -> None:
    gm, ana, _ = await table(env)
    # 'Malherido ... guarda el dado menor': Físico 8, 24 wounds.
    ok(await send(env, gm, "damage_apply", "aldara", "damage_apply", {"amount": 24}))
    params = {"attribute": "fisico"}
    card = ok(await send(env, ana, "roll", "aldara", "attribute", params, (), (5, 3, 9)))
    assert lines(card)[0] == "Dado objetivo: el menor (malherido)" and kept(card) == [3]
    # The token cancels it (ruling 1): median again.
    token = {"attribute": "fisico", "give_token": True}
    card = ok(await send(env, ana, "roll", "aldara", "attribute", token, (), (5, 3, 9)))
    assert lines(card)[0] == "Dado objetivo: el medio (malherido, token entregado)"
    ok(await send(env, gm, "heal", "aldara", "heal_wounds", {"amount": 24}))
    # 'Dividir Acciones ... guardará dado menor en ambas acciones'
    split = {"weapon": "espada", "split": True}
    card = ok(await send(env, ana, "attack", "aldara", "attack", split, ["bruno"], (5, 3, 9)))
    assert lines(card)[0] == "Dado objetivo: el menor (acciones divididas)"
    # 'Esto no es aplicable si ... ya está guardando dado menor': unknown skill + split = lowest.
    params = {"skill": "advertir_notar", "split": True}
    card = ok(await send(env, ana, "roll", "aldara", "skill", params, (), (5, 3, 9)))
    assert lines(card)[0] == "Dado objetivo: el menor (habilidad desconocida, acciones divididas)"


# -- Estados de salud ---------------------------------------------------------------------------


async def test_fisico_8_bands_through_damage_application(env: Env) -> None:
    """'Ejemplo: Con Físico 8 los estados serían los siguientes rangos de heridas: 0 / 24 / 32 / 48.'"""
    gm, ana, beto = await table(env)
    expected = [
        (23, [], "Normal"),
        (1, ["wounded"], "Malherido"),
        (7, ["wounded"], "Malherido"),
        (1, ["unconscious"], "Inconsciente"),
        (15, ["unconscious"], "Inconsciente"),
        (1, ["dead"], "Muerto"),
    ]
    total = 0
    beto.drain()
    for amount, statuses, state in expected:
        total += amount
        ack = await send(env, gm, "damage_apply", "aldara", "damage_apply", {"amount": amount})
        card = ok(ack)
        assert card["title"] == f"Aldara recibe {amount} de daño"
        assert "Malherido desde 24, inconsciente desde 32, muerto desde 48" in lines(card)
        assert f"Estado de salud: {state}" in lines(card)
        (token,) = ack["tokens"]
        assert token["statuses"] == statuses
        assert token["numbers"]["heridas"] == total and token["numbers"]["pv"] == 32 - total
        pushed = await beto.next_push("token_status")
        assert pushed["statuses"] == statuses
        assert pushed["labels"] == {
            s: {"wounded": "Badly hurt", "unconscious": "Unconscious", "dead": "Dead"}[s]
            for s in statuses
        }
    assert token["added"] == ["dead"] and token["removed"] == ["unconscious"]
    assert token["labels"] == {"dead": "Muerto"}
    assert code(await send(env, ana, "roll", "aldara", "attribute", {"attribute": "fisico"})) == (
        "actor_down"
    )
    assert code(await send(env, ana, "heal", "aldara", "sleep")) == "actor_down"
    assert code(await send(env, ana, "damage_apply", "aldara", "damage_apply", {"amount": 1})) == (
        "gm_only"
    )


async def test_unconscious_actor_cannot_act_or_take_initiative(env: Env) -> None:
    gm, ana, _ = await table(env)
    ok(await send(env, gm, "damage_apply", "aldara", "damage_apply", {"amount": 32}))
    attack = await send(env, ana, "attack", "aldara", "attack", {"weapon": "espada"}, ["bruno"])
    assert code(attack) == "actor_down"
    assert code(await send(env, ana, "roll", "aldara", "initiative")) == "actor_down"


# -- Combate: ataque, daño ---------------------------------------------------------------------


async def test_melee_hit_damage_explodes_and_the_gm_applies_it(env: Env) -> None:
    """'2d6, 4,6 = 10 y tiramos 1 dado de nuevo, si sale 6 de nuevo, se suma (16) y se sigue
    tirando.'"""
    gm, ana, beto = await table(env)
    attack = ok(
        await send(
            env, ana, "attack", "aldara", "attack", {"weapon": "espada"}, ["bruno"], (9,) * 3
        )
    )
    assert attack["title"] == "Aldara ataca a Bruno (Espada)"
    assert lines(attack) == [
        "Dado objetivo: el medio",
        "Físico 8 + Cuerpo a Cuerpo 4 + 1o3d10 9",
        "Total 21",
        "Defensa de Bruno: 14",
        "Dificultad 14",
        "Impacta a Bruno",
    ]
    assert attack["outcome"]["key"] == "success" and attack["outcome"]["margin"] == 7
    (follow,) = attack["actions"]
    assert (follow["id"], follow["label"], follow["actor"], follow["allowed"]) == (
        "damage.0",
        "Tirar daño (2d6)",
        "aldara",
        "owner",
    )
    assert code(await press(env, beto, attack, "damage.0")) == "not_allowed"
    # The stored params are used: the presser cannot add any (the button asks for none).
    assert code(await press(env, ana, attack, "damage.0", {"extra": 5})) == "invalid_param"
    damage = ok(await press(env, ana, attack, "damage.0", dice=(4, 6, 6, 1)))
    assert [d["faces"] for d in damage["dice"]] == [[4], [6, 6, 1]]
    assert [d["total"] for d in damage["dice"]] == [4, 13]
    assert {d["role"] for d in damage["dice"]} == {"dano"}
    assert lines(damage) == [
        "Espada: 2d6, los dados explotan",
        "¡El dado explota! Se suma y se sigue tirando",
        "Daño 17",
    ]
    (apply,) = damage["actions"]
    assert (apply["id"], apply["actor"], apply["allowed"]) == ("apply", "bruno", "gm")
    assert code(await press(env, ana, damage, "apply")) == "not_allowed"
    assert code(await press(env, ana, damage, "apply", {"amount": 1})) == "not_allowed"
    applied = await press(env, gm, damage, "apply")
    card = ok(applied)
    assert lines(card)[:2] == ["Heridas: 0 → 17", "PV: 7/24"]
    assert applied["tokens"][0]["numbers"] == {"heridas": 17, "pv": 7, "pv_max": 24}
    assert code(await press(env, gm, damage, "apply")) == "follow_up_used"
    update = await ana.next_push("card_update")
    assert (update["card_id"], update["used"]) == (attack["card_id"], ["damage.0"])


async def test_margin_dice_and_melee_modifiers(env: Env) -> None:
    """'Por cada 10 que se supere la defensa se suma 1d6'; 'Por la espalda: +4 ... Flanqueando: +2'."""
    gm = await env.join()
    params = {"weapon": "espada", "behind": True, "flanking": True}
    attack = ok(await send(env, gm, "attack", "aldara", "attack", params, ["bruno"], (9,) * 3))
    assert "Por la espalda: +4" in lines(attack) and "Flanqueando: +2" in lines(attack)
    assert "Total 27" in lines(attack)
    assert "+1d6 al daño por superar la defensa en 13" in lines(attack)
    assert attack["actions"][0]["label"] == "Tirar daño (2d6 + 1d6)"
    damage = ok(await press(env, gm, attack, "damage.0", dice=(3, 2, 6, 5)))
    assert [(d["role"], d["faces"]) for d in damage["dice"]] == [
        ("dano", [3]),
        ("dano", [2]),
        ("dano.margen", [6, 5]),
    ]
    assert lines(damage)[-1] == "Daño 16"
    # A melee miss offers no damage.
    miss = ok(await send(env, gm, "attack", "bandido", "attack", {}, ["aldara"], (2, 2, 2)))
    assert "No impacta a Aldara" in lines(miss) and miss["actions"] == []
    assert lines(miss)[1] == "Físico 6 + Cuerpo a Cuerpo 3 + 1o3d10 2"
    assert "Defensa de Aldara: 17" in lines(miss)


async def test_ranged_range_circumstances_no_dodge_and_ammo(env: Env) -> None:
    _gm, ana, _ = await table(env)
    params = {"weapon": "ballesta", "range": "media", "cover": "media", "running": True}
    shot = await send(env, ana, "attack", "aldara", "attack", params, ["bruno"], (9,) * 3)
    attack = ok(shot)
    assert shot["tokens"][0]["numbers"]["municion.ballesta"] == 0
    assert lines(attack) == [
        "Munición: 0/1",
        "Dado objetivo: el medio",
        "Destreza 6 + Armas a Distancia 3 + 1o3d10 9",
        "Total 18",
        "Dificultad por distancia: 20",
        "No se puede esquivar un ataque a distancia",
        "Corriendo: +3",
        "Cobertura media: +4",
        "Dificultad 27",
        "No impacta a Bruno",
    ]
    assert attack["actions"] == []
    again = await send(env, ana, "attack", "aldara", "attack", {"weapon": "ballesta"}, ["bruno"])
    assert code(again) == "no_ammo"
    reload = await send(env, ana, "roll", "aldara", "reload", {"weapon": "ballesta"})
    assert lines(ok(reload)) == ["Munición: 1/1"]
    assert reload["tokens"][0]["numbers"]["municion.ballesta"] == 1
    assert code(await send(env, ana, "roll", "aldara", "reload", {"weapon": "ballesta"})) == (
        "already_loaded"
    )
    assert code(await send(env, ana, "roll", "aldara", "reload", {"weapon": "espada"})) == (
        "not_reloadable"
    )
    # Bocajarro 10: a hit at 6 + 3 + 2 = 11; ranged hits add no margin dice by default.
    close = {"weapon": "ballesta", "range": "bocajarro"}
    hit = ok(await send(env, ana, "attack", "aldara", "attack", close, ["bruno"], (2, 2, 2)))
    assert "Dificultad 10" in lines(hit) and hit["actions"][0]["label"] == "Tirar daño (1d10)"


async def test_ranged_weapon_in_melee_is_improvised(env: Env) -> None:
    """'debe usar su ataque cuerpo a cuerpo y un daño de arma improvisada 1d6+1'."""
    gm = await env.join()
    params = {"weapon": "pistola", "in_melee": True}
    # Casilda: Físico 5 + Cuerpo a Cuerpo 1 + 9 = 15 against Bruno's 14; no d20, no shot spent.
    attack = await send(env, gm, "attack", "casilda", "attack", params, ["bruno"], (9,) * 3)
    card = ok(attack)
    assert [d["sides"] for d in card["dice"]] == [10, 10, 10]
    assert "Defensa de Bruno: 14" in lines(card) and attack["tokens"] == []
    assert card["actions"][0]["label"] == "Tirar daño (1d6+1)"
    damage = ok(await press(env, gm, card, "damage.0", dice=(3,)))
    assert lines(damage)[0] == "Pistola de chispa: 1d6+1, los dados explotan"
    assert lines(damage)[-1] == "Daño 4"
    wrong = {"weapon": "pistola", "in_melee": True, "cover": "grande"}
    assert code(await send(env, gm, "attack", "casilda", "attack", wrong, ["bruno"])) == (
        "modifier_not_for_mode"
    )


async def test_firearm_reliability_misfire_jam_and_clearing(env: Env) -> None:
    """'deberá pasar una tirada de 1d20' (ranges are ours: the flintlock fails on 3 or less)."""
    gm = await env.join()
    fire = {"weapon": "pistola", "range": "corta"}
    misfire = await send(env, gm, "attack", "casilda", "attack", fire, ["bruno"], (3,))
    card = ok(misfire)
    assert card["outcome"]["key"] == "misfire" and card["dice"][0]["role"] == "fiabilidad"
    assert lines(card) == [
        "Munición: 0/1",
        "Fiabilidad: 1d20 3 (falla con 3 o menos)",
        "¡Pistola de chispa no dispara!",
    ]
    ok(await send(env, gm, "roll", "casilda", "reload", {"weapon": "pistola"}))
    jam = await send(env, gm, "attack", "casilda", "attack", fire, ["bruno"], (1,))
    assert ok(jam)["outcome"] == {
        "key": "jam",
        "label": "Encasquillada",
        "success": False,
        "margin": None,
    }
    (token,) = jam["tokens"]
    assert token["added"] == ["jammed"] and token["labels"] == {"jammed": "Encasquillada"}
    ok(await send(env, gm, "roll", "casilda", "reload", {"weapon": "pistola"}))
    assert code(await send(env, gm, "attack", "casilda", "attack", fire, ["bruno"])) == (
        "weapon_jammed"
    )
    cleared = await send(env, gm, "roll", "casilda", "clear_jam", {"weapon": "pistola"})
    assert ok(cleared)["title"] == "Casilda desencasquilla Pistola de chispa"
    assert cleared["tokens"][0]["removed"] == ["jammed"]
    assert code(await send(env, gm, "roll", "casilda", "clear_jam", {"weapon": "pistola"})) == (
        "not_jammed"
    )
    # It fires: d20 15, then Destreza 7 + Armas a Distancia 5 + 4 = 16 against Corta 15.
    shot = ok(await send(env, gm, "attack", "casilda", "attack", fire, ["bruno"], (15, 4, 4, 4)))
    assert lines(shot)[1] == "Fiabilidad: 1d20 15 (falla con 3 o menos)"
    assert shot["outcome"]["key"] == "success"


async def test_two_light_weapons_take_the_better_damage(env: Env) -> None:
    """'dos armas ligeras ... +3 a la tirada de ataque. El daño causado es el mayor de las armas
    usadas (1d6+1 si es la daga, 1d6+3 si es la espada corta).'"""
    gm = await env.join()
    params = {"weapon": "daga", "offhand": "espada_corta"}
    attack = ok(await send(env, gm, "attack", "bruno", "attack", params, ["bandido"], (5,) * 3))
    assert attack["title"] == "Bruno ataca a Bandido (Espada corta)"
    assert "Dos armas ligeras: +3" in lines(attack) and "Total 16" in lines(attack)
    assert attack["actions"][0]["label"] == "Tirar daño (1d6+3)"
    damage = ok(await press(env, gm, attack, "damage.0", dice=(2,)))
    assert lines(damage)[-1] == "Daño 5"
    # The rule needs light weapons and leather or no armour.
    heavy = await send(
        env, gm, "attack", "aldara", "attack", {"weapon": "espada", "offhand": "unarmed"}, ["bruno"]
    )
    assert code(heavy) == "two_weapons_not_light"
    bow = {"weapon": "espada", "offhand": "ballesta"}
    assert code(await send(env, gm, "attack", "aldara", "attack", bow, ["bruno"])) == (
        "two_weapons_melee_only"
    )
    knight = {
        "attributes": {"fisico": 5, "destreza": 5},
        "skills": {},
        "weapons": {
            "daga": {"label": "Daga", "tipo": "cuerpo", "dano": "1d6+1", "ligera": True},
            "estilete": {"label": "Estilete", "tipo": "cuerpo", "dano": "1d4", "ligera": True},
        },
        "armour": {"label": "Coraza", "tipo": "pesada", "defensa": 4},
    }
    upsert = {"id": rid(), "actor": {"id": "caballero", "name": "Caballero", "sheet": knight}}
    assert (await gm.call("actor_upsert", upsert))["ok"]
    pair = {"weapon": "daga", "offhand": "estilete"}
    assert code(await send(env, gm, "attack", "caballero", "attack", pair, ["bruno"])) == (
        "armour_too_heavy"
    )
    assert (
        code(await send(env, gm, "attack", "caballero", "attack", {"weapon": "maza"}, ["bruno"]))
        == "no_such_weapon"
    )


# -- Iniciativa y acciones --------------------------------------------------------------------


async def test_initiative_action_counts_and_the_actions_they_allow(env: Env) -> None:
    """'Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 acciones, 40 o más, 4 acciones'."""
    gm = await env.join()
    rolls = [
        ("aldara", (8, 8, 8), 19, 1),  # Iniciativa 11 + 8
        ("bruno", (7, 7, 7), 20, 2),  # 13 + 7
        ("casilda", (10, 10, 1, 7, 7, 7), 30, 3),  # 14 - estorbo 1 + 10 + 7
        ("bandido", (10,) * 9 + (1, 1, 1), 40, 4),  # 9 + 10 + 10 + 10 + 1
    ]
    for actor_id, faces, total, actions in rolls:
        card = ok(await send(env, gm, "roll", actor_id, "initiative", {}, (), faces))
        assert f"Total {total}" in lines(card)
        assert f"Acciones por turno: {actions}" in lines(card)
        assert "Un turno dura 3 s; movimiento máximo 9 m" in lines(card)
        assert ("Estorbo -1" in lines(card)) == (actor_id == "casilda")
    for actor_id, _, _, actions in rolls:
        for _ in range(actions):
            attack = await send(env, gm, "attack", actor_id, "attack", {}, ["aldara"])
            assert attack["ok"], (actor_id, attack)
        assert code(await send(env, gm, "attack", actor_id, "attack", {}, ["aldara"])) == (
            "no_actions_left"
        )
    # Splitting gives one action more, keeping the lowest die.
    split = await send(env, gm, "attack", "aldara", "attack", {"split": True}, ["bruno"], (5, 3, 9))
    assert lines(ok(split))[0] == "Dado objetivo: el menor (acciones divididas)"
    assert code(await send(env, gm, "attack", "aldara", "attack", {}, ["bruno"])) == (
        "no_actions_left"
    )
    # A round passes: the order is shown and the actions come back.
    turn = ok(await gm.call("time_advance", {"id": rid(), "unit": "round"}))
    assert turn["title"] == "Turno 2"
    assert lines(turn) == [
        "1. Bandido: 40 (4 acción/es)",
        "2. Casilda: 30 (3 acción/es)",
        "3. Bruno: 20 (2 acción/es)",
        "4. Aldara: 19 (1 acción/es)",
    ]
    assert (await send(env, gm, "attack", "aldara", "attack", {}, ["bruno"]))["ok"]
    next_round = ok(await send(env, gm, "gm_action", None, "next_round"))
    assert next_round["title"] == "Turno 3"
    assert (await send(env, gm, "attack", "aldara", "attack", {}, ["bruno"]))["ok"]


async def test_combat_start_fumbled_initiative_and_combat_end(env: Env) -> None:
    gm, ana, _ = await table(env)
    assert code(await send(env, gm, "gm_action", None, "combat_end")) == "no_combat"
    assert code(await send(env, gm, "gm_action", None, "next_round")) == "no_combat"
    assert code(await send(env, ana, "gm_action", None, "combat_start")) == "gm_only"
    # World order of the sample actors: Aldara fumbles (1 kept, 3 above), the rest roll 5s.
    faces = (1, 1, 3) + (5, 5, 5) * 3
    ack = await send(env, gm, "gm_action", None, "combat_start", {}, (), faces)
    assert ack["ok"], ack
    *rolled, order = ack["cards"]
    assert [c["speaker"] for c in rolled] == ["aldara", "bruno", "casilda", "bandido"]
    assert rolled[0]["outcome"]["key"] == "fumble"
    assert "¡Pifia! Aldara no actúa en el primer turno e irá último en los siguientes" in lines(
        rolled[0]
    )
    assert order["title"] == "Turno 1"
    assert lines(order) == [
        "1. Casilda: 18 (1 acción/es)",  # ties go to the higher Iniciativa (14 against 13)
        "2. Bruno: 18 (1 acción/es)",
        "3. Bandido: 14 (1 acción/es)",
        "Aldara no actúa en este turno",
    ]
    attack = await send(env, ana, "attack", "aldara", "attack", {"weapon": "espada"}, ["bruno"])
    assert code(attack) == "lost_first_turn"
    assert code(await send(env, ana, "roll", "aldara", "initiative")) == (
        "initiative_already_rolled"
    )
    assert code(await send(env, ana, "heal", "aldara", "catch_breath")) == "in_combat"
    assert code(await send(env, ana, "heal", "aldara", "sleep")) == "in_combat"
    turn = ok(await send(env, gm, "gm_action", None, "next_round"))
    assert lines(turn)[-1] == "4. Aldara: 12 (1 acción/es)"
    assert (await send(env, ana, "attack", "aldara", "attack", {"weapon": "espada"}, ["bruno"]))[
        "ok"
    ]
    end = ok(await send(env, gm, "gm_action", None, "combat_end"))
    assert lines(end) == ["Los personajes pueden recuperar el aliento (5 minutos, 1d6 PV)"]
    # Outside a combat nothing is counted.
    for _ in range(3):
        assert (await send(env, ana, "attack", "aldara", "attack", {}, ["bruno"]))["ok"]


async def test_no_initiative_in_a_running_combat(env: Env) -> None:
    gm = await env.join()
    ok(await send(env, gm, "roll", "bruno", "initiative", {}, (), (5, 5, 5)))
    assert code(await send(env, gm, "attack", "aldara", "attack", {}, ["bruno"])) == (
        "no_initiative"
    )


async def test_move_nine_metres_and_attack_with_two_actions(env: Env) -> None:
    """'Ejemplo: con dos acciones por turno sacando un critico en iniciativa, podemos mover 9
    metros y realizar un ataque con la espada sin penalización.'"""
    gm, ana, _ = await table(env)
    ok(await send(env, gm, "roll", "aldara", "initiative", {}, (), (9, 9, 9)))  # 11 + 9 = 20
    move = ok(await send(env, ana, "roll", "aldara", "move", {"metres": 9}))
    assert move["title"] == "Aldara se mueve"
    assert lines(move) == [
        "Se mueve 9 m",
        "Moverse gasta una acción del turno",
        "Movimiento en este turno: 9/9 m",
    ]
    params = {"weapon": "espada"}
    attack = ok(await send(env, ana, "attack", "aldara", "attack", params, ["bruno"], (5, 3, 9)))
    assert lines(attack)[0] == "Dado objetivo: el medio"  # sin penalización
    further = await send(env, ana, "roll", "aldara", "move", {"metres": 1})
    assert code(further) == "move_limit"
    assert code(await send(env, ana, "attack", "aldara", "attack", params, ["bruno"])) == (
        "no_actions_left"
    )
    # With one action (Bruno: 13 + 5), moving and attacking needs a split: the lowest die.
    ok(await send(env, gm, "roll", "bruno", "initiative", {}, (), (5, 5, 5)))
    ok(await send(env, gm, "roll", "bruno", "move", {"metres": 4, "split": True}))
    attack = ok(
        await send(env, gm, "attack", "bruno", "attack", {"weapon": "daga"}, ["aldara"], (5, 3, 9))
    )
    assert lines(attack)[0] == "Dado objetivo: el menor (acciones divididas)"


async def test_casting_in_combat_spends_an_action(env: Env) -> None:
    """'Una acción mayor sería usar un conjuro o realizar un ataque.'"""
    gm = await env.join()
    ok(await send(env, gm, "roll", "casilda", "initiative", {}, (), (5, 5, 5)))  # 13 + 5
    spell = ok(
        await send(env, gm, "roll", "casilda", "skill", {"skill": "conjurar"}, (), (5, 5, 5))
    )
    # Inteligencia 6 + Conjurar 3 + 5 - estorbo 1 ('También se aplica al lanzamiento de hechizos')
    assert "Estorbo -1" in lines(spell) and "Total 13" in lines(spell)
    again = await send(env, gm, "roll", "casilda", "skill", {"skill": "conjurar"})
    assert code(again) == "no_actions_left"


async def test_the_answering_player_gives_the_token_through_the_follow_up(env: Env) -> None:
    gm, ana, beto = await table(env)
    gm.drain()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar"}
    card = ok(await send(env, beto, "roll", "bruno", "skill", params, ["aldara"], (5, 5, 5)))
    (follow,) = card["actions"]
    assert [p["name"] for p in follow["ask"]] == ["modifier", "give_token"]
    assert code(await press(env, ana, card, "oppose", {"against": 0})) == "invalid_param"
    answer = ok(await press(env, ana, card, "oppose", {"give_token": True}, dice=(2, 3, 9)))
    # Advertir/Notar 0 keeps the lowest, the token keeps the highest: the median, 3.
    assert lines(answer)[0] == "Dado objetivo: el medio (habilidad desconocida, token entregado)"
    assert "Percepción 5 + Advertir/Notar 0 + 1o3d10 3" in lines(answer)
    assert (await last_actor_update(gm, "aldara"))["state"]["token"] == "gm"


async def test_an_ambush_before_combat_start_still_gives_the_free_attack(env: Env) -> None:
    gm = await env.join()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar", "ambush": True}
    card = ok(await send(env, gm, "roll", "bruno", "skill", params, ["bandido"], (9, 9, 9)))
    ok(await press(env, gm, card, "oppose", dice=(1, 2, 3)))
    ok(await send(env, gm, "gm_action", None, "combat_start", {"roll_all": False}))
    free = ok(await send(env, gm, "attack", "bruno", "attack", {"weapon": "daga"}, ["bandido"]))
    assert lines(free)[0] == "Ataque gratuito por la emboscada de Bruno a Bandido"
    assert code(await send(env, gm, "attack", "bruno", "attack", {}, ["bandido"])) == (
        "no_initiative"
    )


# -- Curación y tiempo ------------------------------------------------------------------------


async def test_catch_breath_sleep_and_days(env: Env) -> None:
    """'Recuperar el aliento ... 1d6'; 'podemos recuperar 1 PV por noche ... 2 PV por noche'."""
    gm, ana, _ = await table(env)
    ok(await send(env, gm, "damage_apply", "aldara", "damage_apply", {"amount": 26}))
    breath = await send(env, ana, "heal", "aldara", "catch_breath", {}, (), (4,))
    card = ok(breath)
    assert card["dice"][0]["sides"] == 6 and card["dice"][0]["role"] == "aliento"
    assert lines(card)[:2] == ["Descansa 5 minutos y recupera 4 PV", "Heridas: 26 → 22"]
    assert breath["tokens"][0]["removed"] == ["wounded"]
    assert code(await send(env, ana, "heal", "aldara", "catch_breath", {}, (), (4,))) == (
        "already_caught_breath"
    )
    sleep = ok(await send(env, ana, "heal", "aldara", "sleep", {"comfort": "total"}))
    assert lines(sleep)[:2] == [
        "Duerme 6-8 horas en un lugar con todas las comodidades y recupera 2 PV",
        "Heridas: 22 → 20",
    ]
    assert code(await send(env, ana, "heal", "aldara", "sleep")) == "already_slept"
    for unit in ("minute", "hour"):
        quiet = await gm.call("time_advance", {"id": rid(), "unit": unit, "count": 30})
        assert quiet["ok"] and quiet["cards"] == [] and quiet["tokens"] == []
    assert (await gm.call("time_advance", {"id": rid(), "unit": "round"}))["cards"] == []
    day = ok(await gm.call("time_advance", {"id": rid(), "unit": "day"}))
    assert day["title"] == "Pasan 1 día(s)"
    assert lines(day) == ["Cada personaje puede volver a dormir y curarse"]
    card = ok(await send(env, ana, "heal", "aldara", "sleep"))
    assert lines(card)[1] == "Heridas: 20 → 19"
    heal = await send(env, gm, "heal", "aldara", "heal_wounds", {"amount": 50})
    assert lines(ok(heal))[0] == "Heridas: 19 → 0"
    assert code(await send(env, ana, "heal", "aldara", "heal_wounds", {"amount": 1})) == "gm_only"


async def test_undo_of_a_damage_application_restores_the_actor_exactly(env: Env) -> None:
    gm = await env.join()
    before = actor_of(gm, "bruno")
    attack = ok(
        await send(env, gm, "attack", "aldara", "attack", {"weapon": "espada"}, ["bruno"], (9,) * 3)
    )
    damage = ok(await press(env, gm, attack, "damage.0", dice=(6, 6, 2, 4)))
    assert lines(damage)[-1] == "Daño 18"  # Bruno, Físico 6: malherido from 18
    applied = await press(env, gm, damage, "apply")
    assert applied["tokens"][0]["statuses"] == ["wounded"]
    gm.drain()
    undo = await gm.call("undo", {"id": rid(), "seq": applied["seq"]})
    assert undo["ok"] and undo["cards"] == []
    (token,) = undo["tokens"]
    assert token["removed"] == ["wounded"] and token["statuses"] == []
    assert token["numbers"] == before["numbers"]
    restored = await last_actor_update(gm, "bruno")
    for key in ("state", "statuses", "numbers", "sheet", "labels"):
        assert restored[key] == before[key], key
    assert code(await gm.call("undo", {"id": rid(), "seq": applied["seq"]})) == "undo_conflict"
    # The undo released the follow-up: the damage can be applied again, once.
    again = await press(env, gm, damage, "apply")
    assert again["ok"] and again["tokens"][0]["statuses"] == ["wounded"]
    assert code(await press(env, gm, damage, "apply")) == "follow_up_used"


# -- Permissions and bad requests ---------------------------------------------------------


async def test_players_act_only_for_their_own_actors(env: Env) -> None:
    _gm, ana, beto = await table(env)
    roll = await send(env, ana, "roll", "bruno", "attribute", {"attribute": "fisico"})
    assert code(roll) == "not_your_actor" and roll["error"]["field"] == "actor"
    attack = await send(env, beto, "attack", "aldara", "attack", {}, ["bruno"])
    assert code(attack) == "not_your_actor"
    assert code(await send(env, ana, "roll", "aldara", "skill", {"skill": "nadar"})) == (
        "no_such_skill"
    )
    assert code(await send(env, ana, "roll", "aldara", "attribute", {"attribute": "magia"})) == (
        "no_such_attribute"
    )
    ambush = {"skill": "sigilo", "ambush": True}
    assert code(await send(env, ana, "roll", "aldara", "skill", ambush)) == "ambush_needs_target"
    melee_cover = {"weapon": "espada", "running": True}
    assert code(await send(env, ana, "attack", "aldara", "attack", melee_cover, ["bruno"])) == (
        "modifier_not_for_mode"
    )
    ranged_behind = {"weapon": "ballesta", "behind": True}
    assert code(await send(env, ana, "attack", "aldara", "attack", ranged_behind, ["bruno"])) == (
        "modifier_not_for_mode"
    )
    assert code(await send(env, ana, "attack", "aldara", "attack", {}, [])) == "invalid_targets"
    assert code(await send(env, ana, "roll", "aldara", "attack", {}, ["bruno"])) == "wrong_event"


# -- The first version of the text ------------------------------------------------------------


async def test_first_version_preset(tmp_path: Path, aiohttp_server: Any) -> None:
    """The text's first half: unarmed 1d4, Bocajarro 15 Corta 18, two weapons at -2/-4,
    0 PV unconscious and death at Físico x6."""
    frail = SYSTEM.validate_sheet(
        {"attributes": {"fisico": 4, "destreza": 4}, "combat": {"pv": 20}, "skills": {}}
    )
    actors = (
        *SYSTEM.sample_actors(),
        Actor("fragil", "Frágil", None, frail, SYSTEM.initial_state(frail)),
    )
    async for env in make_env(
        tmp_path, aiohttp_server, "o3d10", settings={"version": "primera"}, actors=actors
    ):
        gm = await env.join()
        assert gm.welcome is not None
        settings = gm.welcome["world"]["settings"]
        assert (settings["health_model"], settings["two_weapons"]) == ("hit_points", "penalty")
        unarmed = ok(await send(env, gm, "attack", "aldara", "attack", {}, ["bruno"], (9,) * 3))
        assert unarmed["actions"][0]["label"] == "Tirar daño (1d4)"
        damage = ok(await press(env, gm, unarmed, "damage.0", dice=(4, 2)))
        assert [d["sides"] for d in damage["dice"]] == [4] and lines(damage)[-1] == "Daño 6"
        bow = {"weapon": "ballesta", "range": "corta"}
        shot = ok(await send(env, gm, "attack", "aldara", "attack", bow, ["bruno"], (9,) * 3))
        assert "Dificultad por distancia: 18" in lines(shot) and "Total 18" in lines(shot)
        ok(await send(env, gm, "roll", "aldara", "reload", {"weapon": "ballesta"}))
        close = {"weapon": "ballesta", "range": "bocajarro"}
        shot = ok(await send(env, gm, "attack", "aldara", "attack", close, ["bruno"], (9,) * 3))
        assert "Dificultad por distancia: 15" in lines(shot)
        pair = {"weapon": "daga", "offhand": "espada_corta"}
        both = await send(
            env, gm, "attack", "bruno", "attack", pair, ["bandido"], (9, 9, 9, 9, 9, 9)
        )
        assert both["ok"] and len(both["cards"]) == 2
        main, off = both["cards"]
        assert "Mano hábil: Daga" in lines(main) and "Dos armas, mano hábil: -2" in lines(main)
        assert "Otra mano: Espada corta" in lines(off) and "Dos armas, la otra mano: -4" in lines(
            off
        )
        # Físico 6 + CaC 2 + 9 = 17: -2 → 15 hits Defensa 14, -4 → 13 misses.
        assert (main["outcome"]["key"], off["outcome"]["key"]) == ("success", "failure")
        assert main["actions"][0]["id"] == "damage.0" and off["actions"] == []
        # Frágil: Físico 4, 20 PV. Malherido at PV <= 4, unconscious at 0 PV, dead at 24 wounds.
        steps = [(15, []), (1, ["wounded"]), (4, ["unconscious"]), (4, ["dead"])]
        for amount, statuses in steps:
            ack = await send(env, gm, "damage_apply", "fragil", "damage_apply", {"amount": amount})
            assert ack["ok"], ack
            assert ack["tokens"][0]["statuses"] == statuses, (amount, ack)


# -- The browser scenario -------------------------------------------------------------------


async def test_browser_scenario_reaches_a_status(env: Env) -> None:
    gm = await env.join()
    plan = scenario.load("o3d10")
    assert plan["system"] == "o3d10"
    sample_ids = {actor_id for actor_id, _, _ in SAMPLES}
    assert {s["actor"] for s in plan["steps"] if "actor" in s} <= sample_ids
    rounds = await scenario.play(gm, plan)
    assert 1 <= rounds <= plan["max_rounds"]
