"""Several bridge processes on one shared store: cross-process ordering and fan-out.

A world's events are made by whichever process a client is connected to, so every
process keeps, per world it has in memory, three numbers: the ``seq`` of its copy of
the world (``runtime.seq``), the last ``seq`` it has pushed to its own clients
(``delivered``) and the highest ``seq`` it has heard of (``heads``). The rules:

* **Writing.** A process appends ``runtime.seq + 1``; the store accepts it only if
  the world is still there (:class:`SeqConflict` otherwise, nothing written). On a
  conflict the process reloads the world from the store, pushes the events it had
  missed to its clients, and runs the request again (the idempotency lookup first,
  so a request another process already applied answers with that event), for up to
  :data:`RACE_SECONDS`, with a few random milliseconds' pause after the third loss.
* **Fan-out.** After a commit the process pushes to its own clients at once and
  publishes ``{world, seq, pushes}`` once on Redis through python-socketio's
  :class:`socketio.AsyncRedisManager` (a namespace no client joins). Every other
  process renders that event for its own clients (its own rooms per role and
  locale, its own whisper targets) — never events rendered elsewhere.
* **Order.** A process pushes ``seq`` n to its clients only after n - 1: a message
  that arrives early (Redis gives no order between publishers) makes the process
  read the missing events from the store, and messages at or below ``delivered``
  are dropped. Every client therefore sees each event once, in ``seq`` order.
* **Joining.** A welcome first brings the world up to the store's head (pushing
  what was missing to the clients already there), then sends the backlog up to it
  and joins the room: nothing falls between the backlog and the live pushes.
* **Losses.** Redis delivers at most once; a message lost while Redis is down or
  restarting is found by a sweep that reads every loaded world's head from the
  store each ``poll_seconds`` and delivers what is missing. Without ``--redis`` the
  sweep alone keeps the processes in step (at its pace).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any, Protocol

import socketio
from socketio.async_manager import AsyncManager

from bridge.serialize import world_from_json
from bridge.store import SeqConflict, StoreError
from bridge.store_api import Store

if TYPE_CHECKING:
    from pydantic import BaseModel

    from bridge.engine import Session
    from bridge.server import Bridge
    from bridge.worlds import WorldRuntime

log = logging.getLogger("vtt_bridge.cluster")

CLUSTER_NAMESPACE = "/vtt-cluster"
"""The Socket.IO namespace that carries the processes' event notices; no client joins it."""
EVENT_NOTICE = "world_event"
CHANNEL = "vtt-bridge"
RACE_SECONDS = 10.0
"""How long a request keeps retrying lost races (another process wrote first) before
the client is told ``store_error`` (transient: it retries with the same id). A count of
attempts was not enough: a process whose rival has two busy clients on the world lost
up to 12 races in a row in the kill -9 test at load 8, and the old limit of 20 could
answer ``store_error`` while PostgreSQL was up."""
PENDING_PER_WORLD = 2000
OUTBOX = 10_000


class SharedStore(Store, Protocol):
    """A store several processes share (PostgreSQL): it can tell worlds' heads cheaply."""

    def heads(self, world_ids: list[str]) -> dict[str, int]: ...


