"""Faults other than kill -9: a drop between send and ack, a store that fails a write
(disk error mid-transaction, a failed commit, a lock held past the timeout), SIGTERM
under load from several clients."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp

from bridge.server import BRIDGE_KEY
from support.live import Env, rid
from support.process import cli

from .ledger import check_log
from .proc import Server
from .retrying import RetryingClient
from .scale import pick

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


async def test_drop_between_send_and_ack_then_retry_applies_once(env: Env) -> None:
    """The store is held so the request is in flight when the client vanishes."""
    gm = await env.join()
    before = env.seq()
    gate = threading.Event()
    original = env.store.append_many

    def held(items: list[Any]) -> list[Any]:
        gate.wait(10)
        return original(items)

    env.store.append_many = held  # type: ignore[method-assign]
    payload = {"id": rid(), "actor": "bruno", "add": ["prone"]}
    await gm.sio.emit("status_set", payload, namespace="/vtt")
    await asyncio.sleep(0.2)
    await gm.close()  # gone before the ack
    gate.set()
    env.store.append_many = original  # type: ignore[method-assign]
    back = await env.join(last_seq=before)
    retried = await back.call("status_set", payload)
    assert retried["ok"] and retried["seq"] == before + 1
    assert retried["duplicate"], "the retry was applied a second time"
    check_log(env.store.path, env.world.world_id, {payload["id"]: before + 1})


async def test_kill_9_between_send_and_ack_then_retry_applies_once(tmp_path: Path) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = await Server.astart(tmp_path)
    current = [server]
    acked: dict[str, int] = {}
    try:
        for attempt in range(pick(4, 12)):
            client = RetryingClient(lambda: current[0].url, auth, time.monotonic() + 60)
            warm = {"id": rid(), **ROLL}
            acked[warm["id"]] = (await client.call("roll", warm))["seq"]
            payload = {"id": rid(), **ROLL}
            assert client.sio is not None
            await client.sio.emit("roll", payload, namespace="/vtt")
            await asyncio.sleep(attempt * 0.003)  # before, during or after the write
            await asyncio.to_thread(current[0].kill9)
            current[0] = await Server.astart(tmp_path)
            ack = await client.call("roll", payload)
            assert ack["ok"], ack
            acked[payload["id"]] = ack["seq"]
            await client.close()
    finally:
        current[0].stop()
    check_log(tmp_path, world["world_id"], acked)


class FailingDb:
    """The store's SQLite connection, failing the statements that match ``when``."""

    def __init__(self, db: sqlite3.Connection, when: str, error: str) -> None:
        self.db, self.when, self.error = db, when, error

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith(self.when):
            raise sqlite3.OperationalError(self.error)
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith(self.when):
            raise sqlite3.OperationalError(self.error)
        return self.db.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


async def _fails_cleanly(env: Env, when: str, error: str) -> None:
    gm = await env.join()
    other = await env.join("player", "ana")
    before = env.seq()
    runtime = env.app[BRIDGE_KEY].worlds[env.world.world_id]
    world_before = runtime.world
    real = env.store._db
    env.store._db = FailingDb(real, when, error)  # type: ignore[assignment]
    payload = {"id": rid(), "actor": "bruno", "add": ["stunned"]}
    try:
        ack = await gm.call("status_set", payload)
    finally:
        env.store._db = real
    assert ack["ok"] is False and ack["error"]["code"] == "store_error", ack
    assert env.seq() == before, "a failed write left something behind"
    assert runtime.world is world_before and runtime.seq == before, "memory moved on"
    assert other.drain() == [], "a push went out for a write that failed"
    roll = await other.call("roll", {"id": rid(), **ROLL})  # still serving
    assert roll["ok"] is False and roll["error"]["code"] == "not_your_actor"
    retried = await gm.call("status_set", payload)
    assert retried["ok"] and retried["seq"] == before + 1 and not retried["duplicate"]
    again = await gm.call("status_set", payload)
    assert again["duplicate"] and again["seq"] == before + 1
    check_log(env.store.path, env.world.world_id, {payload["id"]: before + 1})


async def test_disk_error_in_the_middle_of_a_write_half_applies_nothing(env: Env) -> None:
    # The world's row is already updated when the event's INSERT fails.
    await _fails_cleanly(env, "INSERT INTO EVENTS", "disk I/O error")


async def test_a_failed_commit_applies_nothing(env: Env) -> None:
    await _fails_cleanly(env, "COMMIT", "database or disk is full")


async def test_a_lock_held_past_the_timeout_is_a_store_error(env: Env) -> None:
    gm = await env.join()
    player = await env.join("player", "ana")
    before = env.seq()
    other = sqlite3.connect(env.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holding the write lock
    payload = {"id": rid(), "actor": "bruno", "add": ["prone"]}
    try:
        pending = asyncio.create_task(gm.call("status_set", payload, timeout=20))
        # the server still answers meanwhile
        async with aiohttp.ClientSession() as http, http.get(env.url + "healthz") as response:
            assert (await response.json())["ok"] is True
        refused = await player.call("roll", {"id": rid(), **ROLL})  # and other requests
        assert refused["error"]["code"] == "not_your_actor"
        ack = await pending
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert ack["ok"] is False and ack["error"]["code"] == "store_error", ack
    assert env.seq() == before
    retried = await gm.call("status_set", payload)
    assert retried["ok"] and retried["seq"] == before + 1 and not retried["duplicate"]


async def test_sigterm_under_load_from_many_clients_drains_cleanly(tmp_path: Path) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = await Server.astart(tmp_path)
    acked: dict[str, int] = {}
    from support.live import connect

    clients = [await connect(server.url, auth) for _ in range(pick(6, 20))]

    async def load(client: Any) -> None:
        while True:
            payload = {"id": rid(), **ROLL}
            try:
                ack = await client.call("roll", payload, timeout=5)
            except Exception:
                return
            if not ack["ok"]:
                assert ack["error"]["code"] in ("shutting_down", "rate_limited"), ack
                if ack["error"]["code"] == "shutting_down":
                    return
                continue
            acked[payload["id"]] = ack["seq"]

    tasks = [asyncio.create_task(load(c)) for c in clients]
    try:
        while len(acked) < 30:
            await asyncio.sleep(0.01)
        started = time.monotonic()
        lines = await asyncio.to_thread(server.terminate)
        stopped_in = time.monotonic() - started
        await asyncio.gather(*tasks)
    finally:
        server.stop()
        for client in clients:
            await client.close()
    assert lines[-2:] == ['{"event": "stopping"}', '{"event": "stopped"}']
    assert server.process.returncode == 0
    assert stopped_in < 20, f"shutdown took {stopped_in:.1f} s"
    check_log(tmp_path, world["world_id"], acked)
