"""The floor: the same aiohttp + python-socketio stack as the bridge (msgpack, compression
off, one room per world) whose ``roll`` handler only acks and pushes the same bytes.

``python -m bridge.bench.floor --port 0 --ack FILE`` where FILE holds ``{"ack", "card"}``
captured from a real bridge roll; a token is its world's id.
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

from bridge.transport import UncompressedWebSocket

NS = "/vtt"


def create_floor(ack: dict[str, Any], card: dict[str, Any]) -> web.Application:
    sio = socketio.AsyncServer(
        async_mode="aiohttp",
        serializer="msgpack",
        http_compression=False,
        logger=False,
        engineio_logger=False,
    )
    sio.eio._async = {**sio.eio._async, "websocket": UncompressedWebSocket}
    rooms: dict[str, str] = {}
    welcome = {"protocol": 1, "seq": 0, "actors": [], "role": "gm"}

    async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        room = str(auth.get("token")) if isinstance(auth, dict) else "none"
        rooms[sid] = room
        await sio.enter_room(sid, room, namespace=NS)

        async def greet() -> None:
            while not sio.manager.is_connected(sid, NS):
                await asyncio.sleep(0.005)
            await sio.emit("welcome", welcome, to=sid, namespace=NS)

        sio.start_background_task(greet)

    async def disconnect(sid: str, reason: Any = None) -> None:
        rooms.pop(sid, None)

    async def roll(sid: str, data: Any) -> dict[str, Any]:
        await sio.emit("chat_card", card, room=rooms.get(sid, "none"), namespace=NS)
        return ack

    sio.on("connect", connect, namespace=NS)
    sio.on("disconnect", disconnect, namespace=NS)
    sio.on("roll", roll, namespace=NS)
    app = web.Application()
    sio.attach(app, socketio_path="socket.io")
    return app


async def main(port: int, ack_file: Path) -> None:
    captured = json.loads(ack_file.read_text("utf-8"))
    runner = web.AppRunner(create_floor(captured["ack"], captured["card"]), handle_signals=False)
    await runner.setup()
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
    parser.add_argument("--ack", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(main(args.port, args.ack))
