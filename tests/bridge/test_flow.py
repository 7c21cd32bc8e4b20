"""The spine end to end: roll → ack → card to everyone; statuses; retries; reconnects."""

from __future__ import annotations

import asyncio

from support.live import Env, give, rid


async def test_roll_is_acked_and_pushed_to_the_other_client(env: Env) -> None:
    gm = await env.join("gm", "dm")
    assert gm.welcome is not None and gm.welcome["role"] == "gm"
    await give(gm, "aldara", "ana", gm.welcome)
    player = await env.join("player", "ana")
    assert player.welcome is not None and player.welcome["role"] == "player"
    gm.drain()
    env.dice.script(5, 3, 9)  # the text's example: the median is 5
    ack = await player.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "skill",
            "params": {"skill": "sigilo", "level": "normal"},
        },
    )
    assert ack["ok"] and ack["duplicate"] is False
    (card,) = ack["cards"]
    assert card["title"] == "Tirada de Sigilo"
    assert [d["faces"] for d in card["dice"]] == [[5], [3], [9]]
    assert [d["kept"] for d in card["dice"]] == [True, False, False]
    assert card["outcome"]["key"] == "failure"  # 6 + 2 + 5 = 13 < 15
    pushed = await gm.next_push("chat_card")
    assert pushed["seq"] == ack["seq"] and pushed["card_id"] == card["card_id"]
    assert pushed["html"] == card["html"]
    mine = await player.next_push("chat_card")
    assert mine["seq"] == ack["seq"]


async def test_duplicate_request_id_makes_one_event(env: Env) -> None:
    gm = await env.join()
    other = await env.join("gm", "co-dm")
    payload = {
        "id": rid(),
        "actor": "bruno",
        "action": "attribute",
        "params": {"attribute": "fisico", "level": "facil"},
    }
    first = await gm.call("roll", payload)
    second = await gm.call("roll", payload)
    assert first["ok"] and second["ok"]
    assert second["duplicate"] is True and second["seq"] == first["seq"]
    assert second["cards"][0]["dice"] == first["cards"][0]["dice"]
    assert env.seq() == first["seq"]
    await other.next_push("chat_card")
    await asyncio.sleep(0.2)
    assert [name for name, _ in other.drain() if name == "chat_card"] == []
    changed = await gm.call("roll", {**payload, "params": {"attribute": "destreza"}})
    assert changed["error"]["code"] == "id_reused" and env.seq() == first["seq"]


async def test_gm_status_set_pushes_token_status_to_everyone(env: Env) -> None:
    gm = await env.join()
    player = await env.join("player", "ana", locale="en")
    ack = await gm.call("status_set", {"id": rid(), "actor": "bruno", "add": ["stunned", "prone"]})
    assert ack["ok"] and ack["tokens"][0]["added"] == ["prone", "stunned"]
    pushed = await player.next_push("token_status")
    assert pushed["actor"] == "bruno" and pushed["statuses"] == ["prone", "stunned"]
    assert pushed["labels"] == {"prone": "Prone", "stunned": "Stunned"}
    gm_push = await gm.next_push("token_status")
    assert gm_push["labels"]["stunned"] == "Aturdido"
    ack = await gm.call("status_set", {"id": rid(), "actor": "bruno", "remove": ["prone"]})
    assert ack["tokens"][0]["removed"] == ["prone"]
    assert (await player.next_push("token_status"))["statuses"] == ["stunned"]


async def test_reconnect_with_last_seq_gets_missed_pushes_in_order_then_live(env: Env) -> None:
    gm = await env.join()
    watcher = await env.join("gm", "watcher")
    first = await gm.call(
        "roll",
        {"id": rid(), "actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}},
    )
    last_seen = first["seq"]
    await watcher.close()
    missed = []
    for _ in range(3):
        ack = await gm.call(
            "roll",
            {
                "id": rid(),
                "actor": "aldara",
                "action": "attribute",
                "params": {"attribute": "destreza"},
            },
        )
        missed.append(ack["seq"])
    back = await env.join("gm", "watcher", last_seq=last_seen)
    got = [(await back.next_push("chat_card"))["seq"] for _ in range(3)]
    assert got == missed
    live = await gm.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "attribute",
            "params": {"attribute": "destreza"},
        },
    )
    assert (await back.next_push("chat_card"))["seq"] == live["seq"]


