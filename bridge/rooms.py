"""A push to a socket.io room: encoded once, queued for each member in turn.

python-socketio's ``AsyncServer.emit(event, data, room=...)`` encodes the packet once for
the room (as here), then starts a task per member that queues it on the member's
engine.io socket, and waits for all of them with ``asyncio.wait``. Queuing a packet never
waits for the client (the socket's writer task sends what is queued), so the tasks buy
nothing but their cost: with five members a room, ~400 Python calls a push, about as
many as the rest of a roll request (cProfile of ``python -m bridge.bench.handle_cpu``,
docs/performance-served.md, "Sixth pass"). Here each member's socket gets the same
engine.io packets, in the same order, one member after another, queued as engine.io's
``AsyncSocket.send`` queues them (after the same checks: a closed socket, a client past its
ping deadline, which engine.io's own send then handles).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import engineio
import socketio

log = logging.getLogger("vtt_bridge.rooms")


async def push_to_room(
    sio: socketio.AsyncServer, namespace: str, room: str, event: str, data: Any
) -> None:
    """``await sio.emit(event, data, room=room, namespace=namespace)`` for a server whose
    client manager is python-socketio's own (one process: not a pub/sub manager, which
    must publish through ``emit``): :func:`push_now`, then the sends it left to engine.io
    for members gone, closing or past their ping deadline awaited, as ``emit`` awaits
    them."""
    late = push_now(sio, namespace, room, event, data)
    if late:
        await asyncio.gather(*late)


def push_now(
    sio: socketio.AsyncServer, namespace: str, room: str, event: str, data: Any
) -> list[asyncio.Task[None]] | None:
    """:func:`push_to_room` without an await: every live member's packets queued before
    it returns. A member whose socket closed meanwhile, or whose client stopped pinging,
    is left to engine.io's own send in a task of its own (which skips it, or closes it),
    as ``emit``'s task for it would have failed alone; the others get the packet. The
    tasks so started, if any."""
    members = [eio_sid for _, eio_sid in sio.manager.get_participants(namespace, room)]
    if not members:
        return None
    late: list[asyncio.Task[None]] | None = None
    packets = engineio_packets(
        sio.packet_class(socketio.packet.EVENT, namespace=namespace, data=[event, data]).encode()
    )
    eio = sio.eio
    sockets, deadline = eio.sockets, eio.ping_timeout
    now = time.time()
    for eio_sid in members:
        sock = sockets.get(eio_sid)
        last_ping = None if sock is None else sock.last_ping
        if sock is None or sock.closed or (last_ping and now - last_ping > deadline):
            if late is None:
                late = []
            late.append(_send_later(eio, eio_sid, packets))
            continue
        # What engine.io's send does for a live socket: the packet queued for its writer
        # task (the queue is bridge.transport.OutgoingQueue: bounded, never waits).
        put = sock.queue.put_nowait
        for part in packets:
            put(part)
    return late


def queue_to_socket(sio: socketio.AsyncServer, eio_sid: str, encoded: Any) -> None:
    """A socket.io packet's encoding (``Packet.encode()``) queued for one client, without
    an await: what ``AsyncServer._send_packet`` does, through engine.io's ``send`` (four
    coroutines deep) for a live socket. A socket gone, closing or past its ping deadline
    is left to engine.io's own send, in a task of its own (it skips it, or closes it)."""
    packets = engineio_packets(encoded)
    eio = sio.eio
    sock = eio.sockets.get(eio_sid)
    last_ping = None if sock is None else sock.last_ping
    if sock is None or sock.closed or (last_ping and time.time() - last_ping > eio.ping_timeout):
        _send_later(eio, eio_sid, packets)
        return
    put = sock.queue.put_nowait
    for part in packets:
        put(part)


def engineio_packets(encoded: Any) -> list[engineio.packet.Packet]:
    """A socket.io packet's encoding (one part, or several for a binary packet) as the
    engine.io MESSAGE packets that carry it."""
    return [
        engineio.packet.Packet(engineio.packet.MESSAGE, part)
        for part in (encoded if isinstance(encoded, list) else [encoded])
    ]


_SLOW: set[asyncio.Task[None]] = set()
"""The tasks of :func:`_send_later` (kept until done)."""


def _send_later(
    eio: Any, eio_sid: str, packets: list[engineio.packet.Packet]
) -> asyncio.Task[None]:
    """Packets for a socket gone, closing or past its ping deadline, left to engine.io's
    own send (it skips the socket, or closes it), in a task of their own (returned)."""
    task = asyncio.get_running_loop().create_task(_send_slowly(eio, eio_sid, packets))
    _SLOW.add(task)
    task.add_done_callback(_SLOW.discard)
    return task


async def _send_slowly(eio: Any, eio_sid: str, packets: list[engineio.packet.Packet]) -> None:
    try:
        for part in packets:
            await eio.send_packet(eio_sid, part)
    except Exception:
        log.debug("push to a closed socket skipped", exc_info=True)
