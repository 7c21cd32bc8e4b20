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
    must publish through ``emit``). A member whose socket closed meanwhile is skipped,
    as ``emit``'s task for it would have failed alone; the others get the packet."""
    members = [eio_sid for _, eio_sid in sio.manager.get_participants(namespace, room)]
    if not members:
        return
    encoded = sio.packet_class(
        socketio.packet.EVENT, namespace=namespace, data=[event, data]
    ).encode()
    packets = [
        engineio.packet.Packet(engineio.packet.MESSAGE, part)
        for part in (encoded if isinstance(encoded, list) else [encoded])
    ]
    eio = sio.eio
    sockets, deadline = eio.sockets, eio.ping_timeout
    now = time.time()
    for eio_sid in members:
        sock = sockets.get(eio_sid)
        last_ping = None if sock is None else sock.last_ping
        if sock is None or sock.closed or (last_ping and now - last_ping > deadline):
            # Gone, closing, or its client stopped pinging: engine.io's own send deals with
            # it (skips it, or closes the socket), and this member alone misses the push.
            try:
                for part in packets:
                    await eio.send_packet(eio_sid, part)
            except Exception:
                log.debug("push to a closed socket skipped", exc_info=True)
            continue
        # What engine.io's send does for a live socket: the packet queued for its writer
        # task (the queue is bridge.transport.OutgoingQueue: bounded, never waits).
        put = sock.queue.put_nowait
        for part in packets:
            put(part)
