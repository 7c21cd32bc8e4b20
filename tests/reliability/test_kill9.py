"""Repeated ``kill -9`` under load: clients retry and reconnect, nothing acknowledged is lost,
nothing is applied twice, ``seq`` has no gap and the state is the fold of the log."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from pathlib import Path
from typing import Any

from support.process import cli

from .ledger import check_log
from .proc import Server
from .retrying import RetryingClient
from .scale import pick

CYCLES = pick(6, 25)
CLIENTS = pick(3, 6)


def _request(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Rolls that change nothing, and GM changes that do (so the fold has work to do)."""
    roll = rng.random()
    rid = uuid.uuid4().hex
    if roll < 0.5:
        return "roll", {
            "id": rid,
            "actor": rng.choice(["aldara", "bruno"]),
            "action": "attribute",
            "params": {"attribute": "fisico"},
        }
    if roll < 0.8:
        key = "add" if rng.random() < 0.6 else "remove"
        return "status_set", {
            "id": rid,
            "actor": rng.choice(["aldara", "bruno"]),
            key: [rng.choice(["stunned", "prone", "bleeding"])],
        }
    return "time_advance", {"id": rid, "unit": "round", "count": rng.randint(1, 3)}


async def test_kill_9_cycles_under_load_lose_nothing(tmp_path: Path) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = await Server.astart(tmp_path)
    current = [server]
    acked: dict[str, int] = {}
    deadline = time.monotonic() + pick(90, 600)
    done = asyncio.Event()

    async def work(number: int) -> RetryingClient:
        rng = random.Random(number)
        client = RetryingClient(lambda: current[0].url, auth, deadline)
        while not done.is_set() and time.monotonic() < deadline:
            event, payload = _request(rng)
            ack = await client.call(event, payload)
            assert ack["ok"], ack
            assert payload["id"] not in acked
            acked[payload["id"]] = ack["seq"]
        await client.close()
        return client

    workers = [asyncio.create_task(work(n)) for n in range(CLIENTS)]
    killed = 0
    try:
        rng = random.Random(0)
        for _ in range(CYCLES):
            floor = len(acked) + 3
            while len(acked) < floor and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            await asyncio.sleep(rng.random() * 0.2)  # somewhere in the middle of requests
            await asyncio.to_thread(current[0].kill9)
            killed += 1
            current[0] = await Server.astart(tmp_path)
        floor = len(acked) + 5
        while len(acked) < floor and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        done.set()
        clients = await asyncio.gather(*workers)
    finally:
        done.set()
        for task in workers:
            task.cancel()
        current[0].stop()
    assert killed == CYCLES
    assert sum(c.reconnects for c in clients) >= CYCLES, "clients did not ride through kills"
    events = check_log(tmp_path, world["world_id"], acked)
    assert len(events) >= len(acked)
    print(
        f"kill -9 x{killed}: {len(acked)} acked, {len(events)} in the log, "
        f"{sum(c.retries for c in clients)} retries, {sum(c.reconnects for c in clients)} connects"
    )
