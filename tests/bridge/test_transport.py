"""bridge/transport.py in process: the bounded outgoing queue behaves as ``asyncio.Queue``
does (its ``put_nowait`` is written out), and VttServer's direct dispatch of an EVENT
packet acks exactly what python-socketio's own dispatch acks, with the same safety
(real python-socketio and engine.io servers; the engine.io sockets have no transport, so
what each would write is read from its queue; the live suites, tests/reliability, go
through real websockets)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import engineio
import msgpack
import pytest
import socketio
from engineio.async_socket import AsyncSocket

from bridge.transport import OutgoingQueue, VttServer

NS = "/vtt"


class _Server:
    """What OutgoingQueue needs of its engine.io server: the sockets."""

    def __init__(self) -> None:
        self.sockets: dict[str, Any] = {}


class _Socket:
    def __init__(self, queue: OutgoingQueue) -> None:
        self.queue = queue
        self.aborted = 0

    def vtt_abort(self) -> None:
        self.aborted += 1


async def test_the_queue_keeps_order_counts_tasks_and_wakes_a_waiting_reader() -> None:
    queue = OutgoingQueue(_Server(), limit=10)
    reader = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait("a")
    assert await asyncio.wait_for(reader, 1) == "a"
    for item in ("b", "c", None):
        queue.put_nowait(item)
    assert queue.qsize() == 3 and not queue.empty()
    assert [queue.get_nowait() for _ in range(3)] == ["b", "c", None]
    joined = asyncio.ensure_future(queue.join())
    await asyncio.sleep(0)
    assert not joined.done()  # four items put, none marked done
    for _ in range(4):
        queue.task_done()
    await asyncio.wait_for(joined, 1)
    with pytest.raises(ValueError):
        queue.task_done()


async def test_a_cancelled_reader_is_skipped_and_the_next_one_woken() -> None:
    queue = OutgoingQueue(_Server(), limit=10)
    gone = asyncio.ensure_future(queue.get())
    waiting = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    queue.put_nowait("x")
    assert await asyncio.wait_for(waiting, 1) == "x"


async def test_past_the_limit_the_socket_is_cut_off_once_and_nothing_more_is_queued(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = _Server()
    queue = OutgoingQueue(server, limit=3)
    sock = server.sockets["s1"] = _Socket(queue)
    server.sockets["s0"] = _Socket(OutgoingQueue(server, limit=3))
    with caplog.at_level(logging.WARNING, "vtt_bridge.transport"):
        for index in range(6):
            queue.put_nowait(index)
    assert sock.aborted == 1 and queue.overflowed
    assert "socket s1 stopped reading (3 packets queued)" in caplog.text
    queue.put_nowait(None)  # engine.io's "stop the writer" always goes through
    assert [queue.get_nowait() for _ in range(queue.qsize())] == [0, 1, 2, None]
    await queue.put("late")  # engine.io's own ``send`` puts through ``put``
    assert queue.empty() and sock.aborted == 1


async def _connected(sio: socketio.AsyncServer, namespace: str = NS) -> tuple[AsyncSocket, str]:
    eio_sid = sio.eio.generate_id()
    sock = AsyncSocket(sio.eio, eio_sid)
    sock.connected = True
    sio.eio.sockets[eio_sid] = sock
    sid = await sio.manager.connect(eio_sid, namespace)
    return sock, sid


def _queued(sock: AsyncSocket) -> list[Any]:
    out = []
    while not sock.queue.empty():
        packet = sock.queue.get_nowait()
        if packet is not None and packet.packet_type == engineio.packet.MESSAGE:
            out.append(msgpack.loads(packet.data))
    return out


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def _event(data: Any, id: Any = 7, namespace: str = NS) -> bytes:
    packet = {"type": socketio.packet.EVENT, "data": data, "nsp": namespace}
    if id is not None:
        packet["id"] = id
    return bytes(msgpack.dumps(packet))


ANSWERS: list[Any] = [{"ok": True, "n": 1}, None, ("a", {"b": 2}), [1, 2], "text"]


@pytest.mark.parametrize("answer", ANSWERS)
async def test_an_event_is_acked_as_python_socketio_acks_it(answer: Any) -> None:
    seen: list[tuple[str, str, list[Any]]] = []
    stock = socketio.AsyncServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def any_event(event: str, sid: str, *args: Any) -> Any:
        return answer

    stock.on("*", any_event, namespace=NS)
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def served(event: str, sid: str, args: list[Any]) -> Any:
        seen.append((event, sid, args))
        return answer

    ours.serve(NS, served)
    by_stock, _ = await _connected(stock)
    by_ours, sid = await _connected(ours)
    for data, id in ((["roll", {"id": "x"}], 7), (["roll", {"id": "y"}, 3], 8), (["chat"], None)):
        await stock._handle_eio_message(by_stock.sid, _event(data, id))
        await ours._handle_eio_message(by_ours.sid, _event(data, id))
    await _settle()
    expected = _queued(by_stock)
    assert len(expected) == 2
    assert _queued(by_ours) == expected
    assert seen == [
        ("roll", sid, [{"id": "x"}]),
        ("roll", sid, [{"id": "y"}, 3]),
        ("chat", sid, []),
    ]


async def test_reserved_and_invalid_event_names_reach_the_handler_renamed() -> None:
    seen: list[str] = []
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def served(event: str, sid: str, args: list[Any]) -> Any:
        seen.append(event)
        return {"ok": False}

    ours.serve(NS, served)
    sock, _ = await _connected(ours)
    for data in (["connect"], ["disconnect", {}], ["connect_error"], [], [{"a": 1}], [5, {}]):
        await ours._handle_eio_message(sock.sid, _event(data))
    await _settle()
    assert (
        seen
        == ["reserved:connect", "reserved:disconnect", "reserved:connect_error"]
        + ["invalid:event"] * 3
    )
    assert len(_queued(sock)) == 6 and not sock.closed


@pytest.mark.parametrize(
    "frame",
    [
        b"\xc1",  # not msgpack
        msgpack.dumps({"type": 9, "data": [], "nsp": NS}),  # no such packet type
        msgpack.dumps({"type": socketio.packet.EVENT, "data": ["roll"]}),  # no namespace
        _event(["roll", {}], namespace="/other"),  # a namespace not joined
    ],
)
async def test_a_bad_packet_or_a_namespace_not_joined_closes_the_connection(frame: bytes) -> None:
    called: list[str] = []
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def served(event: str, sid: str, args: list[Any]) -> Any:
        called.append(event)

    ours.serve(NS, served)
    sock, _ = await _connected(ours)
    await ours._handle_eio_message(sock.sid, frame)
    await _settle()
    assert sock.closed and called == []


async def test_a_handler_that_raises_closes_the_connection_instead_of_never_acking() -> None:
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def served(event: str, sid: str, args: list[Any]) -> Any:
        raise RuntimeError("boom")

    ours.serve(NS, served)
    sock, _ = await _connected(ours)
    await ours._handle_eio_message(sock.sid, _event(["roll", {}]))
    await _settle()
    assert sock.closed


async def test_a_namespace_without_a_served_handler_takes_python_socketios_dispatch() -> None:
    seen: list[tuple[str, tuple[Any, ...]]] = []
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)

    async def any_event(event: str, sid: str, *args: Any) -> Any:
        seen.append((event, args))
        return {"ok": True}

    ours.on("*", any_event, namespace="/plain")
    sock, _ = await _connected(ours, "/plain")
    await ours._handle_eio_message(sock.sid, _event(["connect", 1], namespace="/plain"))
    await ours._handle_eio_message(sock.sid, _event(["roll", 2], namespace="/plain"))
    await _settle()
    assert seen == [("reserved:connect", (1,)), ("roll", (2,))]
    assert [packet["type"] for packet in _queued(sock)] == [socketio.packet.ACK] * 2


async def test_a_handler_answering_with_a_future_is_acked_when_it_is_set_with_no_task() -> None:
    """The bridge's usual request answers with its flight's future: acked (as python-
    socketio acks a handler's result) once the future is set, and not before; a future
    done at once is acked at once. No task is started for either."""
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)
    loop = asyncio.get_running_loop()
    pending: asyncio.Future[Any] = loop.create_future()
    done: asyncio.Future[Any] = loop.create_future()
    done.set_result({"ok": True, "n": 0})
    answers = iter([pending, done])

    def served(event: str, sid: str, args: list[Any]) -> asyncio.Future[Any]:
        return next(answers)

    ours.serve(NS, served)
    sock, _ = await _connected(ours)
    tasks = len(asyncio.all_tasks())
    await ours._handle_eio_message(sock.sid, _event(["roll", {"id": "a"}], id=1))
    await ours._handle_eio_message(sock.sid, _event(["roll", {"id": "b"}], id=2))
    assert len(asyncio.all_tasks()) == tasks  # neither request has a task
    assert [(p["id"], p["data"]) for p in _queued(sock)] == [(2, [{"ok": True, "n": 0}])]
    pending.set_result({"ok": True, "n": 1})
    await _settle()
    assert [(p["type"], p["id"], p["data"]) for p in _queued(sock)] == [
        (socketio.packet.ACK, 1, [{"ok": True, "n": 1}])
    ]
    assert not sock.closed


async def test_a_future_that_fails_closes_the_connection_and_a_cancelled_one_is_not_acked() -> None:
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)
    loop = asyncio.get_running_loop()
    cancelled: asyncio.Future[Any] = loop.create_future()
    failing: asyncio.Future[Any] = loop.create_future()
    answers = iter([cancelled, failing])

    def served(event: str, sid: str, args: list[Any]) -> asyncio.Future[Any]:
        return next(answers)

    ours.serve(NS, served)
    sock, _ = await _connected(ours)
    await ours._handle_eio_message(sock.sid, _event(["roll", {"id": "a"}], id=1))
    cancelled.cancel()
    await _settle()
    assert _queued(sock) == [] and not sock.closed
    await ours._handle_eio_message(sock.sid, _event(["roll", {"id": "b"}], id=2))
    failing.set_exception(RuntimeError("boom"))
    await _settle()
    assert sock.closed and _queued(sock) == []


async def test_an_ack_for_a_socket_that_closed_meanwhile_is_left_to_engineio() -> None:
    """A flight lands after its client left: its ack goes nowhere and nothing raises."""
    ours = VttServer(async_mode="aiohttp", serializer="msgpack", logger=False)
    pending: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    ours.serve(NS, lambda event, sid, args: pending)
    sock, _ = await _connected(ours)
    await ours._handle_eio_message(sock.sid, _event(["roll", {"id": "a"}], id=1))
    del ours.eio.sockets[sock.sid]
    pending.set_result({"ok": True})
    await _settle()
    assert _queued(sock) == []
