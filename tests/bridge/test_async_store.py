"""AsyncStore's group commit: the writer thread, the gathering of a group, failures, close."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bridge.store import AsyncStore, NewEvent, SQLiteStore, StoreError
from bridge.transport import SERVER_GC_THRESHOLDS, settle_collector

STATE = {"id": "w", "name": "w", "system": "o3d10", "settings": {}, "actors": {}, "data": {}}


def event(seq: int, request: str) -> NewEvent:
    return NewEvent(seq, request, "roll", "ana", "gm", {"n": seq}, "h", [[10, 1]], [], None, "now")


def sqlite_with(path: Path, worlds: int) -> SQLiteStore:
    store = SQLiteStore(path / "s.sqlite3")
    for i in range(worlds):
        store.create_world(f"w{i}", f"w{i}", "o3d10", f"g{i}", f"p{i}", STATE, "now")
    return store


class Counting:
    """Wraps ``append_many`` to count the groups and the threads that wrote them."""

    def __init__(self, store: SQLiteStore) -> None:
        self.groups: list[int] = []
        self.threads: set[str] = set()
        self.original = store.append_many
        store.append_many = self  # type: ignore[method-assign,assignment]

    def __call__(self, items: list[tuple[str, NewEvent, str]]) -> list[StoreError | None]:
        self.groups.append(len(items))
        self.threads.add(threading.current_thread().name)
        return self.original(items)  # type: ignore[arg-type]


async def test_requests_on_their_way_share_the_group(tmp_path: Path) -> None:
    """Events that reach the store a few loop iterations apart (as requests read from
    sockets one after another do) are written in one group, on the writer thread."""
    sync = sqlite_with(tmp_path, 30)
    counting = Counting(sync)
    store = AsyncStore(sync)

    async def request(index: int) -> None:
        for _ in range(index % 3):
            await asyncio.sleep(0)
        await store.append(f"w{index}", event(1, f"r{index}"), STATE)

    await asyncio.gather(*(request(i) for i in range(30)))
    assert sum(counting.groups) == 30 and len(counting.groups) < 30, counting.groups
    assert counting.threads == {"vtt-store-writer"}
    assert store.commits == len(counting.groups)
    assert all(sync.load_world(f"w{i}").seq == 1 for i in range(30))  # type: ignore[union-attr]
    await store.close()


async def test_a_lone_event_is_written_without_waiting_for_company(tmp_path: Path) -> None:
    sync = sqlite_with(tmp_path, 1)
    counting = Counting(sync)
    store = AsyncStore(sync)
    for seq in range(1, 4):
        await store.append("w0", event(seq, f"r{seq}"), STATE)
    assert counting.groups == [1, 1, 1]
    await store.close()


async def test_a_failing_writer_fails_its_group_and_keeps_writing(tmp_path: Path) -> None:
    """If the store call itself raises (not a per-item StoreError), every event of the
    group gets a StoreError and nothing was acknowledged; the next group is written."""
    sync = sqlite_with(tmp_path, 2)
    original = sync.append_many
    calls: list[int] = []

    def failing_once(items: list[tuple[str, NewEvent, str]]) -> list[StoreError | None]:
        calls.append(len(items))
        if len(calls) == 1:
            raise RuntimeError("disk on fire")
        return original(items)  # type: ignore[arg-type]

    sync.append_many = failing_once  # type: ignore[method-assign,assignment]
    store = AsyncStore(sync)
    results = await asyncio.gather(
        store.append("w0", event(1, "a"), STATE),
        store.append("w1", event(1, "b"), STATE),
        return_exceptions=True,
    )
    assert [type(r) for r in results] == [StoreError, StoreError]
    assert "disk on fire" in str(results[0])
    assert sync.load_world("w0").seq == 0  # type: ignore[union-attr]
    await store.append("w0", event(1, "a"), STATE)
    assert sync.load_world("w0").seq == 1  # type: ignore[union-attr]
    await store.close()


async def test_close_writes_what_was_submitted_and_stops_the_writer(tmp_path: Path) -> None:
    sync = sqlite_with(tmp_path, 3)
    store = AsyncStore(sync)
    futures = [store.submit(f"w{i}", event(1, f"r{i}"), STATE) for i in range(3)]
    await store.close()
    assert all(f.done() and f.exception() is None for f in futures)
    assert not any(t.name == "vtt-store-writer" for t in threading.enumerate())
    reopened = SQLiteStore(tmp_path / "s.sqlite3")
    assert [reopened.load_world(f"w{i}").seq for i in range(3)] == [1, 1, 1]  # type: ignore[union-attr]
    reopened.close()


async def test_a_per_item_error_stays_with_its_item(tmp_path: Path) -> None:
    sync = sqlite_with(tmp_path, 2)
    store = AsyncStore(sync)
    results = await asyncio.gather(
        store.append("w0", event(1, "a"), STATE),
        store.append("w1", event(5, "b"), STATE),  # not the next seq of w1
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], StoreError)
    await store.close()


@pytest.fixture
def collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield None
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_collector_freezes_the_heap_and_raises_the_thresholds(collector: None) -> None:
    settle_collector()
    assert gc.get_threshold() == SERVER_GC_THRESHOLDS
    assert gc.get_freeze_count() > 0


async def test_a_store_nobody_closed_lets_its_writer_go(tmp_path: Path) -> None:
    """The writer thread does not keep an unclosed AsyncStore (and its connections)
    alive: once the store is garbage, the thread ends."""
    store = AsyncStore(sqlite_with(tmp_path, 1))
    await store.append("w0", event(1, "r1"), STATE)
    writer = store._writer
    assert writer is not None and writer.is_alive()
    del store
    gc.collect()
    writer.join(timeout=30)  # a bound, not a timing assertion: it ends at once
    assert not writer.is_alive()


async def test_more_events_than_a_group_holds_go_in_several_groups_in_order(
    tmp_path: Path,
) -> None:
    sync = sqlite_with(tmp_path, 1)
    counting = Counting(sync)
    store = AsyncStore(sync)
    store.GROUP_LIMIT = 4
    futures = [store.submit("w0", event(seq, f"r{seq}"), STATE) for seq in range(1, 11)]
    await asyncio.gather(*futures)
    assert counting.groups == [4, 4, 2] and store.commits == 3
    assert [e.seq for e in sync.events_after("w0", 0)] == list(range(1, 11))
    await store.close()


async def test_close_waits_for_the_group_being_gathered(tmp_path: Path) -> None:
    sync = sqlite_with(tmp_path, 2)
    store = AsyncStore(sync)
    first = store.submit("w0", event(1, "a"), STATE)
    await asyncio.sleep(0)  # the group is being gathered
    second = store.submit("w1", event(1, "b"), STATE)
    await store.close()
    assert first.done() and first.exception() is None
    assert second.done() and second.exception() is None


async def test_groups_handed_over_while_the_writer_writes_share_its_next_transaction(
    tmp_path: Path,
) -> None:
    """The loop hands a group over as soon as it is gathered, even while the writer is
    still on an earlier one; once that one is on disk, the writer takes every group
    waiting into one transaction, in the order they were handed over (each group's
    futures answered with its own events' outcomes)."""
    sync = sqlite_with(tmp_path, 3)
    counting = Counting(sync)
    entered, release = threading.Event(), threading.Event()
    original = counting.original

    def held_first(items: list[tuple[str, NewEvent, str]]) -> list[StoreError | None]:
        if len(counting.groups) == 1:
            entered.set()
            release.wait(timeout=30)  # a bound, not a timing assertion
        return original(items)  # type: ignore[arg-type]

    counting.original = held_first  # type: ignore[assignment]
    store = AsyncStore(sync)
    first = store.submit("w0", event(1, "a"), STATE)
    while not entered.is_set():  # the first group handed over; the writer holds it
        await asyncio.sleep(0.001)
    later = []
    for seq, world in ((1, "w1"), (2, "w0"), (5, "w2"), (3, "w0")):  # w2: not its next seq
        later.append(store.submit(world, event(seq, f"{world}-{seq}"), STATE))
        while store._gathering:  # each its own group, handed over while the writer waits
            await asyncio.sleep(0)
    assert store._pending == 5
    release.set()
    results = await asyncio.gather(first, *later, return_exceptions=True)
    assert counting.groups == [1, 4] and store.commits == 2
    assert [isinstance(r, StoreError) for r in results] == [False, False, False, True, False]
    assert [r is None for r in results] == [True, True, True, False, True]
    assert [e.seq for e in sync.events_after("w0", 0)] == [1, 2, 3]
    assert sync.load_world("w2").seq == 0  # type: ignore[union-attr]
    await store.close()


async def test_a_landing_is_called_in_the_answer_with_each_events_outcome(
    tmp_path: Path,
) -> None:
    """``hand``: each event's landing runs within the transaction's answer, with its
    outcome (None, or the StoreError of that event alone), before any task the answer
    wakes resumed; once, in the order the events were handed; a landing that raises is
    reported to the loop and the other events of the group are still answered."""
    sync = sqlite_with(tmp_path, 4)
    store = AsyncStore(sync)
    loop = asyncio.get_running_loop()
    reported: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    seen: list[tuple[str, StoreError | None, bool]] = []
    resumed: list[str] = []

    def landing(name: str, fail: bool = False) -> Callable[[StoreError | None], None]:
        def land(error: StoreError | None) -> None:
            seen.append((name, error, bool(resumed)))
            if fail:
                raise RuntimeError("landing broke")

        return land

    store.hand("w0", event(1, "r0"), STATE, landing("a", fail=True))
    store.hand("w1", event(1, "r1"), STATE, landing("b"))
    store.hand("w2", event(7, "r2"), STATE, landing("c"))  # not w2's next seq
    future = store.submit("w3", event(1, "r3"), STATE)  # answered in the same pass

    async def awaiting() -> None:
        await future
        resumed.append("r3")

    await awaiting()
    assert [(name, resumed_yet) for name, _, resumed_yet in seen] == [
        ("a", False),
        ("b", False),
        ("c", False),
    ]
    assert seen[0][1] is None and seen[1][1] is None and isinstance(seen[2][1], StoreError)
    assert [str(context["exception"]) for context in reported] == ["landing broke"]
    assert store.commits == 1
    await store.close()


async def test_a_cancelled_submit_is_still_written(tmp_path: Path) -> None:
    sync = sqlite_with(tmp_path, 1)
    store = AsyncStore(sync)
    future = store.submit("w0", event(1, "r"), STATE)
    future.cancel()
    await store.close()
    assert future.cancelled()
    reopened = SQLiteStore(tmp_path / "s.sqlite3")
    assert reopened.load_world("w0").seq == 1  # type: ignore[union-attr]
    reopened.close()
