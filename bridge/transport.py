"""Transport adjustments to python-socketio and engine.io, each with the reason for it."""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import engineio
import socketio
from aiohttp import web
from engineio.async_drivers import aiohttp as eio_aiohttp

from bridge.rooms import queue_to_socket

log = logging.getLogger("vtt_bridge.transport")

OUTGOING_LIMIT = 2000
"""Packets waiting to be written to one socket before it counts as stalled and is cut off.
A reading client's queue stays near empty (its writer task drains it as fast as TCP
allows); the backlog sent on reconnect waits for the queue to drain (:func:`wait_writable`)."""
SEND_TIMEOUT = 15.0
"""Seconds one websocket frame may wait for the client's TCP window: past that the client
is not reading and its connection is aborted."""
CLOSE_GRACE = 5.0
"""Seconds a shutdown waits for sockets to flush before aborting the stalled ones."""


_CLOSING: set[asyncio.Future[Any]] = set()


class OutgoingQueue(asyncio.Queue[Any]):
    """engine.io's per-socket queue of packets to send, bounded.

    engine.io queues every packet for a socket in an unbounded ``asyncio.Queue`` that its
    writer task empties into the websocket; a client that stops reading blocks the writer
    (aiohttp waits for the TCP window) and the queue grows with every push to its room,
    without limit (found by tests/reliability/test_slow_client.py). Here the queue
    refuses to grow past ``limit``: the socket is cut off instead (``_overflow``), and
    nothing is silently dropped from a connection that stays open.

    ``put_nowait`` (six a roll request: five pushes and the ack) is written out in one
    frame: the bound and what ``asyncio.Queue.put_nowait`` does (append, count the
    unfinished task, clear the "finished" event, wake the first waiting reader), without
    its four method calls (``full``, ``_put``, ``Event.clear``, ``_wakeup_next``), so a
    bounded put costs no more than an unbounded one (tests/bridge/test_transport.py holds
    it to ``asyncio.Queue``'s behaviour: order, ``join``/``task_done``, readers woken).
    """

    def __init__(self, server: Any, limit: int) -> None:
        super().__init__()
        self.server = server
        self.limit = limit
        self.overflowed = False

    def put_nowait(self, item: Any) -> None:
        queue = self._queue  # type: ignore[attr-defined]
        # ``None`` is engine.io's "stop the writer" signal: always let it through. Once
        # overflowed, ``limit`` is -1: every packet but ``None`` is refused.
        if len(queue) >= self.limit and item is not None:
            self._overflow()
            return
        queue.append(item)
        self._unfinished_tasks += 1  # type: ignore[attr-defined]
        self._finished._value = False  # type: ignore[attr-defined] # Event.clear()
        getters = self._getters  # type: ignore[attr-defined]
        while getters:
            getter = getters.popleft()
            if not getter.done():
                getter.set_result(None)
                break

    def _overflow(self) -> None:
        if not self.overflowed:
            self.overflowed = True
            limit, self.limit = self.limit, -1
            self._cut_off(limit)

    def _cut_off(self, queued: int) -> None:
        for sid, sock in list(self.server.sockets.items()):
            if sock.queue is self:
                log.warning("socket %s stopped reading (%d packets queued): cut off", sid, queued)
                abort = getattr(sock, "vtt_abort", None)
                if abort is not None:
                    abort()
                else:
                    task = asyncio.ensure_future(sock.close(wait=False, abort=True))
                    _CLOSING.add(task)
                    task.add_done_callback(_CLOSING.discard)
                return


class VttEngineServer(engineio.AsyncServer):  # type: ignore[misc]
    """engine.io with bounded per-socket outgoing queues."""

    outgoing_limit = OUTGOING_LIMIT

    def create_queue(self, *args: Any, **kwargs: Any) -> asyncio.Queue[Any]:
        if args or kwargs:
            return asyncio.Queue(*args, **kwargs)
        return OutgoingQueue(self, self.outgoing_limit)


