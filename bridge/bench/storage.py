"""Benchmarks of the bridge's own I/O parts, in process: the store alone and replay.

The store is measured the way the bridge uses it: many worlds appending at once
through :class:`bridge.store.AsyncStore` (group commit), each world's appends in
order, every append awaited until its transaction is on disk; and, for reference,
one append after another. Durable (a file, ``synchronous=FULL``) and in memory
(SQLite ``:memory:``), same code, same run. Replay reads a long session file made
by playing a session through the bridge (a real :class:`bridge.server.Bridge` and
store), then replays it in process, comparing every push.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bridge.bench.core import Rate, measure

WORLDS = 50


def _sample_event() -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A real o3d10 roll's payload and pushes, and its world's state text."""
    from bridge.engine import Accepted, Session, process
    from bridge.serialize import world_json_text
    from protocol.v1.parse import parse_request
    from rules.dice import SeededDice
    from rules.model import World
    from rules.registry import default_registry

    registry = default_registry()
    system = registry.get("o3d10")
    world = World("w", "w", "o3d10", system.default_settings())
    for actor in system.sample_actors():
        world = world.with_actor(actor)
    payload = {
        "id": "bench-000001",
        "actor": "aldara",
        "action": "skill",
        "params": {"skill": "sigilo", "level": "normal"},
    }
    request = parse_request("roll", (payload,))
    result = process(registry, world, Session("gm", "gm", "es"), "roll", request, SeededDice(1))  # type: ignore[arg-type]
    assert isinstance(result, Accepted)
    return payload, result.pushes, world_json_text(result.world)


def store_rates(seconds: float, worlds: int = WORLDS) -> dict[str, Rate]:
    from bridge.store import NewEvent, SQLiteStore

    payload, pushes, state = _sample_event()

    def record(seq: int) -> NewEvent:
        return NewEvent(
            seq, uuid.uuid4().hex, "roll", "gm", "gm", payload, "h", [[10, 5]], pushes, None, "now"
        )

    rates: dict[str, Rate] = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, path in (("durable", Path(folder) / "s.sqlite3"), ("in memory", ":memory:")):
            store = SQLiteStore(path)
            ids = [f"w{i}" for i in range(worlds)]
            for world_id in ids:
                store.create_world(
                    world_id, world_id, "o3d10", f"g{world_id}", f"p{world_id}", {}, ""
                )
            seqs = dict.fromkeys(ids, 0)

            def append(store: SQLiteStore = store, seqs: dict[str, int] = seqs) -> None:
                seqs["w0"] += 1
                store.append("w0", record(seqs["w0"]), state)

            name = f"store {label}, sequential"
            rates[name] = measure(name, append, seconds / 2)

            rate = asyncio.run(
                _concurrent(
                    store, f"store {label}, {worlds} worlds at once", seqs, record, state, seconds
                )
            )
            rates[rate.name] = rate
    return rates


async def _concurrent(
    store: Any,
    name: str,
    seqs: dict[str, int],
    record: Any,
    state: str,
    seconds: float,
) -> Rate:
    """Every world appends in a closed loop, all at once, through one AsyncStore."""
    from bridge.store import AsyncStore

    shared = AsyncStore(store)
    done = [0]
    deadline = time.perf_counter() + seconds

    async def world_loop(world_id: str) -> None:
        while time.perf_counter() < deadline:
            seqs[world_id] += 1
            await shared.append(world_id, record(seqs[world_id]), state)
            done[0] += 1

    started = time.perf_counter()
    await asyncio.gather(*(world_loop(w) for w in seqs))
    elapsed = time.perf_counter() - started
    await shared.close()
    return Rate(name, done[0] / elapsed, done[0], elapsed)


def session_file(folder: Path, events: int) -> Path:
    """A long o3d10 session, played through a real Bridge and store, exported."""
    from bridge.engine import Session
    from bridge.server import Bridge, Connection
    from bridge.sessions import export_lines
    from bridge.store import AsyncStore, SQLiteStore
    from bridge.worlds import create_world
    from rules.registry import default_registry

    registry = default_registry()
    sync = SQLiteStore(folder / "session.sqlite3", synchronous="OFF")
    system = registry.get("o3d10")
    created = create_world(sync, registry, "Larga", "o3d10", actors=system.sample_actors())
    actors = list(system.sample_actors())
    skills = ["sigilo", "cuerpo_a_cuerpo", "armas_a_distancia", "percepcion"]

    async def play() -> None:
        store = AsyncStore(sync)
        bridge = Bridge(store, registry)
        conn = Connection(created.world_id, Session("gm", "gm", "es"), None)
        conn.welcomed.set()
        conn.bucket.take = lambda: True  # type: ignore[method-assign]
        for index in range(events):
            actor = actors[index % len(actors)]
            payload: dict[str, Any] = {
                "id": f"long-{index:08d}",
                "actor": actor.id,
                "action": "skill",
                "params": {"skill": skills[index % len(skills)], "level": "normal"},
            }
            ack = await bridge.handle(conn, "roll", (payload,), "es")
            if not ack.get("ok"):
                # A sample actor without that skill: the refusal is part of the session too.
                continue
        await store.run(lambda: None)

    asyncio.run(play())
    path = folder / "long-session.jsonl"
    path.write_text("\n".join(export_lines(sync, created.world_id)) + "\n", "utf-8")
    sync.close()
    return path


def replay_rate(seconds: float, events: int) -> Rate:
    from bridge.replay import replay
    from bridge.sessions import load_session
    from rules.registry import default_registry

    registry = default_registry()
    with tempfile.TemporaryDirectory() as folder:
        path = session_file(Path(folder), events)
        session = load_session(path.read_text("utf-8").splitlines(), registry)
    started = time.perf_counter()
    done = 0
    while time.perf_counter() - started < seconds or done == 0:
        report = replay(session, registry)
        assert not report.divergences, report.divergences[0].describe()
        done += report.events
    elapsed = time.perf_counter() - started
    return Rate(f"replay ({len(session.events)}-event session file)", done / elapsed, done, elapsed)
