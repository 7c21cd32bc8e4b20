"""The floor: the same aiohttp + python-socketio stack as the bridge (msgpack, compression
off, one room per world) whose handlers only ack and push the same bytes.

"The same stack" is the one the bridge serves with: the same websocket class (no
compression, the frames' deadline), the same bounded outgoing queue, the same push to a
room (``bridge.rooms``, one encoding and the packets queued for each member, without
python-socketio's task per member) and the same dispatch of an event
(:class:`bridge.transport.VttServer`: the handler called as the packet is decoded, its
ack queued from its answer's future, no task an event). Where the bridge's transport is
leaner than the stock one, the floor is too, so the ratio measures the bridge's own
work, not a transport the floor lacks.

``python -m bridge.bench.floor --port 0 --captured FILE`` where FILE holds, per scenario,
``{"operations": [[[event, ack, pushes], ...], ...]}``: a run of whole operations recorded
from the real bridge (``load.mjs`` in capture mode), each request's event with its ack and
the pushes it caused. A connection's token is ``<scenario>|<room>``: each connection walks
through the recorded operations in turn (connections start at different ones), and each
request is answered with the next recorded step's ack, after that step's pushes went to
the connection's room, as the bridge does. So an operation of the floor's takes the
requests and bytes one of the bridge's took (a burst that missed, or hit three times), and
over a run as many requests an operation, on average, as the sample the bridge gave.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from pathlib import Path
from typing import Any

from aiohttp import web

from bridge.rooms import push_now
from bridge.transport import UncompressedWebSocket, VttServer, settle_collector

NS = "/vtt"
Captured = dict[str, dict[str, list[list[list[Any]]]]]
"""Per scenario: ``{"operations": [[[event, ack, pushes], ...], ...]}`` (load.mjs's capture)."""
NOTHING: list[Any] = ["", {"ok": False, "error": {"code": "unknown_event"}}, []]


class Recorded:
    """One scenario's recorded operations, and where each connection is in them."""

    def __init__(self, operations: list[list[list[Any]]]) -> None:
        self.operations = [op for op in operations if op] or [[NOTHING]]
        self.by_event: dict[str, list[Any]] = {}
        for op in self.operations:
            for step in op:
                self.by_event.setdefault(step[0], step)
        self.starts = 0

    def cursor(self) -> list[int]:
        """A new connection's place: [operation, step], each one starting at the next."""
        self.starts += 1
        return [self.starts % len(self.operations), 0]

    def answer(self, place: list[int], event: str) -> list[Any]:
        """The recorded step for ``event`` at ``place`` (moved on past it). A request that is
        not the one the recording has next (none is, in the benchmark's closed loops) gets
        the first recorded step of that event, or ``unknown_event``."""
        op = self.operations[place[0]]
        step = op[place[1]]
        if step[0] != event:
            return self.by_event.get(event, NOTHING)
        place[1] += 1
        if place[1] == len(op):
            place[0] = (place[0] + 1) % len(self.operations)
            place[1] = 0
        return step


class FloorServer(VttServer):
    """The bridge's socket.io server class (:class:`bridge.transport.VttServer`): its
    engine.io server's bounded outgoing queue, whose put is cheaper than asyncio.Queue's
    (ninth pass), and its dispatch, which calls a served namespace's handler as the packet
    is decoded and acks a future's answer from its done callback (eleventh pass: no task
    an event, no engine.io send coroutines for the ack), so neither is a transport the
    floor lacks. Its checks on the way in (the event's name, the namespace joined) come
    with it: a few comparisons an event."""


def create_floor(captured: Captured) -> web.Application:
    sio = FloorServer(
        async_mode="aiohttp",
        serializer="msgpack",
        http_compression=False,
        logger=False,
        engineio_logger=False,
    )
    sio.eio._async = {**sio.eio._async, "websocket": UncompressedWebSocket}
    recorded = {key: Recorded(value.get("operations", [])) for key, value in captured.items()}
    unknown = Recorded([])
    joined: dict[str, tuple[Recorded, list[int], str]] = {}
    welcome = {"protocol": 1, "seq": 0, "actors": [], "role": "gm"}

    async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = str(auth.get("token")) if isinstance(auth, dict) else "none|none"
        scenario, _, room = token.partition("|")
        operations = recorded.get(scenario, unknown)
        joined[sid] = (operations, operations.cursor(), room)
        await sio.enter_room(sid, room, namespace=NS)

        async def greet() -> None:
            while not sio.manager.is_connected(sid, NS):
                await asyncio.sleep(0.005)
            await sio.emit("welcome", welcome, to=sid, namespace=NS)

        sio.start_background_task(greet)

    async def disconnect(sid: str, reason: Any = None) -> None:
        joined.pop(sid, None)

    def any_event(event: str, sid: str, args: Any) -> asyncio.Future[Any]:
        """The recorded step's pushes queued for the room, then its ack: a future already
        answered (as the bridge's own when it knows the answer at once), which the
        dispatch acks at once."""
        operations, place, room = joined.get(sid, (unknown, [0, 0], "none"))
        _event, ack, pushes = operations.answer(place, event)
        for name, body in pushes:
            push_now(sio, NS, room, name, body)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        answer.set_result(ack)
        return answer

    sio.on("connect", connect, namespace=NS)
    sio.on("disconnect", disconnect, namespace=NS)
    sio.serve(NS, any_event)
    app = web.Application()
    sio.attach(app, socketio_path="socket.io")
    return app


async def main(port: int, captured_file: Path) -> None:
    captured = json.loads(captured_file.read_text("utf-8"))
    runner = web.AppRunner(create_floor(captured), handle_signals=False)
    await runner.setup()
    settle_collector()  # as ``vtt-bridge serve`` does (bridge.server.create_app): same runtime
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    sockets = getattr(site._server, "sockets", None) or []
    bound = sockets[0].getsockname()[1] if sockets else port
    print(
        json.dumps({"event": "listening", "url": f"http://127.0.0.1:{bound}/", "port": bound}),
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--captured", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(main(args.port, args.captured))
