"""A world's requests in flight: worked out one after another, made durable together.

Before, a world's lock was held from the rules to the end of the sync to disk, so
the five members of a world waited for each other's fsync in turn. Now the lock
covers only the rules and the hand-off to the store: the next request is worked
out on the state its predecessor left while that predecessor's transaction is
still being written, and both usually share one commit (group commit).

What does not change: nothing is acknowledged or pushed before its transaction
is on disk; a world's pushes go out in ``seq`` order (landed flights are pushed and
answered one after another by one deliverer, in the order the store answered them:
``WorldPipe.deliver``); a retried request id never applies twice (a retry of a
request still in flight waits for it and gets its ack as a duplicate). If a
transaction fails, the world in memory goes back to its last durable state at
once; any request worked out on top of the failed one fails in the store too (its
``seq`` no longer follows), so each of them answers ``store_error`` and changed
nothing. Requests that read the store (``card_action``, ``undo``), refusals, the
welcome and shutdown first wait until every flight has landed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bridge.engine import Session
from bridge.recent import RecentEvents
from bridge.store import AsyncStore, NewEvent, StoreError
from bridge.worlds import WorldRuntime
from rules.model import World

_Future = asyncio.Future


@dataclass(slots=True)
class Flight:
    """One accepted request on its way to disk."""

    seq: int
    request_id: str
    world: World
    pushes: list[dict[str, Any]]
    answer: asyncio.Future[dict[str, Any]]
    """The request's ack body, set once ``record`` is on disk and the pushes are out (or
    its error, if the write failed) by the pipe's ``deliver``: the only future its request
    awaits, so a cancelled request cancels this one, never the write."""
    record: NewEvent
    """The event as handed to the store: remembered once on disk (``WorldPipe.recent``)."""
    pipe: WorldPipe
    runtime: WorldRuntime
    """The world it flies in (kept after it landed: a cancelled request's flight is still
    answered by the store, which needs them)."""
    session: Session
    """Whose request it is (its ack is rendered for this session)."""
    ok: bool = False
    """Its write is on disk."""
    error: StoreError | None = None
    """What the store failed its write with (then nothing of it happened)."""
    pushed: bool = False
    """Its pushes are out, or it failed: the next flight of the world may push."""
    waiter: asyncio.Future[None] | None = None
    """Made only when something waits for ``pushed`` (a retry, a settle): most flights
    are pushed before anyone asks, and a future a request was one object and one
    callback for nobody."""

    def landed(self, error: StoreError | None) -> None:
        """The write's outcome (called by the store's answer, ``AsyncStore.hand``): the
        world's durable state and the record remembered, or on a failure the world in
        memory back to what is on disk; then the flight handed to the pipe's ``deliver``
        (pushed and answered in the order the store answered)."""
        pipe = self.pipe
        if error is None:
            self.ok = True
            if self.seq > pipe.durable_seq:
                pipe.durable_world, pipe.durable_seq = self.world, self.seq
            recent = pipe.recent
            if recent is not None:
                recent.remember(pipe.world_id, self.record)  # on disk, so kept
        else:
            self.error = error
            runtime = self.runtime
            if runtime.seq >= self.seq:
                # The memory held this flight (and maybe later ones built on it): back
                # to what is on disk. Later flights fail in the store by themselves.
                runtime.world, runtime.seq = pipe.durable_world, pipe.durable_seq
                pipe.rollbacks += 1
        pipe.deliver(self)

    def emitted(self) -> asyncio.Future[None]:
        """A future done once ``pushed``: wait for it through :func:`asyncio.shield` (a
        cancelled waiter must not cancel it for the others)."""
        waiter = self.waiter
        if waiter is None:
            waiter = self.waiter = asyncio.get_running_loop().create_future()
            if self.pushed:
                waiter.set_result(None)
        return waiter


@dataclass(slots=True)
class WorldPipe:
    """The flights of one world and its last durable state."""

    durable_world: World
    durable_seq: int
    world_id: str
    store: AsyncStore
    """The store the flights' writes go to: its answer lands each flight itself
    (``AsyncStore.hand``: no future and no loop handle a request for the write)."""
    deliver: Callable[[Flight], None]
    """Where a landed flight goes to be pushed and answered, in landing order (the
    bridge's deliverer; ``land`` once done)."""
    loop: asyncio.AbstractEventLoop
    """The loop the flights' requests run on (their ``answer`` futures are of it)."""
    recent: RecentEvents | None = None
    """Where a flight's record goes once it is on disk (card actions and undos read it)."""
    flights: dict[str, Flight] = field(default_factory=dict)
    tail: Flight | None = None
    """The world's newest flight (None before the first)."""
    rollbacks: int = 0

    @classmethod
    def of(
        cls,
        runtime: WorldRuntime,
        store: AsyncStore,
        deliver: Callable[[Flight], None],
        recent: RecentEvents | None = None,
    ) -> WorldPipe:
        """The pipe of ``runtime``'s world (made on its loop)."""
        world = runtime.world
        loop = asyncio.get_running_loop()
        return cls(world, runtime.seq, world.id, store, deliver, loop, recent)

    def landed_all(self) -> bool:
        """Whether every flight so far is on disk (or failed) and pushed."""
        tail = self.tail
        return tail is None or tail.pushed

    async def settle(self) -> None:
        """Wait until every flight so far is on disk (or failed) and pushed."""
        while self.tail is not None and not self.tail.pushed:
            await asyncio.shield(self.tail.emitted())

    def launch(
        self, runtime: WorldRuntime, session: Session, record: NewEvent, state: str, world: World
    ) -> Flight:
        """The hand-off of ``session``'s accepted event: its flight made the world's newest
        state in memory, its request id known from now on, and ``record`` with the world's
        ``state`` text handed to the store, which lands the flight once on disk.

        The flight is made here with everything it holds at once (one call a request, no
        field set twice), and the store answers it through one bound method of the flight
        (:meth:`landed`: the durable state, the record remembered, the flight on to its
        delivery), not through a future of the write with callbacks of its own."""
        request_id = record.request_id
        flight = Flight(
            record.seq,
            request_id,
            world,
            record.pushes,
            _Future(loop=self.loop),  # as loop.create_future(), one frame less
            record,
            self,
            runtime,
            session,
        )
        self.flights[request_id] = flight
        self.tail = flight
        runtime.world = world
        runtime.seq = flight.seq
        known = runtime.request_ids
        if known is not None:
            known.add(hash(request_id))
        self.store.hand(self.world_id, record, state, flight.landed)
        return flight

    def land(self, flight: Flight) -> None:
        """The flight's pushes are out (or it failed): the next flight may push."""
        if self.flights.get(flight.request_id) is flight:
            del self.flights[flight.request_id]
        flight.pushed = True
        waiter = flight.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
