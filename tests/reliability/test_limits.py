"""Per-world limits: a crowded or flooding table gets clear errors (``world_full``,
``world_rate_limited``); the other tables do not notice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bridge.limits import WorldLimit
from support.live import Refused, connect, rid

from .apps import limited_app

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


async def test_a_world_takes_at_most_its_connections(tmp_path: Path, aiohttp_server: Any) -> None:
    app = await limited_app(tmp_path, aiohttp_server, worlds=2, world=WorldLimit(3, 0, 0))
    inside = [await connect(app.url, app.auth(0, "player", f"p{n}")) for n in range(3)]
    with pytest.raises(Refused) as refused:
        await connect(app.url, app.auth(0, "gm"))
    assert refused.value.data["code"] == "world_full"
    assert refused.value.data["message"]
    other = await connect(app.url, app.auth(1, "gm"))  # another table is not affected
    assert other.welcome is not None
    await inside.pop().close()
    for _ in range(100):  # the server sees the disconnect
        try:
            inside.append(await connect(app.url, app.auth(0, "gm")))
            break
        except Refused:
            await asyncio.sleep(0.02)
    assert len(inside) == 3
    for client in [*inside, other]:
        await client.close()


async def test_a_flooding_world_is_refused_and_the_others_are_served(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    app = await limited_app(tmp_path, aiohttp_server, worlds=2, world=WorldLimit(0, 5.0, 10.0))
    flooders = [await connect(app.url, app.auth(0, "gm", f"gm{n}")) for n in range(3)]
    calm = await connect(app.url, app.auth(1, "gm"))

    async def flood(client: Any) -> list[str]:
        acks = await asyncio.gather(
            *(client.call("roll", {"id": rid(), **ROLL}) for _ in range(15))
        )
        return ["ok" if a["ok"] else a["error"]["code"] for a in acks]

    async def calm_table() -> list[str]:
        codes = []
        for _ in range(8):
            ack = await calm.call("roll", {"id": rid(), **ROLL})
            codes.append("ok" if ack["ok"] else ack["error"]["code"])
        return codes

    *flooded, quiet = await asyncio.gather(*(flood(c) for c in flooders), calm_table())
    codes = [code for batch in flooded for code in batch]
    assert set(codes) == {"ok", "world_rate_limited"}, codes
    assert quiet == ["ok"] * 8, "another table was slowed by the flood"
    for client in [*flooders, calm]:
        await client.close()