class UncompressedWebSocket(eio_aiohttp.WebSocket):  # type: ignore[misc]
    """engine.io's aiohttp websocket without per-message deflate, and with a deadline.

    aiohttp compresses every frame when the client offers it and engine.io has no
    switch; for our small frames that cost 13-32 % throughput and ~90 kB per
    connection on this machine (ARCHITECTURE.md).

    A frame that cannot be written for ``SEND_TIMEOUT`` seconds means the client stopped
    reading: the connection is aborted (:class:`SendWatch`). Without this, engine.io's
    writer task waits on the TCP window forever, and so does the server's shutdown (it
    waits for that writer).
    """

    send_timeout = SEND_TIMEOUT

    async def __call__(self, environ: dict[str, Any]) -> web.WebSocketResponse:
        request = environ["aiohttp.request"]
        self._sock = web.WebSocketResponse(
            max_msg_size=self.server.max_http_buffer_size, compress=False
        )
        await self._sock.prepare(request)
        self.environ = environ
        self._transport = request.transport
        self._watch = SendWatch.of(self.server)
        self._timed_out = False
        owner = getattr(self.handler, "__self__", None)
        if owner is not None:
            owner.vtt_abort = self.abort
        try:
            await self.handler(self)
        except Exception as exc:
            log.info("websocket ended with %s", type(exc).__name__)
        finally:
            # engine.io's handler can end past its own cleanup (closing the websocket
            # failed or was cancelled when the client vanished): the socket then stayed
            # registered and counted as connected, for good (found by
            # tests/reliability/test_bad_input.py). Close it here in any case.
            if owner is not None:
                if not owner.closed:
                    await owner.close(
                        wait=False, abort=True, reason=owner.server.reason.TRANSPORT_CLOSE
                    )
                owner.server.sockets.pop(owner.sid, None)
                # The socket's ``vtt_abort`` (this websocket's ``abort``) and this
                # websocket's ``handler`` (the socket's) made a reference cycle holding the
                # whole connection (aiohttp request, transport, queues, buffers: ~40
                # objects): only a full collection freed it, and the server's collector
                # rarely runs one (SERVER_GC_THRESHOLDS). Broken here, a closed connection
                # is freed at once (docs/reliability.md, item 10).
                owner.vtt_abort = None
        return self._sock

    def abort(self) -> None:
        transport = getattr(self, "_transport", None)
        if transport is not None:
            transport.abort()

    async def wait(self) -> Any:
        """The next frame, or ``None`` once the websocket ended (engine.io's "closed by
        the client", which runs the same cleanup as an error).

        A text frame that is no engine.io packet (empty, or not starting with a packet
        type digit) made engine.io's handler raise outside its cleanup: the socket stayed
        registered forever, its connection counted, its writer task waiting (found by
        tests/reliability/test_bad_input.py). Now it ends the connection cleanly.

        The end of a websocket is not raised as ``OSError`` (engine.io's driver did, at
        the end of every connection): raised in engine.io's read task and again through
        its handler, that exception's traceback held the handler's frame, which held the
        task, which held the exception, a reference cycle keeping the whole connection
        (aiohttp request, websocket, queues, buffers) until a full collection, which the
        server's collector rarely runs (docs/reliability.md, item 10). During a
        polling-to-websocket upgrade engine.io expects ``OSError``: raised there as before.
        """
        try:
            data = await super().wait()
        except OSError:
            ended = "the websocket closed"
        else:
            if isinstance(data, str) and (not data or data[0] not in "0123456"):
                # (a type past 6 also made engine.io log a traceback for each such frame)
                ended = "not an engine.io packet"
            elif isinstance(data, str) and data[:1] == "1":
                # engine.io CLOSE: engine.io marked the socket closed but kept the websocket
                # open and silently ignored whatever came next, so a client never got an
                # answer again. The websocket ends here, as the packet asks.
                ended = "the client closed the session"
            else:
                return data
        owner = getattr(self.handler, "__self__", None)
        if owner is not None and owner.upgraded and not owner.upgrading:
            return None
        raise OSError(ended)

    async def send(self, message: Any) -> None:
        # engine.io's own ``send`` asked ``inspect.iscoroutinefunction`` of aiohttp's send
        # method for every frame; aiohttp's are coroutines. The deadline is the server's
        # send watch (one timer a second, not one a frame: ``asyncio.wait_for`` cost ~20
        # us a frame, six frames a request, in the bridge and the floor alike).
        watch = self._watch
        watch.sending[self] = time.monotonic()
        if watch.idle:
            watch.arm()
        try:
            if isinstance(message, bytes):
                await self._sock.send_bytes(message)
            else:
                await self._sock.send_str(message)
        finally:
            watch.sending.pop(self, None)
        if self._timed_out:
            raise TimeoutError("the client did not read")

    def time_out(self) -> None:
        """Called by the send watch: a frame waited past ``send_timeout``."""
        log.warning("a client did not read for %.0f s: connection aborted", self.send_timeout)
        self._timed_out = True
        self.abort()


