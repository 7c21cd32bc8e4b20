"""CPU per request of ``Bridge.handle`` in process: the bridge's own work, no sockets.

``python -m bridge.bench.handle_cpu [--system o3d10|savage_worlds] [--rounds N]
[--per N]`` builds ten worlds of five members (every member a GM connection in the
world's room, as in the network bench's ``roll x50`` rows) on the real durable SQLite
store, then runs the fifty members' rolls concurrently in ``--rounds`` slices of
``--per`` rolls each and prints the process CPU (every thread: the loop and the store's)
per request, the median and the best slice. Each member is a socket.io connection in its
world's room over an engine.io socket with no transport (:func:`attach_members`): each push
is encoded once for its room and queued for the five members as served, and a stand-in
for engine.io's writer empties each queue (what the websocket write would cost is the
floor's too, and not here). What is measured is the bridge's own work (parsing,
idempotency, rules, undo diff, card JSON, rendering, the push to the room, store hand-off
and the store thread), which is what separates it from the floor. Each request's payload is
fresh (decoded from bytes, with a new random id), as the transport hands one over; the
harness keeps its own share small (orjson, ~1-2 us a request; it was a JSON round trip
and a ``uuid4``, ~6-8 us).

To compare two versions of the code, alternate runs of each checkout with its own venv:
a checkout run with another worktree's venv (``cd OLD && ../new/.venv/bin/python -m
bridge.bench.handle_cpu``) imports that worktree's ``bridge`` (its editable install and the
compiled build's ``.pth`` load it at start), not OLD's. Or load the ``Bridge`` classes of
both versions in one process and alternate their slices (docs/performance-served.md,
"Sixth pass").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

import msgpack
import orjson
import socketio
from engineio.async_socket import AsyncSocket

from bridge.bench.net import O3D10_ROLL, SW_ROLL
from bridge.engine import Session
from bridge.limits import Bucket, RateLimit, WorldLimit
from bridge.server import NAMESPACE, Bridge, Connection
from bridge.store import AsyncStore, SQLiteStore
from bridge.transport import settle_collector
from bridge.worlds import create_world
from rules.registry import default_registry

EVENT, ACK = socketio.packet.EVENT, socketio.packet.ACK
ROLLS = {"o3d10": O3D10_ROLL, "savage_worlds": SW_ROLL}
UNREACHED = RateLimit(per_second=1e9, burst=1e9)
UNREACHED_WORLD = WorldLimit(per_second=1e9, burst=1e9)


async def attach_members(
    bridge: Bridge, world_id: str, sessions: list[Session]
) -> tuple[list[Member], list[asyncio.Task[None]]]:
    """A connection per session in the world's room, each over an engine.io socket with
    no transport: the server encodes and queues each push for it as for a websocket
    client; a task per socket empties its queue as engine.io's writer would before
    writing (returned, to be cancelled at the end). The sockets' ping deadline is off
    (nothing pings them)."""
    sio, eio = bridge.sio, bridge.sio.eio
    runtime = await bridge.runtime(world_id)
    connections: list[Member] = []
    drains: list[asyncio.Task[None]] = []
    for session in sessions:
        eio_sid = eio.generate_id()
        socket = AsyncSocket(eio, eio_sid)
        socket.connected = True
        socket.last_ping = None  # no client pings these: never timed out
        eio.sockets[eio_sid] = socket
        sid = await sio.manager.connect(eio_sid, NAMESPACE)
        await sio.enter_room(sid, bridge._room(world_id, session), namespace=NAMESPACE)
        acks: dict[int, asyncio.Future[Any]] = {}
        drains.append(asyncio.create_task(_drain(socket.queue, acks)))
        conn = Connection(world_id, session, None, bucket=Bucket(UNREACHED))
        conn.welcomed.set()
        bridge.connections[sid] = conn
        connections.append(Member(conn, eio_sid, acks))
        runtime.members[(session.role, session.locale)] += 1
    return connections, drains


class Member(NamedTuple):
    """A member's connection, its engine.io socket's id, and the acks its requests sent
    through the transport wait for (by ack id)."""

    conn: Connection
    eio_sid: str
    acks: dict[int, asyncio.Future[Any]]


async def _drain(queue: asyncio.Queue[Any], acks: dict[int, asyncio.Future[Any]]) -> None:
    """A socket's queue emptied as engine.io's writer would; the acks among its packets
    (only awaited by ``--via transport``) answer their request's future."""
    while True:
        pkt = await queue.get()
        # A socket.io packet's map starts with its type (``{"type": n, ...}``: the map's
        # and the key's headers, then "type", then n). A member has one request in
        # flight at a time, so an ack answers it without being decoded (the harness's
        # share kept small: an ack carries the card).
        if acks and pkt.data[6] == ACK:
            acks.popitem()[1].set_result(pkt.data)


