"""Redis restarted mid-run or absent, PostgreSQL away for a while: nothing lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis import asyncio as aioredis

from bridge.bench.services import LocalPostgres, ServiceMissing
from bridge.cluster import CHANNEL
from support.cluster import ROLL, Cluster, collect, new_world
from support.live import Refused, connect, rid
from support.services import missing, new_database, start_redis


async def subscribed(url: str, count: int, timeout: float = 30) -> None:
    """Wait until ``count`` processes listen on the bridge's channel."""
    client = aioredis.Redis.from_url(url)
    try:
        for _ in range(int(timeout / 0.1)):
            ((_, listening),) = await client.pubsub_numsub(CHANNEL)
            if listening >= count:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{count} subscribers expected on {CHANNEL}")
    finally:
        await client.aclose()


async def test_redis_restarted_mid_run_loses_no_push(postgres_server: str, tmp_path: Path) -> None:
    redis = start_redis(tmp_path / "redis")
    url = new_database(postgres_server)
    # No store sweep within the test: what arrives, arrives through Redis (and the gaps
    # a lost notice leaves are filled from the store when the next notice comes).
    cluster = Cluster(url, redis.url, new_world(url), poll=60)
    try:
        cluster.start(2)
        gm = await connect(cluster.nodes[0].url, cluster.auth())
        ana = await connect(cluster.nodes[1].url, cluster.auth("player", "ana"))
        for _ in range(5):
            assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
        assert await collect(ana, 5) == [1, 2, 3, 4, 5]
        redis = redis.restart()
        # While the processes reconnect to the new Redis the acks go on; notices
        # published before the other process re-subscribed are lost.
        for _ in range(5):
            assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
        await subscribed(redis.url, 2)  # python-socketio re-subscribes (after 1 s, 2 s...)
        for _ in range(5):
            assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
        # Each notice heard fills the gaps before it from the store, so the last one
        # (sent once both listen again) brings all ten; the bound is for a loaded machine.
        assert await collect(ana, 10, timeout=20) == list(range(6, 16))
        await gm.close()
        await ana.close()
    finally:
        cluster.stop()
        redis.stop()


async def test_without_redis_the_store_sweep_keeps_processes_in_step(
    postgres_server: str,
) -> None:
    url = new_database(postgres_server)
    cluster = Cluster(url, None, new_world(url), poll=0.2)
    try:
        cluster.start(2)
        gm = await connect(cluster.nodes[0].url, cluster.auth())
        gm2 = await connect(cluster.nodes[1].url, cluster.auth("gm", "dm2"))
        acks = await asyncio.gather(
            *(c.call("roll", {"id": rid(), **ROLL}) for c in (gm, gm2) for _ in range(4))
        )
        assert sorted(a["seq"] for a in acks) == list(range(1, 9))
        assert await collect(gm, 8) == list(range(1, 9))
        assert await collect(gm2, 8) == list(range(1, 9))
        await gm.close()
        await gm2.close()
    finally:
        cluster.stop()


async def test_postgresql_away_is_a_clear_error_and_the_bridge_recovers() -> None:
    try:
        database = LocalPostgres.start()
    except ServiceMissing as exc:
        missing(str(exc))
        raise
    url = database.database("bridge")
    cluster = Cluster(url, None, new_world(url), poll=0.3)
    try:
        cluster.start(1)
        gm = await connect(cluster.nodes[0].url, cluster.auth())
        for _ in range(3):
            assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
        database.halt()
        refused = await gm.call("roll", {"id": rid(), **ROLL}, timeout=20)
        assert not refused["ok"] and refused["error"]["code"] == "store_error"
        with pytest.raises(Refused) as joining:
            await connect(cluster.nodes[0].url, cluster.auth("player", "ana"))
        assert joining.value.data["code"] == "store_error"
        database = database.resume()
        retried = {"id": rid(), **ROLL}
        ack = await gm.call("roll", retried, timeout=20)
        assert ack["ok"] and ack["seq"] == 4
        again = await gm.call("roll", retried)
        assert again["duplicate"] and again["seq"] == 4
        ana = await connect(cluster.nodes[0].url, cluster.auth("player", "ana", last_seq=0))
        assert await collect(ana, 4) == [1, 2, 3, 4]
        await ana.close()
        await gm.close()
    finally:
        cluster.stop()
        database.stop()
