"""A client as a flaky home connection behaves: it reconnects to wherever the server is now
and resends the same request (same id) until it gets an answer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import socketio

from support.live import NS

RETRY_CODES = frozenset({"shutting_down", "store_error", "rate_limited", "world_busy"})


class Gone(Exception):
    """The connection dropped before the ack came."""


class RetryingClient:
    def __init__(self, url: Callable[[], str], auth: dict[str, Any], deadline: float) -> None:
        self.url = url
        self.auth = auth
        self.deadline = deadline
        self.sio: socketio.AsyncClient | None = None
        self.dropped = asyncio.Event()
        self.reconnects = 0
        self.retries = 0
        self.last_seq = 0

    async def _connect(self) -> socketio.AsyncClient:
        while time.monotonic() < self.deadline:
            sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
            welcomed = asyncio.Event()
            dropped = asyncio.Event()

            async def on_welcome(data: dict[str, Any], welcomed: asyncio.Event = welcomed) -> None:
                welcomed.set()

            async def on_disconnect(*_: Any, dropped: asyncio.Event = dropped) -> None:
                dropped.set()

            sio.on("welcome", on_welcome, namespace=NS)
            sio.on("disconnect", on_disconnect, namespace=NS)
            try:
                await sio.connect(
                    self.url(),
                    namespaces=[NS],
                    auth={**self.auth, "last_seq": self.last_seq},
                    transports=["websocket"],
                    wait_timeout=3,
                )
                await asyncio.wait_for(welcomed.wait(), 5)
            except Exception:
                await sio.disconnect()
                await asyncio.sleep(0.05)
                continue
            self.dropped = dropped
            self.reconnects += 1
            return sio
        raise TimeoutError("could not reconnect before the deadline")

    async def call(
        self, event: str, payload: dict[str, Any], timeout: float = 10
    ) -> dict[str, Any]:
        """Send until answered: the same payload (so the same id) every time."""
        while True:
            if self.sio is None or not self.sio.connected or self.dropped.is_set():
                if self.sio is not None:
                    await self.sio.disconnect()
                self.sio = await self._connect()
            call = asyncio.ensure_future(
                self.sio.call(event, payload, namespace=NS, timeout=timeout)
            )
            gone = asyncio.ensure_future(self.dropped.wait())
            done, _ = await asyncio.wait({call, gone}, return_when=asyncio.FIRST_COMPLETED)
            gone.cancel()
            if call not in done:
                call.cancel()
                self.retries += 1
                continue
            try:
                ack = call.result()
            except Exception:
                self.retries += 1
                await asyncio.sleep(0.02)
                continue
            assert isinstance(ack, dict), ack
            if not ack["ok"] and ack["error"]["code"] in RETRY_CODES:
                self.retries += 1
                await asyncio.sleep(0.05)
                continue
            if ack.get("ok"):
                self.last_seq = max(self.last_seq, int(ack["seq"]))
            return ack

    async def close(self) -> None:
        if self.sio is not None:
            await self.sio.disconnect()
