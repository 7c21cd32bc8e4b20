"""Nothing acknowledged is lost: kill -9 and restart, SIGTERM mid-load, last_seq catch-up."""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.live import connect, rid
from support.process import ServerProcess, cli

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


async def test_kill_9_then_restart_loses_nothing(tmp_path: Path) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = ServerProcess.start(tmp_path)
    try:
        client = await connect(server.url, auth)
        acked = []
        for _ in range(12):
            ack = await client.call("roll", {"id": rid(), **ROLL})
            assert ack["ok"]
            acked.append((ack["seq"], ack["cards"][0]["dice"]))
        retry_payload = {"id": rid(), **ROLL}
        retry_ack = await client.call("roll", retry_payload)
        server.kill9()
        await client.close()
        server = ServerProcess.start(tmp_path)
        back = await connect(server.url, {**auth, "last_seq": 0})
        assert back.welcome is not None and back.welcome["seq"] == 13
        replayed = [await back.next_push("chat_card") for _ in range(13)]
        assert [(c["seq"], c["dice"]) for c in replayed[:12]] == acked
        assert [c["seq"] for c in replayed] == list(range(1, 14))
        again = await back.call("roll", retry_payload)
        assert again["duplicate"] and again["seq"] == retry_ack["seq"]
        fresh = await back.call("roll", {"id": rid(), **ROLL})
        assert fresh["seq"] == 14
        await back.close()
    finally:
        server.stop()
    listed = cli("world", "list", "--data", str(tmp_path))
    assert listed["seq"] == 14


async def test_sigterm_mid_load_drains_cleanly(tmp_path: Path) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = ServerProcess.start(tmp_path)
    acked: list[int] = []
    try:
        client = await connect(server.url, auth)

        async def load() -> None:
            for _ in range(200):
                try:
                    ack = await client.call("roll", {"id": rid(), **ROLL}, timeout=3)
                except Exception:
                    return
                if not ack["ok"]:
                    assert ack["error"]["code"] == "shutting_down"
                    return
                acked.append(ack["seq"])

        task = asyncio.create_task(load())
        while len(acked) < 5:
            await asyncio.sleep(0.01)
        lines = await asyncio.to_thread(server.terminate)
        await task
        assert lines[-2:] == ['{"event": "stopping"}', '{"event": "stopped"}']
        assert server.process.returncode == 0
        await client.close()
    finally:
        server.stop()
    listed = cli("world", "list", "--data", str(tmp_path))
    assert listed["seq"] >= max(acked), "an acknowledged event was lost"
    assert acked == list(range(1, len(acked) + 1))


async def test_restart_in_process_keeps_the_world(env: object) -> None:
    from support.live import Env

    assert isinstance(env, Env)
    gm = await env.join()
    ack = await gm.call("status_set", {"id": rid(), "actor": "bruno", "add": ["prone"]})
    await env.restart()
    back = await env.join(last_seq=0)
    assert back.welcome is not None and back.welcome["seq"] == ack["seq"]
    bruno = next(a for a in back.welcome["actors"] if a["id"] == "bruno")
    assert bruno["statuses"] == ["prone"]


async def test_a_failing_store_write_is_a_clear_error_and_changes_nothing(env: object) -> None:
    from bridge.store import StoreError
    from support.live import Env

    assert isinstance(env, Env)
    gm = await env.join()
    before = env.seq()
    original = env.store.append_many

    def failing(items: list[object]) -> list[object]:
        return [StoreError("disk I/O error (simulated)") for _ in items]

    env.store.append_many = failing  # type: ignore[method-assign,assignment]
    payload = {"id": rid(), **ROLL}
    ack = await gm.call("roll", payload)
    assert ack["ok"] is False and ack["error"]["code"] == "store_error"
    assert "nada" in ack["error"]["message"] or "nothing" in ack["error"]["message"]
    env.store.append_many = original  # type: ignore[method-assign]
    assert env.seq() == before
    retried = await gm.call("roll", payload)  # the same request, once the disk is back
    assert retried["ok"] and retried["seq"] == before + 1 and not retried["duplicate"]
    again = await gm.call("roll", payload)
    assert again["duplicate"] and again["seq"] == before + 1
