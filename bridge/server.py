"""The Socket.IO server: auth, per-world ordering, durable append, ack, fan-out.

Every request follows one path (:meth:`Bridge.handle`): structural limits,
the protocol model, the world's lock, idempotency by request id, the rules
(:func:`bridge.engine.process`), one store transaction, then the ack and the
pushes to the world's rooms. Rooms are per world, role and locale, so each
card is rendered once per locale in use and GM-only cards never reach players.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import socketio
from aiohttp import web
from pydantic import BaseModel, ValidationError

from bridge.auth import hash_token
from bridge.engine import Accepted, Rejected, Session, process, stored_event, work_out
from bridge.limits import (
    DEFAULT_AUTH,
    DEFAULT_RATE,
    DEFAULT_WORLD,
    AuthLimit,
    AuthThrottle,
    Bucket,
    RateLimit,
    WorldGuard,
    WorldLimit,
    client_address,
    normal_address,
)
from bridge.pipeline import Flight, WorldPipe
from bridge.recent import RECENT_EVENTS, RecentEvents
from bridge.render import Renderer, ack_body
from bridge.rooms import push_to_room
from bridge.serialize import world_json_text
from bridge.store import AsyncStore, EventRow, NewEvent, SeqConflict, StoreError
from bridge.transport import (
    UncompressedWebSocket,
    VttServer,
    disconnect_all,
    settle_collector,
    wait_writable,
)
from bridge.worlds import WorldRuntime
from protocol.v1.digest import payload_digest
from protocol.v1.errors import error_message
from protocol.v1.limits import check_payload
from protocol.v1.parse import ParseError, parse_request
from protocol.v1.requests import (
    GM_EVENTS,
    PROTOCOL_VERSION,
    Auth,
    CardActionRequest,
    UndoRequest,
)
from rules import tracker
from rules.dice import DiceSource, RecordingDice, SystemDice
from rules.i18n import translate
from rules.model import World
from rules.registry import Registry
from rules.system import RuleSystem

if TYPE_CHECKING:
    from bridge.cluster import ClusterFeed

log = logging.getLogger("vtt_bridge")

NAMESPACE = "/vtt"
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE_BYTES = 1024 * 1024
WELCOME_WAIT_SECONDS = 5.0


@dataclass
class Connection:
    world_id: str
    session: Session
    last_seq: int | None
    welcomed: asyncio.Event = field(default_factory=asyncio.Event)
    bucket: Bucket = field(default_factory=lambda: Bucket(DEFAULT_RATE))


READS_STORE = frozenset({"card_action", "undo"})
"""The events whose requests read the store before they are worked out (their models are
``CardActionRequest`` and ``UndoRequest``, tests/bridge/test_server_fast.py)."""


def _queued(lock: asyncio.Lock) -> bool:
    """Whether requests wait for ``lock`` (asyncio hands it to them in turn: one that
    arrives later must not pass them)."""
    waiters = getattr(lock, "_waiters", None)
    return bool(waiters)


def _idle(lock: asyncio.Lock) -> bool:
    """Neither held nor waited for: ``not lock.locked() and not _queued(lock)`` in one call
    (the request's hot path; asyncio's ``Lock.locked()`` reads ``_locked``). Were the
    attributes ever renamed, the lock reads as busy: every request takes the path under
    it, slower but the same (tests/bridge/test_server_fast.py pins both)."""
    return not getattr(lock, "_locked", True) and not getattr(lock, "_waiters", None)


def _answered(body: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
    """An answer known at once, as the done future :meth:`Bridge.handle` returns for it."""
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    future.set_result(body)
    return future


class Retry(NamedTuple):
    """A request whose id is in flight with the same payload: that flight's ack, once it
    landed, answers it as a duplicate."""

    flight: Flight


def digest_of(row: NewEvent | EventRow) -> str:
    """The digest idempotency compares a retry with, of a request handed to the store or
    held by it: as written with it (events written before the eleventh pass), or, written
    empty, worked out from its payload (the same dict in flight; its JSON read back from
    the store, whose canonical text is the same: protocol/v1/digest.py). Only a retry
    pays for it, not every request."""
    return row.payload_hash or payload_digest(row.event, row.payload)


class Bridge:
    def __init__(
        self,
        store: AsyncStore,
        registry: Registry,
        *,
        dice_factory: Callable[[], DiceSource] = SystemDice,
        rate_limit: RateLimit = DEFAULT_RATE,
        cluster: ClusterFeed | None = None,
        world_limit: WorldLimit = DEFAULT_WORLD,
        auth_limit: AuthLimit = DEFAULT_AUTH,
        trusted_proxies: frozenset[str] = frozenset(),
    ) -> None:
        self.store = store
        self.cluster = cluster  # several processes on one shared store (bridge/cluster.py)
        self.world_guard = WorldGuard(world_limit)
        self.auth_throttle = AuthThrottle(auth_limit)
        self.trusted_proxies = frozenset(normal_address(a) for a in trusted_proxies)
        self.registry = registry
        self.rate_limit = rate_limit
        self.dice_factory = dice_factory
        self.renderers = {sid: Renderer(s) for sid, s in registry.systems.items()}
        # What card actions and undos read, kept once on disk; not in a cluster, where other
        # processes write the same worlds (the store is the only place that knows it all).
        self.recent = RecentEvents(0 if cluster is not None else RECENT_EVENTS)
        self.worlds: dict[str, WorldRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, Connection] = {}
        self._pipes: dict[str, WorldPipe] = {}
        self._landed_flights: deque[Flight] = deque()
        """Flights whose writes were answered, waiting for :meth:`_deliver_landed`."""
        self._delivering: asyncio.Task[None] | None = None
        self._listeners: dict[str, dict[tuple[str, str], tuple[str, str, str]]] = {}
        self._welcome_cache: dict[
            str, tuple[World, dict[tuple[str, str], list[dict[str, Any]]]]
        ] = {}
        self.shutting_down = False
        self.sio = VttServer(
            async_mode="aiohttp",
            serializer="msgpack",
            cors_allowed_origins="*",
            max_http_buffer_size=MAX_MESSAGE_BYTES,
            http_compression=False,
            logger=False,
            engineio_logger=False,
            client_manager=cluster.manager if cluster is not None else None,
        )
        if cluster is not None:
            cluster.attach(self)
        eio = self.sio.eio
        eio._async = {**eio._async, "websocket": UncompressedWebSocket}
        self.sio.on("connect", self.on_connect, namespace=NAMESPACE)
        self.sio.on("disconnect", self.on_disconnect, namespace=NAMESPACE)
        self.sio.serve(NAMESPACE, self.on_event)

    # -- worlds ---------------------------------------------------------------
    async def runtime(self, world_id: str) -> WorldRuntime:
        runtime = self.worlds.get(world_id)
        if runtime is not None:
            return runtime
        lock = self._loading.setdefault(world_id, asyncio.Lock())
        async with lock:
            runtime = self.worlds.get(world_id)
            if runtime is None:
                row = await self.store.run(self.store.sync.load_world, world_id)
                if row is None:
                    raise KeyError(world_id)
                runtime = WorldRuntime.from_row(row.state, row.seq)
                list_ids = getattr(self.store.sync, "request_ids", None)
                if list_ids is not None and self.cluster is None:
                    ids: list[str] = await self.store.run(list_ids, world_id)
                    runtime.request_ids = {hash(i) for i in ids}
                self.worlds[world_id] = runtime
        return runtime

    def system(self, runtime: WorldRuntime) -> RuleSystem:
        return self.registry.get(runtime.world.system)

    # -- connection -------------------------------------------------------------
    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        problem = check_payload(auth) if auth is not None else None
        if auth is None or problem is not None or not isinstance(auth, dict):
            self._refuse("bad_auth", "es")
        try:
            parsed = Auth.model_validate(auth)
        except ValidationError:
            locale = auth.get("locale") if isinstance(auth, dict) else None
            if isinstance(auth, dict) and "protocol" in auth and auth["protocol"] != 1:
                self._refuse("unsupported_protocol", str(locale))
            self._refuse("bad_auth", str(locale))
        locale = parsed.locale or "es"
        if parsed.protocol != PROTOCOL_VERSION:
            self._refuse("unsupported_protocol", locale)
        if self.shutting_down:
            self._refuse("shutting_down", locale)
        address = self._address(environ)
        if self.auth_throttle.wait(address) > 0:
            self._refuse("auth_throttled", locale)
        try:
            found = await self.store.run(self.store.sync.find_token, hash_token(parsed.token))
            if found is None:
                self.auth_throttle.failed(address)
                self._refuse("bad_token", locale)
            world_id, role = found
            if self.world_guard.full(world_id):
                self._refuse("world_full", locale)
            runtime = await self.runtime(world_id)
        except StoreError:  # the database is away: say so, the client retries later
            log.exception("store unavailable while connecting")
            self._refuse("store_error", locale)
        locale = parsed.locale or str(runtime.world.settings.get("locale", "es"))
        session = Session(parsed.user, "gm" if role == "gm" else "player", locale, parsed.name)
        self.connections[sid] = Connection(
            world_id, session, parsed.last_seq, bucket=Bucket(self.rate_limit)
        )
        self.world_guard.joined(world_id)
        self.sio.start_background_task(self._welcome, sid)

    def _refuse(self, code: str, locale: str) -> NoReturn:
        message = error_message(code, locale)
        # Socket.IO clients see ``message`` as the error's message and our body as its ``data``.
        raise socketio.exceptions.ConnectionRefusedError(
            message, {"code": code, "message": message}
        )

    async def _welcome(self, sid: str) -> None:
        """After the CONNECT packet: welcome, the missed pushes, then the live rooms."""
        waited = 0.0
        while not self.sio.manager.is_connected(sid, NAMESPACE):
            if waited > WELCOME_WAIT_SECONDS or sid not in self.connections:
                return
            await asyncio.sleep(0.005)
            waited += 0.005
        conn = self.connections.get(sid)
        if conn is None:
            return
        runtime = await self.runtime(conn.world_id)
        renderer = self.renderers[runtime.world.system]
        session = conn.session
        async with runtime.lock:
            await self.pipe(runtime).settle()  # the welcome shows only what is on disk
            if self.cluster is not None and not await self.cluster.before_welcome(runtime):
                # The shared store is away: no welcome we could vouch for. The client
                # is disconnected and reconnects (to this or another process) later.
                await self.sio.disconnect(sid, namespace=NAMESPACE)
                return
            world = runtime.world
            system = self.system(runtime)
            await self.sio.emit(
                "welcome",
                {
                    "protocol": PROTOCOL_VERSION,
                    "world": {
                        "id": world.id,
                        "name": world.name,
                        "system": world.system,
                        "system_name": system.names.get(session.locale, system.id),
                        "settings": dict(world.settings),
                    },
                    "role": session.role,
                    "user": session.user,
                    "locale": session.locale,
                    "seq": runtime.seq,
                    "actors": self._welcome_actors(world, renderer, session),
                    "combat": renderer.combat_state(
                        world,
                        runtime.seq,
                        {"combat": world.data.get(tracker.KEY)},
                        session.role,
                        session.locale,
                    )
                    if world.data.get(tracker.KEY)
                    else None,
                },
                to=sid,
                namespace=NAMESPACE,
            )
            if conn.last_seq is not None and conn.last_seq < runtime.seq:
                after = conn.last_seq
                while after < runtime.seq:
                    rows = await self.store.run(self.store.sync.events_after, world.id, after, 1000)
                    if not rows:
                        break
                    used = await self._used(world.id, rows)
                    eio_sid = self.sio.manager.eio_sid_from_sid(sid, NAMESPACE)
                    for row in rows:
                        if row.seq > runtime.seq:
                            break  # written since by another process: it comes live
                        if not await wait_writable(self.sio.eio, eio_sid):
                            return  # the client stopped reading: it was cut off
                        for name, body in self._render_pushes(
                            runtime, row.seq, row.pushes, session, used
                        ):
                            await self.sio.emit(name, body, to=sid, namespace=NAMESPACE)
                    after = rows[-1].seq
            await self.sio.emit(
                "synced", {"seq": runtime.seq, "world": world.id}, to=sid, namespace=NAMESPACE
            )
            await self.sio.enter_room(sid, self._room(world.id, session), namespace=NAMESPACE)
            runtime.members[(session.role, session.locale)] += 1
            conn.welcomed.set()

    def _welcome_actors(
        self, world: World, renderer: Renderer, session: Session
    ) -> list[dict[str, Any]]:
        """Every actor as a ``session.role`` connection in ``session.locale`` sees it.

        Rendered once per world state (the World object, which every accepted event
        replaces) and (role, locale), then shared by every welcome until the world
        changes: a room's worth of connections arriving at once no longer renders every
        actor's buttons each. The bodies are only ever encoded, never changed.
        """
        key = (session.role, session.locale)
        cached = self._welcome_cache.get(world.id)
        if cached is None or cached[0] is not world:
            cached = (world, {})
            self._welcome_cache[world.id] = cached
        actors = cached[1].get(key)
        if actors is None:
            actors = [
                renderer.actor(world, actor, session.locale, session.role)
                for actor in world.actors.values()
            ]
            cached[1][key] = actors
        return actors

    async def _used(self, world_id: str, rows: list[EventRow]) -> set[tuple[str, str]]:
        ids = [
            f"{row.seq}.{p['index']}"
            for row in rows
            for p in row.pushes
            if p["type"] == "chat_card" and p["card"]["actions"]
        ]
        return await self.store.run(self.store.sync.used_follow_ups, world_id, ids)

    @staticmethod
    def _room(world_id: str, session: Session) -> str:
        return f"w:{world_id}:{session.role}:{session.locale}"

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        conn = self.connections.pop(sid, None)
        if conn is None:
            return
        self.world_guard.left(conn.world_id)
        runtime = self.worlds.get(conn.world_id)
        if runtime is not None:
            key = (conn.session.role, conn.session.locale)
            if runtime.members[key] > 0:
                runtime.members[key] -= 1

    # -- requests -------------------------------------------------------------
    def on_event(self, event: str, sid: str, args: Sequence[Any]) -> Awaitable[dict[str, Any]]:
        """A request on the namespace (``VttServer.serve``): the coroutine of its
        :meth:`handle`, which the transport awaits for the ack (no layer of its own)."""
        conn = self.connections.get(sid)
        return self.handle(conn, event, args, conn.session.locale if conn else "es")

    def _error(
        self, code: str, locale: str, field: str | None = None, message: str | None = None
    ) -> dict[str, Any]:
        return {
            "ok": False,
            "error": {
                "code": code,
                "message": message or error_message(code, locale),
                "field": field,
            },
        }

    def handle(
        self, conn: Connection | None, event: str, args: Sequence[Any], locale: str
    ) -> Awaitable[dict[str, Any]]:
        """One request (``args``: the event's arguments) to what its ack's body is awaited
        from. Anything unforeseen is logged and answered ``internal_error``: a client never
        waits for an ack that will not come.

        Not a coroutine: the usual request (a connection welcomed to a loaded world, one
        process) is checked, worked out and handed to the store in this one call, which
        returns its flight's ``answer`` (set once the event is on disk and pushed, by
        :meth:`_deliver_landed`); its caller (the transport's task) awaits that future
        directly, with no coroutine of the bridge's to create, suspend and resume. An
        answer known at once comes as a done future; the rest of the paths (the welcome
        wait, a world to load, the cluster, the world's lock) as a coroutine."""
        try:
            if conn is None:
                return _answered(self._error("bad_auth", locale))
            refused = self.world_guard.admit(conn.bucket, conn.world_id)
            if refused is not None:
                return _answered(self._error(refused, locale))
            request = parse_request(event, args)
            if isinstance(request, ParseError):
                return _answered(self._error(request.code, locale, request.field))
            payload: dict[str, Any] = args[0]
            session = conn.session
            if event in GM_EVENTS and session.role != "gm":
                return _answered(self._error("gm_only", locale))
            if self.shutting_down:
                return _answered(self._error("shutting_down", locale))
            runtime = self.worlds.get(conn.world_id)
            if runtime is None or self.cluster is not None or not conn.welcomed.is_set():
                return self._handle_later(conn, session, event, payload, request, locale)
            return self._apply_now(runtime, session, event, payload, request)
        except Exception:
            log.exception("unhandled error in %s", event)
            return _answered(self._error("internal_error", locale))

    async def _handle_later(
        self,
        conn: Connection,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
        locale: str,
    ) -> dict[str, Any]:
        """:meth:`handle` for a request that must wait first: for its connection's welcome,
        for its world to load, or for the cluster's turn."""
        try:
            if not conn.welcomed.is_set():
                # A request sent before the welcome waits for it, so its pushes reach this
                # socket in order after the backlog (the socket joins its room there).
                try:
                    await asyncio.wait_for(conn.welcomed.wait(), WELCOME_WAIT_SECONDS)
                except TimeoutError:
                    return self._error("internal_error", locale)
            runtime = self.worlds.get(conn.world_id)
            if runtime is None:
                runtime = await self.runtime(conn.world_id)
            if self.cluster is not None:
                # Several processes on one store: one request at a time, each written before
                # the next is worked out (the cluster reloads and retries on a lost race).
                async with runtime.lock:
                    return await self.cluster.apply(runtime, session, event, payload, request)
            return await self._apply_now(runtime, session, event, payload, request)
        except Exception:
            log.exception("unhandled error in %s", event)
            return self._error("internal_error", locale)

    def _apply_now(
        self,
        runtime: WorldRuntime,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
    ) -> Awaitable[dict[str, Any]]:
        """A request of a loaded world in one process: when nobody else is working out a
        request of the world, worked out and handed to the store in this call (no await
        between the check and the hand-off, so holding the lock would change nothing):
        its flight's answer, or a done future; else the path under the lock."""
        pipe = self._pipes.get(runtime.world.id) or self.pipe(runtime)
        outcome: dict[str, Any] | Flight | Retry | None = None
        if event not in READS_STORE and _idle(runtime.lock):
            outcome = self._work_out(runtime, pipe, session, event, payload, request)
            if type(outcome) is Flight:
                return outcome.answer  # cancelling it spares the write
            if type(outcome) is dict:
                return _answered(outcome)
        return self._apply_locked(runtime, pipe, session, event, payload, request, outcome)

    async def _apply_locked(
        self,
        runtime: WorldRuntime,
        pipe: WorldPipe,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
        outcome: dict[str, Any] | Flight | Retry | None,
    ) -> dict[str, Any]:
        """The request under the world's lock (``outcome`` None), or waiting for a retried
        request still in flight (a Retry); worked out again from the top if the flight it
        waited for failed."""
        try:
            lock = runtime.lock
            while True:
                if outcome is None:
                    async with lock:
                        outcome = await self._apply_in_flight(
                            runtime, pipe, session, event, payload, request
                        )
                if type(outcome) is Flight:
                    # This request's own flight: answered once on disk and pushed (after
                    # the previous flight's pushes); if the store failed, nothing happened.
                    return await outcome.answer  # cancelling it spares the write
                if type(outcome) is not Retry:
                    assert isinstance(outcome, dict)
                    return outcome
                # A retry of a request still in flight: its ack once it landed, as a
                # duplicate; if it failed, this retry is worked out afresh.
                flight = outcome.flight
                await asyncio.shield(flight.emitted())
                if flight.ok:
                    return self._ack(
                        runtime,
                        flight.seq,
                        flight.pushes,
                        session,
                        duplicate=True,
                        world=flight.world,
                    )
                outcome = None  # (its flight failed: worked out afresh, under the lock)
        except Exception:
            log.exception("unhandled error in %s", event)
            return self._error("internal_error", session.locale)

    def pipe(self, runtime: WorldRuntime) -> WorldPipe:
        pipe = self._pipes.get(runtime.world.id)
        if pipe is None:
            pipe = self._pipes[runtime.world.id] = WorldPipe.of(
                runtime, self.store, self._landed, self.recent
            )
        return pipe

    async def _apply(
        self,
        runtime: WorldRuntime,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
    ) -> dict[str, Any]:
        """One request start to end under the world's lock, written before the next is
        worked out: the path of several processes on one store (bridge/cluster.py)."""
        settled = await self._settled(runtime, session, event, payload)
        if settled is not None:
            return settled
        referenced, used = await self._referenced(runtime, request)
        dice = RecordingDice(self.dice_factory())
        result = process(
            self.registry,
            runtime.world,
            session,
            event,
            request,
            dice,
            referenced=referenced,
            used=used,
        )
        if isinstance(result, Rejected):
            return self._refusal(runtime, session, result)
        return await self._commit(runtime, session, event, payload, dice, result)

    async def _commit(
        self,
        runtime: WorldRuntime,
        session: Session,
        event: str,
        payload: dict[str, Any],
        dice: RecordingDice,
        result: Accepted,
    ) -> dict[str, Any]:
        seq = runtime.seq + 1
        record = self._record(seq, session, event, payload, dice, result)
        try:
            await self.store.append(runtime.world.id, record, world_json_text(result.world))
        except StoreError as exc:
            if isinstance(exc, SeqConflict) and self.cluster is not None:
                raise  # another process wrote first: the cluster reloads and retries
            log.exception("store refused event %s of world %s", seq, runtime.world.id)
            return self._error("store_error", session.locale)
        runtime.world = result.world
        runtime.seq = seq
        if self.cluster is not None:
            self.cluster.committed(runtime.world.id, seq, result.pushes)
        rendered = await self._broadcast(runtime, seq, result.pushes)
        return self._own_ack(runtime, session, seq, result.world, result.pushes, rendered)

    async def _settled(
        self, runtime: WorldRuntime, session: Session, event: str, payload: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The answer to a request id the store already holds (a retry), or None."""
        previous = await self.store.find_request(runtime.world.id, str(payload["id"]))
        if previous is None:
            return None
        if digest_of(previous) != payload_digest(event, payload):
            return self._error("id_reused", session.locale, "id")
        return self._ack(runtime, previous.seq, previous.pushes, session, duplicate=True)

    async def _referenced(
        self, runtime: WorldRuntime, request: BaseModel
    ) -> tuple[EventRow | None, set[tuple[str, str]]]:
        """What a ``card_action`` or ``undo`` reads from the store."""
        store, world_id, recent = self.store, runtime.world.id, self.recent
        if isinstance(request, CardActionRequest):
            card_seq = int(request.card.split(".")[0])
            referenced = recent.row(world_id, card_seq)
            if referenced is None:
                referenced = await store.run(store.sync.event_at, world_id, card_seq)
            used = recent.used(world_id, request.card, runtime.seq)
            if used is None:
                used = await store.run(store.sync.used_follow_ups, world_id, [request.card])
            return referenced, used
        if isinstance(request, UndoRequest):
            referenced = recent.row(world_id, request.seq)
            if referenced is None:
                referenced = await store.run(store.sync.event_at, world_id, request.seq)
            return referenced, set()
        return None, set()

    def _refusal(self, runtime: WorldRuntime, session: Session, result: Rejected) -> dict[str, Any]:
        message = None
        if result.message is not None:
            message = translate(result.message, session.locale, self.system(runtime).messages)
        return self._error(result.code, session.locale, result.field, message)

    def _work_out(
        self,
        runtime: WorldRuntime,
        pipe: WorldPipe,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
    ) -> dict[str, Any] | Flight | Retry | None:
        """:meth:`_apply_in_flight` without an await, for a request that reads nothing
        from the store (not ``card_action`` nor ``undo``), when nothing else of its world
        is being worked out: the same answer, or the flight, or None when it must take
        the path under the lock (its id may be in the store; a refusal while flights of
        the world are still on their way, which stands only once they landed)."""
        request_id = str(payload["id"])
        in_flight = pipe.flights.get(request_id)
        if in_flight is not None:
            return self._retried(in_flight, session, event, payload)
        known = runtime.request_ids
        if known is None or hash(request_id) in known:
            return None
        worked = work_out(
            self.registry,
            runtime.world,
            session,
            event,
            request,
            self.dice_factory,
            payload,
            runtime.seq + 1,
        )
        if type(worked) is tuple:
            result, record, state = worked
            return pipe.launch(runtime, session, record, state, result.world)
        assert isinstance(worked, Rejected)
        if pipe.landed_all():  # every flight landed: the ground is durable
            return self._refusal(runtime, session, worked)
        return None

    def _retried(
        self, in_flight: Flight, session: Session, event: str, payload: dict[str, Any]
    ) -> dict[str, Any] | Retry:
        """A retry of a request still in flight: that flight to wait for (not this
        request's own), or ``id_reused`` if its payload differs."""
        if digest_of(in_flight.record) != payload_digest(event, payload):
            return self._error("id_reused", session.locale, "id")
        return Retry(in_flight)

    async def _apply_in_flight(
        self,
        runtime: WorldRuntime,
        pipe: WorldPipe,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
    ) -> dict[str, Any] | Flight | Retry:
        """Under the world's lock (one process): a final answer, or this request's flight,
        or another request's flight to wait for (a retry; bridge/pipeline.py)."""
        request_id = str(payload["id"])
        in_flight = pipe.flights.get(request_id)
        if in_flight is not None:
            return self._retried(in_flight, session, event, payload)
        known = runtime.request_ids
        if known is None or hash(request_id) in known:
            settled = await self._settled(runtime, session, event, payload)
            if settled is not None:
                return settled
        referenced: EventRow | None = None
        used: set[tuple[str, str]] = set()
        if isinstance(request, CardActionRequest | UndoRequest):
            await pipe.settle()  # what they read from the store must be all there
            referenced, used = await self._referenced(runtime, request)
        while True:
            rollbacks = pipe.rollbacks
            dice = RecordingDice(self.dice_factory())
            result = process(
                self.registry,
                runtime.world,
                session,
                event,
                request,
                dice,
                referenced=referenced,
                used=used,
            )
            if isinstance(result, Accepted):
                return self._launch(runtime, pipe, session, event, payload, dice, result)
            # A refusal stands only on durable ground: let the flights land, and if one
            # failed (the world went back), work the request out again.
            await pipe.settle()
            if pipe.rollbacks == rollbacks:
                return self._refusal(runtime, session, result)

    def _record(
        self,
        seq: int,
        session: Session,
        event: str,
        payload: dict[str, Any],
        dice: RecordingDice,
        result: Accepted,
    ) -> NewEvent:
        """The record of an accepted request (the cluster's path; the usual one calls
        :func:`bridge.engine.stored_event` from :meth:`_launch` itself), with its digest:
        PostgreSQL's ``jsonb`` may give a payload back in another form (``1e20`` as an
        integer), so the cluster compares retries with the digest written."""
        digest = payload_digest(event, payload)
        return stored_event(seq, event, session, payload, dice, result, digest)

    def _launch(
        self,
        runtime: WorldRuntime,
        pipe: WorldPipe,
        session: Session,
        event: str,
        payload: dict[str, Any],
        dice: RecordingDice,
        result: Accepted,
    ) -> Flight:
        """Hand the event to the store and make it the world's state in memory."""
        record = stored_event(runtime.seq + 1, event, session, payload, dice, result)
        return pipe.launch(runtime, session, record, world_json_text(result.world), result.world)

    def _landed(self, flight: Flight) -> None:
        """A flight's write answered (``Flight.landed``, within the store's answer): its
        delivery queued, and a deliverer started unless one is running."""
        self._landed_flights.append(flight)
        if self._delivering is None:
            self._delivering = flight.pipe.loop.create_task(self._deliver_landed())

    async def _deliver_landed(self) -> None:
        """Every flight landed so far, in the order the store answered them (so each
        world's in ``seq`` order, each after the previous one's pushes): pushed to its
        world's rooms and answered (its ack, or ``store_error`` if the write failed), then
        marked pushed. One task for all the flights a store answer landed, ending once
        none is left (the next answer starts another). A flight whose request was
        cancelled is not pushed (its event stays written)."""
        landed = self._landed_flights
        try:
            while landed:
                flight = landed.popleft()
                answer = flight.answer
                try:
                    if answer.done():  # its request was cancelled: nobody waits
                        pass
                    elif flight.ok:
                        body = await self._deliver(flight)
                        if not answer.done():
                            answer.set_result(body)
                    else:
                        log.error(
                            "store refused event %s of world %s",
                            flight.seq,
                            flight.world.id,
                            exc_info=flight.error,
                        )
                        answer.set_result(self._error("store_error", flight.session.locale))
                except Exception:
                    log.exception("unhandled error delivering event %s", flight.seq)
                    if not answer.done():
                        answer.set_result(self._error("internal_error", flight.session.locale))
                finally:
                    flight.pipe.land(flight)
        finally:
            self._delivering = None

    async def _deliver(self, flight: Flight) -> dict[str, Any]:
        """A landed flight pushed to its world's rooms, and the sender's ack made from its
        own room's rendering in the same pass (one process: the cluster's path pushes
        through :meth:`_broadcast`)."""
        world = flight.world
        seq = flight.seq
        pushes = flight.pushes
        runtime = flight.runtime
        session = flight.session
        render = self.renderers[world.system].pushes
        rooms = self._listeners.get(world.id)
        own_key = (session.role, session.locale)
        own: list[tuple[str, dict[str, Any]]] | None = None
        sio = self.sio
        for key, count in list(runtime.members.items()):
            if count <= 0:
                continue
            listener = None if rooms is None else rooms.get(key)
            if listener is None:
                listener = self._listener(world.id, key)
                rooms = self._listeners[world.id]
            role, locale, room = listener
            bodies = render(world, seq, pushes, role, locale, (), None)
            if key == own_key:
                own = bodies
            for name, body in bodies:
                await push_to_room(sio, NAMESPACE, room, name, body)
        for push in pushes:
            if push.get("whisper"):
                await self._whisper(runtime, seq, pushes, world)
                if session.role != "gm":
                    own = None  # the sender's own view may hold what its room does not
                break
        if own is None:
            return self._ack(runtime, seq, pushes, session, world=world)
        return ack_body(seq, own)

    def _own_ack(
        self,
        runtime: WorldRuntime,
        session: Session,
        seq: int,
        world: World,
        pushes: list[dict[str, Any]],
        rendered: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]],
    ) -> dict[str, Any]:
        """The sender's ack, reusing its room's rendering when there is one."""
        own = rendered.get((session.role, session.locale))
        if own is None or (session.role != "gm" and any(p.get("whisper") for p in pushes)):
            return self._ack(runtime, seq, pushes, session, world=world)
        return ack_body(seq, own)

    def _ack(
        self,
        runtime: WorldRuntime,
        seq: int,
        pushes: list[dict[str, Any]],
        session: Session,
        *,
        duplicate: bool = False,
        world: World | None = None,
    ) -> dict[str, Any]:
        shown = runtime.world if world is None else world
        renderer = self.renderers[shown.system]
        return renderer.ack(
            shown, seq, pushes, session.role, session.locale, duplicate, session.user
        )

    def _render_pushes(
        self,
        runtime: WorldRuntime,
        seq: int,
        pushes: list[dict[str, Any]],
        session: Session,
        used: set[tuple[str, str]],
        world: World | None = None,
    ) -> list[tuple[str, dict[str, Any]]]:
        shown = runtime.world if world is None else world
        renderer = self.renderers[shown.system]
        return renderer.pushes(
            shown, seq, pushes, session.role, session.locale, used, session.user or None
        )

    async def _broadcast(
        self,
        runtime: WorldRuntime,
        seq: int,
        pushes: list[dict[str, Any]],
        world: World | None = None,
    ) -> dict[tuple[str, str], list[tuple[str, dict[str, Any]]]]:
        """Push to every (role, locale) room in use; each rendering is returned for reuse.
        ``world`` is the world as the event left it (default: the runtime's; later
        flights may have moved the runtime on)."""
        world = runtime.world if world is None else world
        world_id = runtime.world.id
        renderer = self.renderers[world.system]
        emit = self._emit_room
        rendered: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = {}
        for key, count in list(runtime.members.items()):
            if count <= 0:
                continue
            role, locale, room = self._listener(world_id, key)
            bodies = renderer.pushes(world, seq, pushes, role, locale, (), None)
            rendered[key] = bodies
            for name, body in bodies:
                await emit(room, name, body)
        if any(p.get("whisper") for p in pushes):
            await self._whisper(runtime, seq, pushes, world)
        return rendered

    async def _whisper(
        self, runtime: WorldRuntime, seq: int, pushes: list[dict[str, Any]], world: World
    ) -> None:
        """Whispered cards go to the named players' own connections, not their rooms."""
        whispered = [p for p in pushes if p["type"] == "chat_card" and p.get("whisper")]
        if not whispered:
            return
        names = {u for p in whispered for u in p["whisper"]}
        for sid, conn in list(self.connections.items()):
            session = conn.session
            if (
                conn.world_id != runtime.world.id
                or session.role == "gm"
                or session.user not in names
                or not conn.welcomed.is_set()
            ):
                continue
            for name, body in self._render_pushes(runtime, seq, whispered, session, set(), world):
                await self.sio.emit(name, body, to=sid, namespace=NAMESPACE)

    async def _emit_room(self, room: str, event: str, body: dict[str, Any]) -> None:
        """A push to one of a world's rooms: encoded once and queued for each member
        without a task per member (bridge/rooms.py); through ``emit`` with a cluster's
        client manager, which publishes to the other processes."""
        if self.cluster is not None:
            await self.sio.emit(event, body, room=room, namespace=NAMESPACE)
        else:
            await push_to_room(self.sio, NAMESPACE, room, event, body)

    def _listener(self, world_id: str, key: tuple[str, str]) -> tuple[str, str, str]:
        """The role and locale a world's (role, locale) room is rendered for (a room as a
        whole: no user), and the room's name; made once a room (worlds are never
        unloaded, and a world has a few rooms)."""
        rooms = self._listeners.get(world_id)
        if rooms is None:
            rooms = self._listeners[world_id] = {}
        listener = rooms.get(key)
        if listener is None:
            role, locale = key
            session = Session("", "gm" if role == "gm" else "player", locale)
            listener = rooms[key] = (session.role, locale, self._room(world_id, session))
        return listener

    def _address(self, environ: dict[str, Any]) -> str:
        """The client's address: the socket's peer (engine.io's REMOTE_ADDR is always
        127.0.0.1 under aiohttp), or what a trusted proxy says it saw."""
        request = environ.get("aiohttp.request")
        remote = getattr(request, "remote", None)
        forwarded = request.headers.get("X-Forwarded-For") if request is not None else None
        return client_address(str(remote) if remote else None, forwarded, self.trusted_proxies)

    # -- lifecycle ------------------------------------------------------------
    async def drain(self) -> None:
        """Refuse new requests, then wait for those in progress to be written."""
        self.shutting_down = True
        for runtime in list(self.worlds.values()):
            async with runtime.lock:
                await self.pipe(runtime).settle()


BRIDGE_KEY = web.AppKey("bridge", Bridge)


def create_app(
    store: AsyncStore,
    registry: Registry,
    *,
    dice_factory: Callable[[], DiceSource] = SystemDice,
    rate_limit: RateLimit = DEFAULT_RATE,
    cluster: ClusterFeed | None = None,
    world_limit: WorldLimit = DEFAULT_WORLD,
    auth_limit: AuthLimit = DEFAULT_AUTH,
    trusted_proxies: frozenset[str] = frozenset(),
    freeze_gc: bool = False,
) -> web.Application:
    """The bridge as an aiohttp application.

    ``freeze_gc`` (the ``serve`` command): once started, everything alive (modules, the
    rules' tables, the registry) is moved out of the cyclic garbage collector's way
    (:func:`gc.freeze`): a full collection no longer walks those ~80k objects, which
    took ~55 ms each under load (a pause every few seconds that showed in the p99); and
    the collector runs less often (:func:`bridge.transport.settle_collector`).
    Not for tests, which start many apps in one process."""
    bridge = Bridge(
        store,
        registry,
        dice_factory=dice_factory,
        rate_limit=rate_limit,
        cluster=cluster,
        world_limit=world_limit,
        auth_limit=auth_limit,
        trusted_proxies=trusted_proxies,
    )
    app = web.Application()
    app[BRIDGE_KEY] = bridge
    bridge.sio.attach(app, socketio_path="socket.io")

    async def healthz(request: web.Request) -> web.Response:
        return web.json_response(
            {
                "ok": not bridge.shutting_down,
                "protocol": PROTOCOL_VERSION,
                "worlds_loaded": len(bridge.worlds),
                "connections": len(bridge.connections),
                "cluster": bridge.cluster.status() if bridge.cluster is not None else None,
            }
        )

    async def index(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def on_startup(app: web.Application) -> None:
        if cluster is not None:
            await cluster.start()
        if freeze_gc:
            settle_collector()

    async def on_shutdown(app: web.Application) -> None:
        await bridge.drain()
        if cluster is not None:
            await cluster.stop()
        await disconnect_all(bridge.sio.eio)  # a client that stopped reading cannot hold it
        await bridge.sio.shutdown()

    async def on_cleanup(app: web.Application) -> None:
        await store.close()

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/", index)
    app.router.add_static("/static/", STATIC, follow_symlinks=False)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