class SendWatch:
    """The deadline of every websocket frame of one engine.io server.

    A frame waits only when the client's TCP window is full (aiohttp drains then); a
    frame that waits past ``send_timeout`` means the client stopped reading, and its
    connection is aborted. One timer checks the frames on their way every ``period``
    seconds while any is, instead of a timer (``asyncio.wait_for``: a task, a future, a
    timer) around each frame. A frame is therefore cut off between ``send_timeout`` and
    ``send_timeout + period`` seconds after it began to wait.
    """

    period = 1.0

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sending: dict[UncompressedWebSocket, float] = {}
        self._handle: asyncio.TimerHandle | None = None

    @property
    def idle(self) -> bool:
        """No check is due (none is needed while no frame is on its way)."""
        return self._handle is None

    def arm(self) -> None:
        if self._handle is None and not self.loop.is_closed():
            self._handle = self.loop.call_later(self.period, self._check)

    def _check(self) -> None:
        self._handle = None
        now = time.monotonic()
        late = [ws for ws, since in self.sending.items() if now - since > ws.send_timeout]
        for ws in late:
            self.sending.pop(ws, None)
            ws.time_out()
        if self.sending:
            self.arm()

    @staticmethod
    def of(server: Any) -> SendWatch:
        """The watch of an engine.io server (made on its first websocket)."""
        watch: SendWatch | None = getattr(server, "vtt_send_watch", None)
        if watch is None or watch.loop.is_closed():
            watch = SendWatch(asyncio.get_running_loop())
            server.vtt_send_watch = watch
        return watch


async def wait_writable(eio: Any, eio_sid: str | None, low: int = 200) -> bool:
    """Before sending more to one socket (a long backlog), wait until its queue is short.

    False when the socket is gone or did not drain within ``SEND_TIMEOUT``."""
    waited = 0.0
    while True:
        sock = eio.sockets.get(eio_sid) if eio_sid is not None else None
        if sock is None or sock.closed:
            return False
        if sock.queue.qsize() <= low:
            return True
        if waited > SEND_TIMEOUT:
            return False
        await asyncio.sleep(0.01)
        waited += 0.01


async def disconnect_all(eio: Any, grace: float = CLOSE_GRACE) -> None:
    """Close every socket (a CLOSE packet, the disconnect handlers), give the clients
    ``grace`` seconds to go, then abort what is left. engine.io's own ``disconnect()``
    waits for every socket's queue to empty, with no deadline."""
    sockets = list(eio.sockets.values())
    for sock in sockets:
        if not sock.closed:
            await sock.close(wait=False, abort=False)
    waited = 0.0
    while waited < grace and any(s.sid in eio.sockets for s in sockets):
        await asyncio.sleep(0.02)
        waited += 0.02
    for sock in sockets:
        abort = getattr(sock, "vtt_abort", None)
        if abort is not None and sock.sid in eio.sockets:
            abort()
    eio.sockets = {}


EventHandler = Callable[[str, str, list[Any]], Awaitable[Any]]
"""A namespace's request handler: ``(event, sid, args)`` to the ack's body (:meth:`VttServer.serve`)."""

_DISPATCHED: set[asyncio.Task[None]] = set()
"""The event tasks on their way (the loop keeps only weak references to tasks)."""


class VttServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio's server with the bridge's safety on the way in, and a direct path
    from a decoded EVENT packet to the namespace's handler.

    The safety (each found by a test; tests/reliability/test_bad_input.py and the fuzz
    tests are its spec):

    - a packet socket.io cannot decode (bad msgpack, an integer map key, an unknown packet
      type) used to be dropped with a logged traceback and no answer, so the client waited
      forever: the connection is closed at once (the client sees the disconnect);
    - an event on a namespace this connection is not in (never opened, or left with a
      DISCONNECT packet) used to be dropped with a log line and no answer: the connection
      is closed, as for a malformed packet (found by ``make chaos``'s raw-frame fuzz);
    - an event with no name, or a name that is not text, used to raise before any handler:
      it reaches the handler as ``invalid:event``;
    - python-socketio routes a client *event* named ``connect`` or ``disconnect`` to the
      connection handlers (a fake ``connect`` raised and never acked, a fake
      ``disconnect`` dropped the session): such events reach the handler as
      ``reserved:<name>``;
    - a handler that raises closes the connection (no ack would ever come).

    All of it is checked inline where the packet is decoded (:meth:`_handle_eio_message`),
    and an EVENT for a namespace with a handler given to :meth:`serve` goes from there to
    the handler, called at once (:meth:`_dispatch`); its ack is queued when its answer is
    there: a future's done callback, with no task (the bridge's usual request), or a task
    for any other awaitable. python-socketio's ``_handle_event``,
    ``_handle_event_internal``, ``_trigger_event`` and its handler lookup are not on the
    way (they were, each behind a wrapper of ours: three coroutine layers a request), nor
    is its task an event. Any other packet takes python-socketio's own dispatch, under the
    same guard.

    Its engine.io server is :class:`VttEngineServer` (bounded outgoing queues)."""

    RESERVED = frozenset({"connect", "connect_error", "disconnect"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._served: dict[str, EventHandler] = {}

    def _engineio_server_class(self) -> type[engineio.AsyncServer]:
        return VttEngineServer

    def serve(self, namespace: str, handler: EventHandler) -> None:
        """Every event on ``namespace`` goes to ``handler(event, sid, args)``, whose result
        is the ack's body (python-socketio's ``on("*", ...)`` without its dispatch)."""
        self._served[namespace] = handler

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        try:
            if eio_sid not in self._binary_packet:
                pkt = self.packet_class(encoded_packet=data)
                if pkt.packet_type == _EVENT:
                    namespace = pkt.namespace or "/"
                    manager = self.manager
                    sid = manager.sid_from_eio_sid(eio_sid, namespace)
                    if not manager.is_connected(sid, namespace):
                        log.warning("event on a namespace not joined: connection closed")
                        await self._close_connection(eio_sid)
                        return
                    handler = self._served.get(namespace)
                    if handler is None:
                        await self._handle_event(eio_sid, namespace, pkt.id, pkt.data)
                        return
                    self._dispatch(handler, sid, eio_sid, pkt.data, namespace, pkt.id)
                    return
            await super()._handle_eio_message(eio_sid, data)
        except Exception as exc:
            log.warning("malformed packet (%s): connection closed", type(exc).__name__)
            await self._close_connection(eio_sid)

    @classmethod
    def _event_name(cls, data: Any) -> str:
        """The event's name as the handler sees it: ``invalid:event`` for none or one that
        is not text (a map, a number), ``reserved:<name>`` for a connection event's name."""
        event = data[0] if data else None
        if type(event) is not str:
            return "invalid:event"
        if event in cls.RESERVED:
            return f"reserved:{event}"
        return event

    def _dispatch(
        self,
        handler: EventHandler,
        sid: str,
        eio_sid: str,
        data: Any,
        namespace: str,
        id: Any,
    ) -> None:
        """One event: its name checked, the handler called, its ack queued once its answer
        is there. An answer that is a future (the bridge's usual request: its flight's
        answer, set once the event is on disk and pushed; or one known at once) is acked
        by the future's done callback, with no task: a task an event, as python-socketio's
        ``async_handlers`` starts, cost its creation, two steps (started, then woken by
        the future) and the ack's four coroutines through engine.io's ``send``. Any other
        awaitable (the paths that wait: a welcome, a world to load, the world's lock) is
        awaited in a task of its own."""
        event = self._event_name(data)
        try:
            answer = handler(event, sid, data[1:])
        except Exception:
            log.exception("unhandled error in event %r: connection closed", event)
            self._close_soon(eio_sid)
            return
        if isinstance(answer, asyncio.Future):
            if answer.done():
                self._acked(eio_sid, namespace, id, event, answer)
            else:
                answer.add_done_callback(partial(self._acked, eio_sid, namespace, id, event))
            return
        task = asyncio.get_running_loop().create_task(
            self._answer(answer, eio_sid, namespace, id, event)
        )
        _DISPATCHED.add(task)
        task.add_done_callback(_DISPATCHED.discard)

    async def _answer(
        self, answer: Awaitable[Any], eio_sid: str, namespace: str, id: Any, event: str
    ) -> None:
        """An answer that must be awaited, then acked (as :meth:`_acked`)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        try:
            future.set_result(await answer)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            future.set_exception(error)
        self._acked(eio_sid, namespace, id, event, future)

    def _acked(
        self, eio_sid: str, namespace: str, id: Any, event: str, answer: asyncio.Future[Any]
    ) -> None:
        """A handler's answer, done: its body acked if the client asked for an ack (queued
        for the socket at once, :func:`bridge.rooms.queue_to_socket`); a handler that
        raised closes the connection (no ack would ever come); a cancelled answer (its
        request was cancelled) is not acked."""
        if answer.cancelled():
            return
        error = answer.exception()
        if error is not None:
            log.error(
                "unhandled error in event %r: connection closed",
                event,
                exc_info=(type(error), error, error.__traceback__),
            )
            self._close_soon(eio_sid)
            return
        if id is None:
            return
        body = answer.result()
        # What python-socketio acks with a handler's result.
        if body is None:
            args: list[Any] = []
        elif type(body) is tuple:
            args = list(body)
        else:
            args = [body]
        queue_to_socket(
            self, eio_sid, self.packet_class(_ACK, namespace=namespace, id=id, data=args).encode()
        )

    def _close_soon(self, eio_sid: str) -> None:
        """:meth:`_close_connection` from a callback (in a task kept until it ends)."""
        task = asyncio.get_running_loop().create_task(self._close_connection(eio_sid))
        _DISPATCHED.add(task)
        task.add_done_callback(_DISPATCHED.discard)

    async def _handle_event(self, eio_sid: str, namespace: str | None, id: Any, data: Any) -> None:
        """python-socketio's own dispatch (a binary event, a namespace with no :meth:`serve`
        handler), with the same checks."""
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace or "/")
        if not self.manager.is_connected(sid, namespace or "/"):
            log.warning("event on a namespace not joined: connection closed")
            await self._close_connection(eio_sid)
            return
        handler = self._served.get(namespace or "/")
        if handler is not None:
            self._dispatch(handler, sid, eio_sid, data, namespace or "/", id)
            return
        await super()._handle_event(eio_sid, namespace, id, data)

    async def _close_connection(self, eio_sid: str) -> None:
        sock = self.eio.sockets.get(eio_sid)
        if sock is not None:
            await sock.close(wait=False, abort=False)
            abort = getattr(sock, "vtt_abort", None)
            if abort is not None:
                asyncio.get_running_loop().call_later(1.0, abort)

    async def _handle_event_internal(
        self, server: Any, sid: str, eio_sid: str, data: list[Any], namespace: str, id: Any
    ) -> None:
        # python-socketio's dispatch (a namespace with no :meth:`serve` handler): the same
        # event name checks.
        data = [self._event_name(data), *data[1:]]
        await super()._handle_event_internal(server, sid, eio_sid, data, namespace, id)


_EVENT = socketio.packet.EVENT
_ACK = socketio.packet.ACK


SERVER_GC_THRESHOLDS = (20_000, 20, 20)
"""The cyclic collector's thresholds in a server process (CPython's default: 700, 10, 10).

