"""Every kind of bad input gets its stable code, stores nothing and leaves the connection usable."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from support.live import NS, Env, Refused, connect, give, rid

GOOD_ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


async def _still_usable(env: Env, client: Any, before: int) -> None:
    assert env.seq() == before, "a refused request stored something"
    ack = await client.call("roll", {"id": rid(), **GOOD_ROLL})
    assert ack["ok"] and ack["seq"] == before + 1


@pytest.mark.parametrize(
    ("event", "payload", "code", "field"),
    [
        ("roll", "not an object", "bad_payload", None),
        ("roll", [1, 2, 3], "bad_payload", None),
        (
            "roll",
            {
                "id": "x" * 10,
                "actor": "bruno",
                "action": "attribute",
                "params": {"attribute": "y" * 5000},
            },
            "payload_too_large",
            "params.attribute",
        ),
        (
            "roll",
            {
                "id": rid(),
                "actor": "bruno",
                "action": "attribute",
                "params": {"attribute": msgpack.ExtType(0, b"")},
            },
            "ext_type",
            "params.attribute",
        ),
        ("teleport", {"id": rid()}, "unknown_event", "event"),
        ("roll", {"actor": "bruno", "action": "attribute"}, "invalid_field", "id"),
        ("roll", {"id": rid(), "actor": 7, "action": "attribute"}, "invalid_field", "actor"),
        (
            "roll",
            {"id": rid(), "actor": "bruno", "action": "attribute", "params": {"x": 1.5}},
            "invalid_field",
            "params.x",
        ),
        (
            "roll",
            {"id": rid(), "actor": "bruno", "action": "attribute", "extra": 1},
            "invalid_field",
            "extra",
        ),
        (
            "roll",
            {
                "id": rid(),
                "actor": "ghost",
                "action": "attribute",
                "params": {"attribute": "fisico"},
            },
            "unknown_actor",
            "actor",
        ),
        ("roll", {"id": rid(), "actor": "bruno", "action": "fly"}, "unknown_action", "action"),
        ("attack", {"id": rid(), **GOOD_ROLL}, "wrong_event", "action"),
        (
            "roll",
            {
                "id": rid(),
                "actor": "bruno",
                "action": "attribute",
                "params": {"attribute": "suerte"},
            },
            "no_such_attribute",
            "params.attribute",
        ),
        (
            "roll",
            {
                "id": rid(),
                "actor": "bruno",
                "action": "attribute",
                "params": {"attribute": "fisico", "level": "imposible"},
            },
            "invalid_param",
            "params.level",
        ),
        (
            "status_set",
            {"id": rid(), "actor": "bruno", "add": ["levitating"]},
            "invalid_field",
            "add.0",
        ),
        ("card_action", {"id": rid(), "card": "1.0", "action": "x"}, "unknown_card", "card"),
    ],
)
async def test_bad_request(
    env: Env, event: str, payload: Any, code: str, field: str | None
) -> None:
    gm = await env.join()
    before = env.seq()
    ack = await gm.call(event, payload)
    assert ack["ok"] is False
    assert ack["error"]["code"] == code
    assert ack["error"]["field"] == field
    assert ack["error"]["message"]
    await _still_usable(env, gm, before)


async def test_two_arguments_is_a_bad_payload(env: Env) -> None:
    gm = await env.join()
    result = await gm.sio.call("roll", ({"id": rid()}, {"x": 1}), namespace=NS, timeout=5)
    assert result["error"]["code"] == "bad_payload"


async def test_player_cannot_send_gm_events_or_act_for_others(env: Env) -> None:
    gm = await env.join()
    await give(gm, "aldara", "ana", gm.welcome or {})
    player = await env.join("player", "ana")
    before = env.seq()
    for event, payload in [
        ("status_set", {"id": rid(), "actor": "aldara", "add": ["dead"]}),
        ("actor_upsert", {"id": rid(), "actor": {"id": "x", "name": "X", "sheet": {}}}),
        ("actor_remove", {"id": rid(), "actor": "aldara"}),
        ("time_advance", {"id": rid(), "unit": "round"}),
        ("undo", {"id": rid(), "seq": 1}),
    ]:
        ack = await player.call(event, payload)
        assert ack["error"]["code"] == "gm_only", event
    other = await player.call("roll", {"id": rid(), **GOOD_ROLL})
    assert other["error"]["code"] == "not_your_actor"
    gm_action = await player.call(
        "roll", {"id": rid(), "actor": "aldara", "action": "token_return"}
    )
    assert gm_action["error"]["code"] == "gm_only"
    assert env.seq() == before
    own = await player.call(
        "roll",
        {"id": rid(), "actor": "aldara", "action": "attribute", "params": {"attribute": "fisico"}},
    )
    assert own["ok"]


async def test_invalid_sheet_is_refused_with_its_field(env: Env) -> None:
    gm = await env.join()
    before = env.seq()
    ack = await gm.call(
        "actor_upsert",
        {"id": rid(), "actor": {"id": "x", "name": "X", "sheet": {"attributes": {"fisico": -3}}}},
    )
    assert ack["error"]["code"] == "invalid_sheet"
    assert ack["error"]["field"] == "actor.sheet.attributes.fisico"
    await _still_usable(env, gm, before)


@pytest.mark.parametrize(
    ("auth", "code"),
    [
        ({"token": "nope", "user": "u", "protocol": 1}, "bad_token"),
        (None, "bad_auth"),
        ({"user": "u", "protocol": 1}, "bad_auth"),
        ({"token": 5, "user": "u", "protocol": 1}, "bad_auth"),
        ({"token": "x", "user": "u", "protocol": 1, "last_seq": -1}, "bad_auth"),
        ({"token": "x", "user": "u", "protocol": 1, "junk": msgpack.ExtType(1, b"z")}, "bad_auth"),
    ],
)
async def test_bad_auth_is_refused(env: Env, auth: Any, code: str) -> None:
    with pytest.raises(Refused) as caught:
        await connect(env.url, auth)
    assert isinstance(caught.value.data, dict), caught.value.data
    assert caught.value.data["code"] == code
    assert caught.value.data["message"]


@pytest.mark.parametrize("version", [0, 2, 99])
async def test_unsupported_protocol_is_refused(env: Env, version: int) -> None:
    auth = {"token": env.world.gm_token, "user": "u", "protocol": version, "locale": "en"}
    with pytest.raises(Refused) as caught:
        await connect(env.url, auth)
    data = caught.value.data
    assert data["code"] == "unsupported_protocol"
    assert "version 1" in data["message"]


@pytest.mark.parametrize("event", ["connect", "disconnect", "connect_error"])
async def test_reserved_event_names_are_unknown_events(env: Env, event: str) -> None:
    gm = await env.join()
    before = env.seq()
    ack = await gm.call(event, {"id": rid(), "token": "x"})
    assert ack["error"]["code"] == "unknown_event"
    await _still_usable(env, gm, before)


async def test_actor_may_be_left_out_only_for_gm_world_actions(env: Env) -> None:
    gm = await env.join()
    ack = await gm.call(
        "roll", {"id": rid(), "action": "attribute", "params": {"attribute": "fisico"}}
    )
    assert (ack["error"]["code"], ack["error"]["field"]) == ("invalid_field", "actor")


async def test_a_flood_is_refused_with_rate_limited_and_the_connection_recovers(
    tmp_path: object, aiohttp_server: object
) -> None:
    import asyncio
    from pathlib import Path

    from bridge.limits import RateLimit
    from bridge.server import create_app
    from bridge.store import AsyncStore, SQLiteStore
    from bridge.worlds import create_world
    from rules.registry import default_registry

    assert isinstance(tmp_path, Path)
    registry = default_registry()
    store = SQLiteStore(tmp_path / "limited.sqlite3")
    world = create_world(
        store, registry, "Mesa", "o3d10", actors=registry.get("o3d10").sample_actors()
    )
    app = create_app(AsyncStore(store), registry, rate_limit=RateLimit(5, 5))
    server = await aiohttp_server(app, host="127.0.0.1")  # type: ignore[operator]
    gm = await connect(
        str(server.make_url("/")), {"token": world.gm_token, "user": "dm", "protocol": 1}
    )
    acks = await asyncio.gather(*(gm.call("roll", {"id": rid(), **GOOD_ROLL}) for _ in range(12)))
    codes = [a["error"]["code"] if not a["ok"] else "ok" for a in acks]
    assert codes.count("ok") == 5 and codes.count("rate_limited") == 7
    await asyncio.sleep(0.5)
    assert (await gm.call("roll", {"id": rid(), **GOOD_ROLL}))["ok"]
    await gm.close()
