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

import orjson

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
    world = orjson.loads(state)

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
                # The world as the roll found it (its actors: the row an event's seq lives
                # in is as wide as in play, not an empty state).
                store.create_world(
                    world_id, world_id, "o3d10", f"g{world_id}", f"p{world_id}", world, ""
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


def group_cpu(
    groups: int = 300, size: int = 13, worlds: int = 10, *, synchronous: str = "FULL"
) -> tuple[float, float]:
    """The store thread's CPU a group and an event, as served: ``groups`` group commits
    of ``size`` real roll events spread over ``worlds`` worlds (a served Savage Worlds or
    o3d10 roll x50 groups ~9-13 events of 10 worlds), durable (a file) unless
    ``synchronous`` says otherwise; the first tenth left out (warm-up)."""
    from bridge.store import NewEvent, SQLiteStore

    payload, pushes, state = _sample_event()
    world = orjson.loads(state)
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "g.sqlite3", synchronous=synchronous)
        ids = [f"w{i}" for i in range(worlds)]
        for world_id in ids:
            store.create_world(
                world_id, world_id, "o3d10", f"g{world_id}", f"p{world_id}", world, ""
            )
        seqs = dict.fromkeys(ids, 0)
        turn = 0
        for _ in range(groups):
            items: list[tuple[str, NewEvent, dict[str, Any] | str]] = []
            for _ in range(size):
                world_id = ids[turn % worlds]
                turn += 1
                seqs[world_id] += 1
                record = NewEvent(
                    seqs[world_id],
                    uuid.uuid4().hex,
                    "roll",
                    "gm",
                    "gm",
                    payload,
                    "h" * 64,
                    [[10, 5], [10, 7]],
                    pushes,
                    None,
                    "2026-11-30T19:00:00.000+00:00",
                )
                items.append((world_id, record, state))
            started = time.thread_time()
            errors = store.append_many(items)
            cpu.append(time.thread_time() - started)
            assert errors == [None] * size, errors
        store.close()
    kept = cpu[groups // 10 :]
    per_group = sum(kept) / len(kept)
    return per_group, per_group / size


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
    from bridge.limits import Bucket, RateLimit, WorldLimit
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
        off = RateLimit(per_second=0)  # the limits switched off: the session is played fast
        bridge = Bridge(store, registry, rate_limit=off, world_limit=WorldLimit(per_second=0))
        conn = Connection(created.world_id, Session("gm", "gm", "es"), None, bucket=Bucket(off))
        conn.welcomed.set()
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


def replay_rate(
    seconds: float, events: int, *, with_load: bool = False, lines: list[str] | None = None
) -> Rate:
    """Replay of a long session file in process, every push compared, in events per
    second of this thread's CPU time (one core's work, whatever else the machine runs).

    ``with_load`` also times reading the file's lines (``load_session``: JSON and the
    session models) each round, as ``vtt-bridge replay`` does once per file.
    """
    from bridge.sessions import load_session
    from rules.registry import default_registry

    registry = default_registry()
    if lines is None:
        lines = session_lines(events)
    session = load_session(lines, registry)
    step = _replay_step(lines, registry, with_load)
    step()  # warm-up: first renders, first texts
    done = 0
    elapsed = 0.0
    while elapsed < seconds or done == 0:
        started = time.thread_time()
        done += step()
        elapsed += time.thread_time() - started
    what = "load + replay" if with_load else "replay"
    return Rate(f"{what} ({len(session.lines)}-event session file)", done / elapsed, done, elapsed)


def session_lines(events: int) -> list[str]:
    """The lines of :func:`session_file`."""
    with tempfile.TemporaryDirectory() as folder:
        return session_file(Path(folder), events).read_text("utf-8").splitlines()


def _replay_step(lines: list[str], registry: Any, with_load: bool) -> Any:
    from bridge.replay import replay
    from bridge.sessions import load_session

    loaded = load_session(lines, registry)

    def step() -> int:
        session = load_session(lines, registry) if with_load else loaded
        report = replay(session, registry)
        assert not report.divergences, report.divergences[0].describe()
        return report.events

    return step


def main(argv: list[str] | None = None) -> int:
    """``python -m bridge.bench.storage [--replay] [--store] [--seconds S] [--events N]``:
    the replay and store figures, each with a baseline measured in the same run (the
    o3d10 rules core for replay, interleaved; the in-memory store for the durable one)."""
    import argparse

    from bridge.bench.core import measure_cpu, rules_steps

    parser = argparse.ArgumentParser(prog="python -m bridge.bench.storage")
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("--store", action="store_true")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args(argv)
    if not (options.replay or options.store):
        options.replay = options.store = True
    if options.replay:
        core = rules_steps()["o3d10 skill roll"]
        lines = session_lines(options.events)
        slice_ = options.seconds / options.rounds
        totals: dict[str, list[float]] = {}
        for _ in range(options.rounds):
            for rate in (
                measure_cpu("o3d10 rules core (baseline)", core, slice_),
                replay_rate(slice_, options.events, lines=lines),
                replay_rate(slice_, options.events, with_load=True, lines=lines),
            ):
                total = totals.setdefault(rate.name, [0, 0.0])
                total[0] += rate.count
                total[1] += rate.seconds
        base = totals["o3d10 rules core (baseline)"]
        for name, (count, cpu) in totals.items():
            ratio = (count / cpu) / (base[0] / base[1])
            print(f"{name:48s} {count / cpu:10.0f}/s  {ratio:5.2f}x rules core")
    if options.store:
        rates = store_rates(options.seconds)
        memory = next(
            r for k, r in rates.items() if k.startswith("store in memory") and "at once" in k
        )
        for name, rate in rates.items():
            print(f"{name:48s} {rate.per_second:10.0f}/s")
        durable = next(
            r for k, r in rates.items() if k.startswith("store durable") and "at once" in k
        )
        print(
            f"durable / in memory, {WORLDS} worlds at once: {durable.per_second / memory.per_second:.2f}x"
        )
        for mode in ("FULL", "OFF"):
            group, event = group_cpu(synchronous=mode)
            print(
                f"store thread CPU, groups of 13 events of 10 worlds, synchronous={mode}:"
                f" {group * 1e6:.0f} us a group, {event * 1e6:.1f} us an event"
            )
    from bridge.compiled import describe

    print(describe())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
