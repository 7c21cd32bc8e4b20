"""A process's deliveries of other processes' events, made deterministic: the
notices are handed to one in-process bridge by hand, the events written by another
(real) process, and one delivery is held mid-way to order the interleaving."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bridge.cluster import ClusterFeed
from bridge.server import BRIDGE_KEY, create_app
from bridge.store import AsyncStore
from bridge.store_pg import PgStore
from rules.registry import default_registry
from support.cluster import ROLL, Cluster, Node, collect, new_world
from support.live import TESTS_RATE, connect, rid


async def test_a_notice_heard_during_a_delivery_is_delivered_too(
    pg_url: str, aiohttp_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last card of a burst was once a whole sweep late: its notice came while the
    delivery of the one before was still pushing, after that delivery had read the head."""
    cluster = Cluster(pg_url, None, new_world(pg_url))
    writer = Node.start(pg_url, None, seed=1, poll=60)  # no sweep, no Redis: silent
    feed = ClusterFeed(None, poll_seconds=60)  # no sweep within the test either
    store = PgStore(pg_url)
    app = create_app(AsyncStore(store), default_registry(), rate_limit=TESTS_RATE, cluster=feed)
    server = await aiohttp_server(app, host="127.0.0.1")
    bridge = app[BRIDGE_KEY]
    gm = await connect(writer.url, cluster.auth())
    ana = await connect(str(server.make_url("/")), cluster.auth("player", "ana"))
    entered, release = asyncio.Event(), asyncio.Event()
    broadcast = bridge._broadcast

    async def held(runtime: Any, seq: int, pushes: Any, *rest: Any) -> Any:
        if seq == 1:
            entered.set()
            await release.wait()
        return await broadcast(runtime, seq, pushes, *rest)

    monkeypatch.setattr(bridge, "_broadcast", held)
    world_id = cluster.world.world_id

    def notice(seq: int) -> dict[str, Any]:
        (row,) = [e for e in store.events_after(world_id, seq - 1, 1)]
        return {"world": world_id, "seq": seq, "pushes": row.pushes}

    try:
        assert (await gm.call("roll", {"id": rid(), **ROLL}))["seq"] == 1
        feed.heard(notice(1))
        await asyncio.wait_for(entered.wait(), 30)  # the delivery read head 1, pushes it
        assert (await gm.call("roll", {"id": rid(), **ROLL}))["seq"] == 2
        feed.heard(notice(2))
        release.set()
        assert await collect(ana, 2, timeout=10) == [1, 2]
    finally:
        release.set()
        await ana.close()
        await gm.close()
        writer.stop()
