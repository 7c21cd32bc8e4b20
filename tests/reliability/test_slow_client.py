"""A client that never reads: nobody else stalls, and the server does not keep its pushes
without bound. Each socket has a bounded outgoing queue; a socket that lets it fill is
disconnected (it reconnects with ``last_seq`` and gets the missed pushes from the log)."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from bridge.server import BRIDGE_KEY
from bridge.transport import SendWatch, UncompressedWebSocket, disconnect_all
from support.live import Env, rid

from .rawsock import RawSocket
from .scale import pick


def _shrink_server_send_buffer(env: Env, slow: RawSocket) -> None:
    """A small link: the server's kernel and asyncio buffers for this socket hold a few
    kB instead of megabytes, so a short run shows what a long stall does."""
    port = slow.writer.get_extra_info("sockname")[1]
    for handler in env.server.runner.server.connections:
        transport = handler.transport
        if transport is not None and transport.get_extra_info("peername")[1] == port:
            sock = transport.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            transport.set_write_buffer_limits(high=8192)
            return
    raise AssertionError("the slow client's server side was not found")


async def _never_reading(env: Env) -> RawSocket:
    """A player's connection, synced, whose server side has small buffers; from here on
    the test reads nothing from it."""
    slow = await RawSocket.open(env.url, rcvbuf=4096)
    await slow.connect_ns({"token": env.world.player_token, "user": "beto", "protocol": 1})
    await slow.until(2, "synced")
    _shrink_server_send_buffer(env, slow)
    return slow


ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


async def test_a_client_that_never_reads_is_cut_off_and_stalls_nobody(env: Env) -> None:
    bridge = env.app[BRIDGE_KEY]
    eio = bridge.sio.eio
    eio.outgoing_limit = 50  # the default is larger; a smaller one makes the run short
    gm = await env.join()
    reader = await env.join("player", "ana")
    slow = await _never_reading(env)
    slow_sids = set(eio.sockets) - {c.sio.eio.sid for c in env.clients}
    assert len(slow_sids) == 1
    # From here on the slow client reads nothing at all.
    rolls = pick(300, 2000)
    largest = 0
    for _ in range(rolls):
        ack = await gm.call("roll", {"id": rid(), **ROLL})
        assert ack["ok"], ack
        largest = max([largest, *(s.queue.qsize() for s in list(eio.sockets.values()))])
    for _ in range(rolls):
        await reader.next_push("chat_card", timeout=10)
    assert largest <= eio.outgoing_limit + 5, f"a socket's outgoing queue reached {largest}"
    for _ in range(100):
        if not slow_sids & set(eio.sockets):
            break
        await asyncio.sleep(0.05)
    assert not slow_sids & set(eio.sockets), "the client that never reads is still attached"
    assert len(bridge.connections) == 2
    slow.close()


async def test_shutdown_does_not_wait_for_a_client_that_never_reads(env: Env) -> None:
    """Before the fix, stopping the server waited forever for such a client's queue."""
    bridge = env.app[BRIDGE_KEY]
    gm = await env.join()
    slow = await _never_reading(env)
    stuck = set(bridge.sio.eio.sockets) - {gm.sio.eio.sid}
    for _ in range(260):  # its buffers fill up; its queue stays under the limit
        assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
    (sock,) = (bridge.sio.eio.sockets[sid] for sid in stuck)
    assert 0 < sock.queue.qsize() < bridge.sio.eio.outgoing_limit, "the writer is not stuck"
    # What the server's shutdown does with its sockets (bridge/server.py, on_shutdown);
    # engine.io's own disconnect() waited for this queue to empty, forever.
    await asyncio.wait_for(disconnect_all(bridge.sio.eio), 30)  # bounded: about CLOSE_GRACE
    assert not bridge.sio.eio.sockets
    slow.close()


async def test_a_frame_that_waits_past_the_deadline_aborts_its_connection(
    env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that stops reading fills its TCP window long before its outgoing queue
    (bounded by ``outgoing_limit``): the frame then waiting is cut off by the send watch
    once it waited ``send_timeout`` (shortened here), and the others go on."""
    monkeypatch.setattr(UncompressedWebSocket, "send_timeout", 0.5)
    monkeypatch.setattr(SendWatch, "period", 0.1)
    bridge = env.app[BRIDGE_KEY]
    gm = await env.join()
    reader = await env.join("player", "ana")
    slow = await _never_reading(env)
    eio = bridge.sio.eio
    stuck = set(eio.sockets) - {c.sio.eio.sid for c in env.clients}
    assert len(stuck) == 1
    caplog.set_level(logging.WARNING, logger="vtt_bridge.transport")
    for _ in range(260):  # its buffers fill up; its queue stays far under the limit
        assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
    for _ in range(260):
        await reader.next_push("chat_card", timeout=10)
    for _ in range(100):
        if not stuck & set(eio.sockets):
            break
        await asyncio.sleep(0.05)
    assert not stuck & set(eio.sockets), "the client that never reads is still attached"
    assert any("did not read" in r.getMessage() for r in caplog.records)
    assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
    slow.close()