async def test_follow_up_button_on_a_card(env: Env) -> None:
    gm = await env.join()
    await give(gm, "aldara", "ana", gm.welcome or {})
    await give(gm, "bruno", "beto", gm.welcome or {})
    ana = await env.join("player", "ana")
    beto = await env.join("player", "beto")
    env.dice.script(5, 6, 7)  # Destreza 6 + Sigilo 2 + 6 = 14
    ack = await ana.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "skill",
            "targets": ["bruno"],
            "params": {"skill": "sigilo", "opposed_skill": "advertir_notar"},
        },
    )
    assert ack["ok"], ack
    card = ack["cards"][0]
    (button,) = card["actions"]
    refused = await ana.call(
        "card_action", {"id": rid(), "card": card["card_id"], "action": button["id"]}
    )
    assert refused["error"]["code"] == "not_allowed"
    env.dice.script(2, 3, 4)  # Percepción 6 + Advertir 3 + 3 = 12: Aldara hides
    answer = await beto.call(
        "card_action", {"id": rid(), "card": card["card_id"], "action": button["id"]}
    )
    assert answer["ok"], answer
    assert answer["cards"][0]["sections"][0]["lines"][-1] == "Gana Aldara"
    update = await ana.next_push("card_update")
    assert (update["card_id"], update["used"]) == (card["card_id"], [button["id"]])
    again = await beto.call(
        "card_action", {"id": rid(), "card": card["card_id"], "action": button["id"]}
    )
    assert again["error"]["code"] == "follow_up_used"
    missing = await beto.call("card_action", {"id": rid(), "card": "999.0", "action": "x"})
    assert missing["error"]["code"] == "unknown_card"


async def test_english_locale_and_escaped_names(env: Env) -> None:
    gm = await env.join(locale="en")
    evil = "<img src=x onerror=alert(1)>"
    ack = await gm.call(
        "actor_upsert",
        {
            "id": rid(),
            "actor": {"id": "villain", "name": evil, "sheet": {"attributes": {"fisico": 5}}},
        },
    )
    assert ack["ok"], ack
    update = await gm.next_push("actor_update")
    assert update["actor"]["name"] == evil
    roll = await gm.call(
        "roll",
        {
            "id": rid(),
            "actor": "villain",
            "action": "attribute",
            "params": {"attribute": "fisico", "level": "normal"},
        },
    )
    card = roll["cards"][0]
    assert card["title"] == "Physique roll" and card["speaker_name"] == evil
    assert "<img" not in card["html"] and "&lt;img src=x onerror=alert(1)&gt;" in card["html"]


async def test_undo_restores_the_actors(env: Env) -> None:
    gm = await env.join()
    ack = await gm.call("status_set", {"id": rid(), "actor": "bruno", "add": ["dead"]})
    undo = await gm.call("undo", {"id": rid(), "seq": ack["seq"]})
    assert undo["ok"] and undo["tokens"][0]["removed"] == ["dead"]
    again = await gm.call("undo", {"id": rid(), "seq": ack["seq"]})
    assert again["error"]["code"] == "undo_conflict"
    nothing = await gm.call("undo", {"id": rid(), "seq": undo["seq"]})
    assert nothing["error"]["code"] == "nothing_to_undo"