class ClusterManager(socketio.AsyncRedisManager):  # type: ignore[misc]
    """python-socketio's Redis manager, carrying only the bridge's event notices.

    The bridge's own emits (welcome, backlog, pushes to its rooms and whisper
    targets) stay local: each process renders for its own clients. Only emits to
    :data:`CLUSTER_NAMESPACE` travel, and arrive at :meth:`ClusterFeed.heard`.
    """

    def __init__(self, url: str, feed: ClusterFeed, channel: str = CHANNEL) -> None:
        super().__init__(
            url,
            channel=channel,
            redis_options={"socket_connect_timeout": 3, "health_check_interval": 10},
        )
        self.feed = feed

    async def emit(
        self,
        event: str,
        data: Any,
        namespace: str | None = None,
        room: str | None = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if namespace == CLUSTER_NAMESPACE:
            # The subscriber count, or None when Redis could not be reached (logged).
            return await self._publish(
                {
                    "method": "emit",
                    "event": event,
                    "data": [data],
                    "binary": False,
                    "namespace": namespace,
                    "room": None,
                    "skip_sid": None,
                    "callback": None,
                    "host_id": self.host_id,
                }
            )
        return await AsyncManager.emit(
            self, event, data, namespace, room=to or room, skip_sid=skip_sid, callback=callback
        )

    async def disconnect(self, sid: str, namespace: str, **kwargs: Any) -> Any:
        return await AsyncManager.disconnect(self, sid, namespace)

    async def _handle_emit(self, message: dict[str, Any]) -> None:
        # Only other processes' messages arrive here (the base class skips our own).
        if message.get("namespace") != CLUSTER_NAMESPACE or message.get("event") != EVENT_NOTICE:
            return
        data = message.get("data")
        if isinstance(data, list) and data and isinstance(data[0], dict):
            self.feed.heard(data[0])


class ClusterFeed:
    """One process's view of the worlds it shares with the other processes."""

    def __init__(self, redis_url: str | None = None, *, poll_seconds: float = 1.0) -> None:
        self.redis_url = redis_url
        self.poll_seconds = poll_seconds
        self.manager: ClusterManager | None = ClusterManager(redis_url, self) if redis_url else None
        self.delivered: dict[str, int] = {}
        self.heads: dict[str, int] = {}
        self.pending: dict[str, dict[int, list[dict[str, Any]]]] = {}
        self.published = 0
        self.publish_failures = 0
        self.lost_races = 0  # appends refused because another process wrote first
        self.reloads = 0  # world states read back from the store
        self._bridge: Bridge | None = None
        self._deliveries: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # worlds with news since their delivery began
        self._outbox: asyncio.Queue[dict[str, Any]] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # -- wiring -----------------------------------------------------------------
    def attach(self, bridge: Bridge) -> None:
        if not hasattr(bridge.store.sync, "heads"):
            raise ValueError("several processes need a shared store (--store postgresql://...)")
        self._bridge = bridge

    @property
    def bridge(self) -> Bridge:
        assert self._bridge is not None, "ClusterFeed.attach was not called"
        return self._bridge

    @property
    def store(self) -> SharedStore:
        return self.bridge.store.sync  # type: ignore[return-value]

    async def start(self) -> None:
        sio = self.bridge.sio
        if self.manager is not None and not sio.manager_initialized:
            # Listen from the start, not from the first client (python-socketio's default).
            sio.manager_initialized = True
            sio.manager.initialize()
        self._outbox = asyncio.Queue(OUTBOX)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._sweep())]
        if self.manager is not None:
            self._tasks.append(loop.create_task(self._publisher()))

    async def stop(self) -> None:
        if self._outbox is not None and self.manager is not None:
            with contextlib.suppress(TimeoutError):  # best effort: the others sweep anyway
                await asyncio.wait_for(self._outbox.join(), 2)
        for task in [*self._tasks, *self._deliveries.values()]:
            task.cancel()
        for task in [*self._tasks, *self._deliveries.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def status(self) -> dict[str, Any]:
        return {
            "redis": self.redis_url is not None,
            "published": self.published,
            "publish_failures": self.publish_failures,
            "lost_races": self.lost_races,
            "reloads": self.reloads,
            "worlds": len(self.delivered),
        }

    # -- hooks the server calls (the world's lock held) -------------------------------
    async def apply(
        self,
        runtime: WorldRuntime,
        session: Session,
        event: str,
        payload: dict[str, Any],
        request: BaseModel,
    ) -> dict[str, Any]:
        """Run a request against the world's latest state; retry on a lost race."""
        bridge = self.bridge
        world_id = runtime.world.id
        loop = asyncio.get_running_loop()
        give_up = loop.time() + RACE_SECONDS
        attempt = 0
        while True:
            try:
                if attempt or self.heads.get(world_id, 0) > runtime.seq:
                    await self.catch_up(runtime, force=attempt > 0, moved=attempt > 0)
                return await bridge._apply(runtime, session, event, payload, request)
            except SeqConflict:
                self.lost_races += 1
                attempt += 1
            except StoreError:
                log.exception("store failed during %s on world %s", event, world_id)
                return bridge._error("store_error", session.locale)
            if loop.time() >= give_up:
                log.error("world %s: %d lost races in %.0f s", world_id, attempt, RACE_SECONDS)
                return bridge._error("store_error", session.locale)
            if attempt >= 3:
                # A process whose rival commits back to back can lose every race for as
                # long as the rival has work queued; a short random pause lets it land in
                # one of the rival's gaps (between an ack and its client's next request).
                await asyncio.sleep(random.uniform(0, min(0.2, 0.01 * attempt)))

    async def before_welcome(self, runtime: WorldRuntime) -> bool:
        """Bring the world to the store's head before a welcome; False if the store is away."""
        try:
            await self.catch_up(runtime, force=True)
        except StoreError:
            log.warning("world %s: store unavailable, welcome refused", runtime.world.id)
            return False
        return True

    def committed(self, world_id: str, seq: int, pushes: list[dict[str, Any]]) -> None:
        """This process wrote ``seq`` and pushes it to its own clients now."""
        self.delivered[world_id] = seq
        self.heads[world_id] = max(self.heads.get(world_id, 0), seq)
        if self._outbox is not None and self.manager is not None:
            try:
                self._outbox.put_nowait({"world": world_id, "seq": seq, "pushes": pushes})
            except asyncio.QueueFull:  # Redis is far behind: the others' sweep delivers
                self.publish_failures += 1

    # -- catching up ------------------------------------------------------------
    async def catch_up(self, runtime: WorldRuntime, *, force: bool, moved: bool = False) -> None:
        """Bring the world up to the newest known head and push what this process's
        clients have not seen, in order. The caller holds ``runtime.lock``. ``force``
        asks the store for the head; ``moved`` (a lost race: the head did move) reads
        the world at once, one round trip less between this reload and the next append."""
        bridge = self.bridge
        world_id = runtime.world.id
        delivered = self.delivered.setdefault(world_id, runtime.seq)
        head = max(self.heads.get(world_id, 0), runtime.seq)
        if force and not moved:
            found = await bridge.store.run(self.store.heads, [world_id])
            head = max(head, found.get(world_id, 0))
        if moved or head > runtime.seq:
            row = await bridge.store.run(self.store.load_world, world_id)
            if row is not None and row.seq > runtime.seq:
                runtime.world = world_from_json(row.state)
                runtime.seq = row.seq
                self.reloads += 1
        self.heads[world_id] = max(self.heads.get(world_id, 0), runtime.seq)
        if delivered < runtime.seq:
            if any(count > 0 for count in runtime.members.values()):
                await self._deliver_range(runtime, delivered, runtime.seq)
            self.delivered[world_id] = runtime.seq
        pending = self.pending.get(world_id)
        if pending:
            for seq in [s for s in pending if s <= runtime.seq]:
                del pending[seq]

    async def _deliver_range(self, runtime: WorldRuntime, after: int, upto: int) -> None:
        bridge = self.bridge
        world_id = runtime.world.id
        pending = self.pending.get(world_id, {})
        seq = after
        while seq < upto:
            pushes = pending.pop(seq + 1, None)
            if pushes is not None:
                await bridge._broadcast(runtime, seq + 1, pushes)
                seq += 1
                self.delivered[world_id] = seq
                continue
            rows = await bridge.store.run(
                self.store.events_after, world_id, seq, min(1000, upto - seq)
            )
            if not rows:
                log.error("world %s: events %d..%d missing from the store", world_id, seq, upto)
                return
            for row in rows:
                if row.seq > upto:
                    break
                await bridge._broadcast(runtime, row.seq, row.pushes)
                seq = row.seq
                self.delivered[world_id] = seq  # a store failure midway repeats nothing

    # -- hearing from the others ------------------------------------------------------
    def heard(self, notice: dict[str, Any]) -> None:
        """Another process committed ``notice['seq']`` of ``notice['world']``."""
        world_id, seq, pushes = notice.get("world"), notice.get("seq"), notice.get("pushes")
        if (
            not isinstance(world_id, str)
            or not isinstance(seq, int)
            or not isinstance(pushes, list)
        ):
            return
        runtime = self.bridge.worlds.get(world_id)
        if runtime is None:
            return  # not in use here: it will be loaded fresh from the store
        self.heads[world_id] = max(self.heads.get(world_id, 0), seq)
        if seq <= self.delivered.get(world_id, runtime.seq):
            return
        if any(count > 0 for count in runtime.members.values()):
            pending = self.pending.setdefault(world_id, {})
            if len(pending) < PENDING_PER_WORLD:
                pending[seq] = pushes
        # Scheduled even with no member yet: a client being welcomed right now joins
        # the room before the delivery gets the world's lock, and is then served.
        self._schedule(world_id)

    def _schedule(self, world_id: str) -> None:
        # Marked first: a delivery already running may have read the head before this
        # notice came, so it goes round once more instead of leaving the notice pending
        # until the next sweep (the last card of a burst arrived a sweep late).
        self._again.add(world_id)
        task = self._deliveries.get(world_id)
        if task is None or task.done():
            self._deliveries[world_id] = asyncio.get_running_loop().create_task(
                self._deliver(world_id)
            )

    async def _deliver(self, world_id: str) -> None:
        while world_id in self._again:
            self._again.discard(world_id)
            runtime = self.bridge.worlds.get(world_id)
            if runtime is None:
                return
            try:
                async with runtime.lock:
                    if any(count > 0 for count in runtime.members.values()):
                        await self.catch_up(runtime, force=False)
                    # else nobody here listens: the next welcome or request catches up
            except StoreError:
                log.warning("world %s: store unavailable, the sweep will retry", world_id)
                return
            except Exception:
                log.exception("world %s: delivery failed", world_id)
                return

    async def _sweep(self) -> None:
        """Every ``poll_seconds``: the heads of the loaded worlds, from the store."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            ids = list(self.bridge.worlds)
            if not ids:
                continue
            try:
                found = await self.bridge.store.run(self.store.heads, ids)
            except StoreError:
                log.warning("sweep: store unavailable")
                continue
            except Exception:
                log.exception("sweep failed")
                continue
            for world_id, head in found.items():
                runtime = self.bridge.worlds.get(world_id)
                if runtime is None:
                    continue
                self.heads[world_id] = max(self.heads.get(world_id, 0), head)
                if head > self.delivered.get(world_id, runtime.seq) and any(
                    count > 0 for count in runtime.members.values()
                ):
                    self._schedule(world_id)

    async def _publisher(self) -> None:
        """Publishes the notices in commit order, off the request path: a slow or
        absent Redis never holds a world's lock."""
        assert self._outbox is not None and self.manager is not None
        while True:
            notice = await self._outbox.get()
            try:
                reached = await asyncio.wait_for(
                    self.manager.emit(EVENT_NOTICE, notice, namespace=CLUSTER_NAMESPACE), 5
                )
                if reached is None:
                    raise ConnectionError("Redis unreachable")
                self.published += 1
            except Exception:
                self.publish_failures += 1
                log.warning("could not publish world %s seq %s", notice["world"], notice["seq"])
            finally:
                self._outbox.task_done()