async def measure(
    system_id: str,
    rounds: int,
    per: int,
    worlds: int = 10,
    *,
    freeze: bool = True,
    via: str = "handle",
) -> tuple[list[float], list[float]]:
    """Microseconds of CPU per request, one figure per slice: the whole process, and
    the event loop's thread alone (the rest is the store's thread).

    ``freeze``: as ``vtt-bridge serve`` does once started
    (:func:`bridge.transport.settle_collector`), everything alive before the worlds load
    (modules, the rules' tables, the registry) is moved out of the cyclic collector's way
    and its thresholds are raised; without it the collector runs as in a fresh process,
    which the served bridge does not. Both are put back at the end.

    ``via``: ``handle`` calls :meth:`Bridge.handle` with the decoded payload; ``transport``
    hands each request to the transport as the client's encoded packet (its decoding,
    dispatch and the ack's encoding and queuing counted too)."""
    loop_cpu: list[float] = []
    registry = default_registry()
    with tempfile.TemporaryDirectory() as folder:
        sync = SQLiteStore(Path(folder) / "bridge.sqlite3")
        actors = registry.get(system_id).sample_actors()
        ids = [
            create_world(sync, registry, f"cpu {i}", system_id, actors=actors).world_id
            for i in range(worlds)
        ]
        store = AsyncStore(sync)
        # The limits are checked as in production, with rates no bench slice reaches: the
        # bench sends faster than a table may (200 requests a second a world).
        bridge = Bridge(store, registry, rate_limit=UNREACHED, world_limit=UNREACHED_WORLD)
        thresholds = gc.get_threshold()
        if freeze:
            settle_collector()
        connections: list[Member] = []
        drains: list[asyncio.Task[None]] = []
        for world_id in ids:
            members, tasks = await attach_members(
                bridge, world_id, [Session(f"u{index}", "gm", "es") for index in range(5)]
            )
            connections += members
            drains += tasks
        roll = ROLLS[system_id]

        template = orjson.dumps(roll)
        loop = asyncio.get_running_loop()
        sio = bridge.sio
        ack_ids = iter(range(1, 1 << 62))

        async def rolls(member: Member, count: int) -> None:
            conn = member.conn
            for _ in range(count):
                if via == "transport":
                    # The request as the client's socket.io packet (msgpack), handed to the
                    # transport as engine.io hands over a message: decoded, dispatched,
                    # worked out, and acked on the member's socket.
                    body: dict[str, Any] = orjson.loads(template)
                    body["id"] = os.urandom(16).hex()
                    ack_id = next(ack_ids)
                    waiting: asyncio.Future[Any] = loop.create_future()
                    member.acks[ack_id] = waiting
                    packet = {"type": EVENT, "nsp": NAMESPACE, "data": ["roll", body], "id": ack_id}
                    await sio._handle_eio_message(member.eio_sid, msgpack.packb(packet))
                    encoded = await waiting
                    if b"\xa2ok\xc3" not in encoded:  # msgpack's "ok": true
                        raise RuntimeError(f"refused: {msgpack.unpackb(encoded)}")
                    continue
                # A fresh payload, as the transport decodes one (new dicts and strings), with
                # a random id of the network bench's form (32 hex digits, as randomUUID()
                # without dashes): the client's and the transport's work kept small.
                payload: dict[str, Any] = orjson.loads(template)
                payload["id"] = os.urandom(16).hex()
                ack = await bridge.handle(conn, "roll", (payload,), "es")
                if not ack.get("ok"):
                    raise RuntimeError(f"refused: {ack}")

        async def slice_(count: int) -> float:
            start, loop_start = time.process_time(), time.thread_time()
            await asyncio.gather(*(rolls(c, count) for c in connections))
            requests = count * len(connections)
            loop_cpu.append((time.thread_time() - loop_start) / requests * 1e6)
            return (time.process_time() - start) / requests * 1e6

        await slice_(max(1, per // 4))  # warm-up: worlds loaded, caches filled
        loop_cpu.clear()
        figures = [await slice_(per) for _ in range(rounds)]
        for task in drains:
            task.cancel()
        await asyncio.gather(*drains, return_exceptions=True)
        await store.close()
        if freeze:
            gc.unfreeze()
            gc.set_threshold(*thresholds)
    return figures, loop_cpu


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--system", default="o3d10", choices=sorted(ROLLS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per", type=int, default=20, help="rolls per member per slice")
    parser.add_argument(
        "--no-freeze", action="store_true", help="leave the startup heap to the collector"
    )
    parser.add_argument(
        "--via",
        default="handle",
        choices=("handle", "transport"),
        help="call Bridge.handle, or hand the transport each request's encoded packet",
    )
    args = parser.parse_args(argv)
    from bridge.compiled import describe

    figures, loop_cpu = asyncio.run(
        measure(args.system, args.rounds, args.per, freeze=not args.no_freeze, via=args.via)
    )
    others = [whole - loop for whole, loop in zip(figures, loop_cpu, strict=True)]
    print(
        json.dumps(
            {
                "system": args.system,
                "via": args.via,
                "code": describe(),
                "median_us": round(statistics.median(figures), 1),
                "best_us": round(min(figures), 1),
                "loop_thread_median_us": round(statistics.median(loop_cpu), 1),
                "store_thread_median_us": round(statistics.median(others), 1),
                "slices": [round(f, 1) for f in figures],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