async def test_worlds_never_see_each_other(env: Env, tmp_path: object) -> None:
    from bridge.worlds import create_world
    from rules.registry import default_registry

    other_world = create_world(
        env.store,
        default_registry(),
        "Otra",
        "o3d10",
        actors=default_registry().get("o3d10").sample_actors(),
    )
    from support.live import connect

    stranger = await connect(env.url, {"token": other_world.gm_token, "user": "x", "protocol": 1})
    env.clients.append(stranger)
    gm = await env.join()
    ack = await gm.call(
        "roll",
        {"id": rid(), "actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}},
    )
    assert ack["ok"]
    await asyncio.sleep(0.3)
    assert stranger.drain() == []
    assert stranger.welcome is not None and stranger.welcome["world"]["id"] != (
        gm.welcome or {}
    ).get("world", {}).get("id")


async def test_gm_adjusts_state_and_an_undone_card_is_marked(env: Env) -> None:
    gm = await env.join()
    player = await env.join("player", "pia")
    ack = await gm.call("actor_state", {"id": rid(), "actor": "bruno", "state": {"heridas": 20}})
    assert ack["ok"] and ack["tokens"][0]["numbers"]["heridas"] == 20
    refused = await player.call(
        "actor_state", {"id": rid(), "actor": "bruno", "state": {"heridas": 0}}
    )
    assert refused["error"]["code"] == "gm_only"
    roll = await gm.call("roll", {"id": rid(), "actor": "aldara", "action": "token_return"})
    assert roll["error"]["code"] == "token_not_with_gm"
    given = await gm.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "skill",
            "params": {"skill": "sigilo", "give_token": True},
        },
    )
    assert given["ok"]
    undo = await gm.call("undo", {"id": rid(), "seq": given["seq"]})
    assert undo["ok"]
    update = await player.next_push("card_update")
    assert update["card_id"] == given["cards"][0]["card_id"] and update["undone"] is True


async def test_whispers_reach_only_their_users(env: Env) -> None:
    gm = await env.join()
    await give(gm, "aldara", "ana", gm.welcome or {})
    ana = await env.join("player", "ana")
    beto = await env.join("player", "beto")
    roll = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}
    secret = await gm.call("roll", {"id": rid(), **roll, "whisper": ["ana"]})
    assert secret["ok"]
    card = await ana.next_push("chat_card")
    assert card["seq"] == secret["seq"]
    blind = await ana.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "attribute",
            "params": {"attribute": "fisico"},
            "whisper": ["gm"],
        },
    )
    assert blind["ok"] and len(blind["cards"]) == 1
    assert (await gm.next_push("chat_card"))["seq"] == secret["seq"]
    assert (await gm.next_push("chat_card"))["seq"] == blind["seq"]
    refused = await ana.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "attribute",
            "params": {"attribute": "fisico"},
            "whisper": ["beto"],
        },
    )
    assert (refused["error"]["code"], refused["error"]["field"]) == ("gm_only", "whisper")
    public = await gm.call("roll", {"id": rid(), **roll})
    first = await beto.next_push("chat_card")
    assert first["seq"] == public["seq"], "beto saw a whisper"
    late = await env.join("player", "beto", last_seq=0)
    seen = [(await late.next_push("chat_card"))["seq"]]
    assert seen == [public["seq"]]


async def test_a_hidden_npc_is_unknown_to_players(env: Env) -> None:
    gm = await env.join()
    player = await env.join("player", "pia")
    ack = await gm.call(
        "actor_upsert",
        {
            "id": rid(),
            "actor": {
                "id": "sombra",
                "name": "La Sombra",
                "hidden": True,
                "sheet": {"attributes": {"fisico": 7, "destreza": 6}},
            },
        },
    )
    assert ack["ok"], ack
    seen = await player.next_push("actor_update")
    assert seen["actor"]["name"] == "Desconocido" and seen["actor"]["sheet"] == {}
    assert seen["actor"]["buttons"] == []
    roll = await gm.call(
        "roll",
        {
            "id": rid(),
            "actor": "sombra",
            "action": "attribute",
            "params": {"attribute": "fisico", "level": "normal"},
        },
    )
    assert roll["cards"][0]["speaker_name"] == "La Sombra"
    card = await player.next_push("chat_card")
    assert "Sombra" not in str(card) and card["speaker_name"] == "Desconocido"
    assert card["speaker"] == "hidden"
    status = await gm.call("status_set", {"id": rid(), "actor": "sombra", "add": ["prone"]})
    assert status["ok"]
    token = await player.next_push("token_status")
    assert token["name"] == "Desconocido" and token["statuses"] == ["prone"]
    late = await env.join("player", "pia2")
    assert late.welcome is not None
    shown = next(a for a in late.welcome["actors"] if a["id"] == "sombra")
    assert shown["name"] == "Desconocido"
