"""A hand-made websocket + engine.io + socket.io (msgpack) client on a bare TCP socket.

It sends exactly the bytes a test chooses (malformed frames, packets no library would
send) and can stop reading altogether, as a client on a stalled link does.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
from typing import Any
from urllib.parse import urlparse

import msgpack

NS = "/vtt"
TEXT, BINARY, CLOSE = 0x1, 0x2, 0x8


class RawSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.next_id = 1

    @classmethod
    async def open(cls, url: str, *, rcvbuf: int | None = None) -> RawSocket:
        parsed = urlparse(url)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (parsed.hostname, parsed.port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=16 * 1024)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                f"Host: {parsed.hostname}:{parsed.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 101"), head
        raw = cls(reader, writer)
        opcode, data = await raw.recv_frame()
        assert opcode == TEXT and data.startswith(b"0"), data  # engine.io OPEN
        return raw

    # -- websocket frames -------------------------------------------------------
    async def send_frame(self, opcode: int, data: bytes) -> None:
        mask = os.urandom(4)
        head = bytes([0x80 | opcode])
        size = len(data)
        if size < 126:
            head += bytes([0x80 | size])
        elif size < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.writer.write(head + mask + masked)
        await self.writer.drain()

    async def recv_frame(self, timeout: float = 10) -> tuple[int, bytes]:
        head = await asyncio.wait_for(self.reader.readexactly(2), timeout)
        opcode, size = head[0] & 0x0F, head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return opcode, await self.reader.readexactly(size)

    # -- engine.io / socket.io ------------------------------------------------
    async def send_packet(self, packet: dict[str, Any]) -> None:
        await self.send_frame(BINARY, msgpack.packb(packet))

    async def connect_ns(self, auth: Any) -> None:
        await self.send_packet({"type": 0, "nsp": NS, "data": auth})

    async def emit(self, event: str, *args: Any) -> int:
        number = self.next_id
        self.next_id += 1
        await self.send_packet({"type": 2, "nsp": NS, "data": [event, *args], "id": number})
        return number

    async def recv_packet(self, timeout: float = 10) -> Any:
        """The next socket.io packet (decoded); answers engine.io pings on the way."""
        while True:
            opcode, data = await self.recv_frame(timeout)
            if opcode == TEXT:
                if data == b"2":
                    await self.send_frame(TEXT, b"3")
                if data == b"1":
                    raise ConnectionError("engine.io close")
                continue
            if opcode == CLOSE:
                raise ConnectionError("websocket close")
            return msgpack.unpackb(data, strict_map_key=False)

    async def until(self, kind: int, event: str | None = None, timeout: float = 10) -> Any:
        while True:
            packet = await self.recv_packet(timeout)
            if packet.get("type") == kind and (event is None or packet["data"][0] == event):
                return packet

    async def ack(self, number: int, timeout: float = 10) -> Any:
        while True:
            packet = await self.recv_packet(timeout)
            if packet.get("type") == 3 and packet.get("id") == number:
                return packet["data"][0]

    def close(self) -> None:
        self.writer.transport.abort()
