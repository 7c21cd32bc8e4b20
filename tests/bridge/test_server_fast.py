"""The request path without the world's lock (``Bridge._work_out``): taken only when no
other request of the world is being worked out or waiting for it, and never for the
requests that read the store first."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bridge.bench.net import O3D10_ROLL
from bridge.engine import Session
from bridge.server import READS_STORE, Bridge, Connection, _idle, _queued, digest_of
from bridge.store import AsyncStore, NewEvent
from protocol.v1.digest import payload_digest
from protocol.v1.requests import REQUEST_MODELS, CardActionRequest, UndoRequest
from support.live import rid
from support.worlds import one_o3d10_world


def test_the_events_that_read_the_store_are_those_of_card_actions_and_undos() -> None:
    reads = {e for e, m in REQUEST_MODELS.items() if m in (CardActionRequest, UndoRequest)}
    assert reads == READS_STORE


async def test_a_lock_with_requests_waiting_counts_as_queued_even_once_released() -> None:
    lock = asyncio.Lock()
    assert not _queued(lock)
    await lock.acquire()
    waiter = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)
    assert _queued(lock)
    lock.release()  # handed to the waiter, which has not run yet
    assert not lock.locked() and _queued(lock)
    await waiter
    lock.release()
    assert not _queued(lock)


async def test_a_lock_is_idle_only_when_neither_held_nor_waited_for() -> None:
    lock = asyncio.Lock()
    assert _idle(lock)
    await lock.acquire()
    assert not _idle(lock)
    waiter = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)
    lock.release()  # handed to the waiter, which has not run yet: still not idle
    assert not lock.locked() and not _idle(lock)
    await waiter
    assert not _idle(lock)
    lock.release()
    assert _idle(lock)


async def test_a_request_does_not_pass_one_waiting_for_the_worlds_lock(tmp_path: Path) -> None:
    sync, world_id, registry = one_o3d10_world(tmp_path)
    store = AsyncStore(sync)
    bridge = Bridge(store, registry)
    first, second = (Connection(world_id, Session(u, "gm", "es"), None) for u in ("a", "b"))
    first.welcomed.set()
    second.welcomed.set()
    runtime = await bridge.runtime(world_id)
    await runtime.lock.acquire()  # as a card action working under it would
    waiting = asyncio.create_task(
        bridge.handle(first, "roll", ({"id": rid(), **O3D10_ROLL},), "es")
    )
    await asyncio.sleep(0)
    assert runtime.seq == 0  # the first request waits for the lock
    runtime.lock.release()  # handed to it; it has not resumed yet
    later = bridge.handle(second, "roll", ({"id": rid(), **O3D10_ROLL},), "es")
    later.send(None)  # the second request's first step, before the first resumes
    assert runtime.seq == 0  # it queued behind the first instead of taking the world
    later.close()
    ack = await waiting
    assert ack["ok"] and ack["seq"] == 1
    again = await bridge.handle(second, "roll", ({"id": rid(), **O3D10_ROLL},), "es")
    assert again["ok"] and again["seq"] == 2
    await store.close()


def test_a_digest_written_with_an_event_is_compared_else_it_is_worked_out() -> None:
    payload = {"id": "r1", **O3D10_ROLL}

    def event(digest: str) -> NewEvent:
        return NewEvent(1, "r1", "roll", "a", "gm", payload, digest, [], [], None, "now")

    assert digest_of(event("")) == payload_digest("roll", payload)
    assert digest_of(event("written")) == "written"  # events of earlier passes, the cluster's
