"""bridge/rooms.py: a push to a room queues, for every member, exactly the packets
python-socketio's ``emit`` queues, in the same order; a member whose socket closed is
skipped and the others still get it. (Real python-socketio and engine.io servers; the
members' engine.io sockets have no transport, so what each would write is read from its
queue. The live tests, e.g. test_pipeline.py, push through real websockets.)"""

from __future__ import annotations

import time
from typing import Any

import socketio
from engineio.async_socket import AsyncSocket

from bridge.rooms import push_to_room

NS = "/vtt"
CARD = {"seq": 7, "card_id": "7.0", "html": "<b>Éxito</b> & más", "dice": [{"faces": [10, 3]}]}


async def _members(sio: socketio.AsyncServer, room: str, count: int) -> list[AsyncSocket]:
    sockets = []
    for _ in range(count):
        eio_sid = sio.eio.generate_id()
        sock = AsyncSocket(sio.eio, eio_sid)
        sock.connected = True
        sio.eio.sockets[eio_sid] = sock
        sid = await sio.manager.connect(eio_sid, NS)
        await sio.enter_room(sid, room, namespace=NS)
        sockets.append(sock)
    return sockets


def _queued(sock: AsyncSocket) -> list[tuple[int, Any]]:
    out = []
    while not sock.queue.empty():
        packet = sock.queue.get_nowait()
        out.append((packet.packet_type, packet.encode()))
    return out


def _server() -> socketio.AsyncServer:
    return socketio.AsyncServer(async_mode="aiohttp", serializer="msgpack", logger=False)


async def test_a_push_queues_what_emit_queues_for_every_member_in_order() -> None:
    by_emit, direct = _server(), _server()
    emitted = await _members(by_emit, "w:1:gm:es", 5)
    pushed = await _members(direct, "w:1:gm:es", 5)
    outsider = await _members(direct, "w:2:gm:es", 1)
    for name, body in (("chat_card", CARD), ("token_status", {"actor": "a", "numbers": {}})):
        await by_emit.emit(name, body, room="w:1:gm:es", namespace=NS)
        await push_to_room(direct, NS, "w:1:gm:es", name, body)
    expected = [_queued(sock) for sock in emitted]
    assert len(expected[0]) == 2 and all(q == expected[0] for q in expected)
    assert [_queued(sock) for sock in pushed] == expected
    assert _queued(outsider[0]) == []


async def test_a_member_whose_socket_closed_is_skipped_and_the_others_get_the_push() -> None:
    sio = _server()
    members = await _members(sio, "room", 3)
    members[1].closed = True  # closed meanwhile, not yet out of the room
    await push_to_room(sio, NS, "room", "chat_card", CARD)
    assert [len(_queued(sock)) for sock in members] == [1, 0, 1]
    await push_to_room(sio, NS, "nobody's room", "chat_card", CARD)  # no members: nothing
    assert [len(_queued(sock)) for sock in members] == [0, 0, 0]


async def test_a_member_past_its_ping_deadline_is_closed_as_emit_closes_it() -> None:
    by_emit, direct = _server(), _server()
    emitted = await _members(by_emit, "room", 3)
    pushed = await _members(direct, "room", 3)
    for sock in (emitted[2], pushed[2]):
        sock.last_ping = time.time() - by_emit.eio.ping_timeout - 60  # its client went quiet
    await by_emit.emit("chat_card", CARD, room="room", namespace=NS)
    await push_to_room(direct, NS, "room", "chat_card", CARD)
    assert [s.closed for s in pushed] == [s.closed for s in emitted] == [False, False, True]
    expected = [_queued(sock) for sock in emitted]
    assert [_queued(sock) for sock in pushed] == expected
    assert [len(q) for q in expected[:2]] == [1, 1]
