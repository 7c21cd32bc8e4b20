"""Transport adjustments to python-socketio and engine.io, each with the reason for it."""

from __future__ import annotations

from typing import Any

import socketio
from aiohttp import web
from engineio.async_drivers import aiohttp as eio_aiohttp


class UncompressedWebSocket(eio_aiohttp.WebSocket):  # type: ignore[misc]
    """engine.io's aiohttp websocket without per-message deflate.

    aiohttp compresses every frame when the client offers it and engine.io has no
    switch; for our small frames that cost 13-32 % throughput and ~90 kB per
    connection on this machine (ARCHITECTURE.md).
    """

    async def __call__(self, environ: dict[str, Any]) -> web.WebSocketResponse:
        request = environ["aiohttp.request"]
        self._sock = web.WebSocketResponse(
            max_msg_size=self.server.max_http_buffer_size, compress=False
        )
        await self._sock.prepare(request)
        self.environ = environ
        await self.handler(self)
        return self._sock


class VttServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio routes a client *event* named ``connect`` or ``disconnect`` to
    the connection handlers (found by the fuzz test: a fake ``connect`` raised and
    never acked, a fake ``disconnect`` dropped the session). Such events go to the
    catch-all handler instead, which answers ``unknown_event``."""

    RESERVED = frozenset({"connect", "connect_error", "disconnect"})

    async def _handle_event_internal(
        self, server: Any, sid: str, eio_sid: str, data: list[Any], namespace: str, id: Any
    ) -> None:
        if data and data[0] in self.RESERVED:
            data = [f"reserved:{data[0]}", *data[1:]]
        await super()._handle_event_internal(server, sid, eio_sid, data, namespace, id)