A served request leaves ~60 more tracked objects alive than it found for a while (its
payload, records, pushes and futures, freed when it lands), so with the default a young
collection ran every ~12 requests and walked ~700 live objects each time, finding almost
no garbage (a run of 5,191 o3d10 rolls: 336 young, 30 middle and 2 full collections,
7,655 objects collected, ~67 us of CPU a request). At 20,000 most of a request's objects
are already freed by reference counting when a collection starts: 4 young collections in
the same run, ~8 us a request. Garbage cycles wait longer to be freed: at most ~20,000
objects' worth."""


def settle_collector() -> None:
    """In a server process once it started: collect, freeze what is alive (modules, the
    rules' tables, the registry: ~80k objects that each full collection walked, ~55 ms
    under load) and raise the collector's thresholds (:data:`SERVER_GC_THRESHOLDS`).
    ``vtt-bridge serve`` and the benchmark's floor both do it: the same runtime."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)


def exposure_warning(host: str) -> str | None:
    """What ``serve`` prints when told to listen beyond this machine (None on loopback)."""
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return None
    return (
        f"WARNING: vtt-bridge is listening on {host}, reachable from other machines. "
        "Anyone who can reach it can try tokens; serve it behind a TLS reverse proxy "
        "(wss://), keep the data directory private, and see README.md, Security."
    )
