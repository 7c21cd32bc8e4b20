"""A closed connection is freed by reference counting, not left for the cyclic collector.

The long soak's RSS grew ~700-1,200 B a request after warm-up (docs/reliability.md, item
10): every closed connection left a reference cycle holding its whole aiohttp request,
websocket, engine.io socket, queues and buffers, which only a full collection freed, and
the server's collector runs one rarely (bridge.transport.SERVER_GC_THRESHOLDS). Here the
collector is off while clients connect, play and leave: once their sockets are gone on the
server, their websockets and requests may not be left alive."""

from __future__ import annotations

import asyncio
import gc

from aiohttp import web

from bridge.server import BRIDGE_KEY
from bridge.transport import UncompressedWebSocket
from support.live import Env, rid

from .scale import pick


def _alive(kind: type) -> int:
    return sum(1 for o in gc.get_objects() if type(o) is kind)


async def _gone(env: Env, seconds: float = 10.0) -> None:
    eio = env.app[BRIDGE_KEY].sio.eio
    for _ in range(int(seconds / 0.02)):
        if not eio.sockets:
            break
        await asyncio.sleep(0.02)
    assert not eio.sockets, "the server still holds sockets of closed clients"
    for _ in range(10):  # the handlers' last steps (writer task, close) end on later turns
        await asyncio.sleep(0.05)


async def test_closed_connections_leave_no_cycles(env: Env) -> None:
    kinds = (UncompressedWebSocket, web.WebSocketResponse, web.Request)
    gc.collect()
    was = gc.isenabled()
    gc.disable()  # what is freed from here on is freed by reference counting alone
    try:
        before = [_alive(kind) for kind in kinds]
        for _ in range(pick(3, 10)):
            gm = await env.join()
            player = await env.join("player", "ana")
            ack = await gm.call(
                "roll", {"id": rid(), "action": "skill", "actor": "luchador", "params": {}}
            )
            assert "ok" in ack
            await player.close()
            await gm.close()
            env.clients.clear()
        await _gone(env)
        after = [_alive(kind) for kind in kinds]
    finally:
        if was:
            gc.enable()
    # (engine.io's own socket object lives on until its ping timer wakes, up to 25 s later,
    # then goes; it no longer holds the websocket or the request.)
    assert after == before, f"websockets, responses, requests alive: {before} -> {after}"
