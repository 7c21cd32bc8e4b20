"""The floor: the same aiohttp + python-socketio stack as the bridge (msgpack, compression
off, one room per world) whose handlers only ack and push the same bytes.

``python -m bridge.bench.floor --port 0 --captured FILE`` where FILE holds, per scenario,
per event name, ``{"ack", "pushes"}`` recorded from the real bridge (``load.mjs`` in
capture mode). A connection's token is ``<scenario>|<room>``: each request is answered
with its scenario's recorded ack for that event, after the recorded pushes went to the
connection's room, as the bridge does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import socketio
from aiohttp import web

from bridge.transport import UncompressedWebSocket, settle_collector

NS = "/vtt"
Captured = dict[str, dict[str, dict[str, Any]]]


def create_floor(captured: Captured) -> web.Application:
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        serializer="msgpack",
        http_compression=False,
        logger=False,
        engineio_logger=False,
    )
    sio.eio._async = {**sio.eio._async, "websocket": UncompressedWebSocket}
    joined: dict[str, tuple[str, str]] = {}
    welcome = {"protocol": 1, "seq": 0, "actors": [], "role": "gm"}
    nothing = {"ack": {"ok": False, "error": {"code": "unknown_event"}}, "pushes": []}

    async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        token = str(auth.get("token")) if isinstance(auth, dict) else "none|none"
        scenario, _, room = token.partition("|")
        joined[sid] = (scenario, room)
        await sio.enter_room(sid, room, namespace=NS)

        async def greet() -> None:
            while not sio.manager.is_connected(sid, NS):
                await asyncio.sleep(0.005)
            await sio.emit("welcome", welcome, to=sid, namespace=NS)

        sio.start_background_task(greet)

    async def disconnect(sid: str, reason: Any = None) -> None:
        joined.pop(sid, None)

    async def any_event(event: str, sid: str, *args: Any) -> dict[str, Any]:
        scenario, room = joined.get(sid, ("none", "none"))
        recorded = captured.get(scenario, {}).get(event, nothing)
        for name, body in recorded["pushes"]:
            await sio.emit(name, body, room=room, namespace=NS)
        ack: dict[str, Any] = recorded["ack"]
        return ack

    sio.on("connect", connect, namespace=NS)
    sio.on("disconnect", disconnect, namespace=NS)
    sio.on("*", any_event, namespace=NS)
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
