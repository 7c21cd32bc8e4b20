"""The SQLite store: one transaction per event (or per group), seq order, idempotency keys."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bridge.store import (
    SCHEMA_VERSION,
    AsyncStore,
    NewEvent,
    SeqConflict,
    SQLiteStore,
    StoreError,
)
from bridge.store_api import Store, open_store

Opener = Callable[[], Store]

STATE = {"id": "w", "name": "w", "system": "o3d10", "settings": {}, "actors": {}, "data": {}}


def event(seq: int, request: str | None = None) -> NewEvent:
    return NewEvent(
        seq,
        request or f"req-{seq:04d}",
        "roll",
        "ana",
        "player",
        {"n": seq},
        "hash",
        [[10, seq % 10 + 1]],
        [{"type": "x", "n": seq}],
        None,
        "now",
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the store under test: the same suite runs on SQLite and on PostgreSQL."""
    location = (
        str(tmp_path / "s.sqlite3")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    opened: list[Store] = []

    def open_it() -> Store:
        opened.append(open_store(location))
        return opened[-1]

    yield open_it
    for store in opened:
        store.close()


def store_with(opener: Opener, *worlds: str) -> Store:
    store = opener()
    for world in worlds:
        store.create_world(
            world, world, "o3d10", f"g-{world}", f"p-{world}", {**STATE, "id": world}, "now"
        )
    return store


def test_append_keeps_seq_gap_free_and_request_ids_unique(opener: Opener) -> None:
    store = store_with(opener, "w")
    store.append("w", event(1), {**STATE, "n": 1})
    with pytest.raises(SeqConflict):
        store.append("w", event(3), STATE)
    with pytest.raises(StoreError):
        store.append("w", event(2, "req-0001"), STATE)  # the same request id again
    store.append("w", event(2), {**STATE, "n": 2})
    row = store.load_world("w")
    assert row is not None and (row.seq, row.state["n"]) == (2, 2)
    assert [e.seq for e in store.events_after("w", 0)] == [1, 2]
    found = store.find_request("w", "req-0002")
    assert found is not None and found.pushes == [{"type": "x", "n": 2}]
    assert store.initial_state("w") == STATE


def test_a_failed_item_of_a_group_leaves_the_others_written(opener: Opener) -> None:
    store = store_with(opener, "a", "b")
    errors = store.append_many(
        [("a", event(1), STATE), ("b", event(5), STATE), ("b", event(1), STATE)]
    )
    assert errors[0] is None and isinstance(errors[1], SeqConflict) and errors[2] is None
    assert [store.load_world(w).seq for w in ("a", "b")] == [1, 1]  # type: ignore[union-attr]


def test_tokens(opener: Opener) -> None:
    store = store_with(opener, "w")
    assert store.find_token("g-w") == ("w", "gm")
    assert store.find_token("p-w") == ("w", "player")
    assert store.find_token("nope") is None


def test_follow_ups_and_events_read_back(opener: Opener) -> None:
    store = store_with(opener, "w")
    marked = replace(event(1), used_follow_ups=(("0.0", "soak"),))
    store.append("w", marked, STATE)
    assert store.used_follow_ups("w", ["0.0", "9.9"]) == {("0.0", "soak")}
    released = replace(event(2), released_follow_ups=(("0.0", "soak"),))
    store.append("w", released, STATE)
    assert store.used_follow_ups("w", ["0.0"]) == set()
    assert store.event_at("w", 2) == store.find_request("w", "req-0002")
    assert store.find_request_now("w", "req-0001") == store.event_at("w", 1)
    assert store.event_at("w", 3) is None
    assert [e.seq for e in store.events_after("w", 1)] == [2]
    assert [w.id for w in store.list_worlds()] == ["w"]


def test_sqlite_schema(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    store.close()
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # The event log's one index: a world's events in order, with their request ids.
    indexes = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'events' AND type = 'index'"
    ).fetchall()
    assert [(name, sql.strip()) for name, sql in indexes] == [
        ("events_log", "CREATE UNIQUE INDEX events_log ON events (world, seq, request_id)")
    ]
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="schema version 99"):
        SQLiteStore(tmp_path / "s.sqlite3")


async def test_group_commit_writes_concurrent_worlds_together(opener: Opener) -> None:
    sync = store_with(opener, *[f"w{i}" for i in range(8)])
    calls: list[int] = []
    original = sync.append_many

    def counting(items: list[tuple[str, NewEvent, dict[str, object]]]) -> list[object]:
        calls.append(len(items))
        return original(items)  # type: ignore[arg-type]

    sync.append_many = counting  # type: ignore[method-assign,assignment]
    store = AsyncStore(sync)

    async def world(index: int) -> None:
        for seq in range(1, 11):
            await store.append(f"w{index}", event(seq), STATE)

    await asyncio.gather(*(world(i) for i in range(8)))
    assert sum(calls) == 80 and len(calls) < 80, calls
    assert all(sync.load_world(f"w{i}").seq == 10 for i in range(8))  # type: ignore[union-attr]
    with pytest.raises(SeqConflict):
        await store.append("w0", event(99), STATE)
    await store.close()


def test_a_group_with_follow_ups_writes_them_in_item_order(opener: Opener) -> None:
    """One group: a follow-up used, released, used again and released by later items of
    one world ends as the last item left it (the grouped write or the per-item one)."""
    store = store_with(opener, "w", "v")
    mark = (("0.0", "soak"),)
    items: list[tuple[str, NewEvent, dict[str, object] | str]] = [
        ("w", replace(event(1), used_follow_ups=mark), STATE),
        ("v", event(1, "v-1"), STATE),
        ("w", replace(event(2), released_follow_ups=mark), STATE),
        ("w", replace(event(3), used_follow_ups=mark), STATE),
    ]
    assert store.append_many(items) == [None] * 4  # type: ignore[arg-type]
    assert store.used_follow_ups("w", ["0.0"]) == {("0.0", "soak")}
    assert [e.seq for e in store.events_after("w", 0)] == [1, 2, 3]
    duplicate = store.append_many([("v", event(2), STATE), ("v", event(3, "v-1"), STATE)])
    assert duplicate[0] is None and isinstance(duplicate[1], StoreError)
    assert store.load_world("v").seq == 2  # type: ignore[union-attr]


def test_a_state_left_as_it_was_is_kept_through_groups_failures_and_reopening(
    tmp_path: Path,
) -> None:
    """An event that leaves its world's state text as the last one written writes only
    its seq: whatever the mix (same text, equal text, a new one, several events of one
    world in a group, a failed item, a failed group), the row holds the newest state and
    a store opened afresh on the file reads it."""
    path = tmp_path / "s.sqlite3"
    store = SQLiteStore(path)
    for world in ("a", "b"):
        store.create_world(world, world, "o3d10", f"g{world}", f"p{world}", STATE, "now")
    one, two = '{"n":1}', '{"n":2}'
    store.append("a", event(1), one)
    store.append("a", event(2), one)  # the same text: seq alone
    store.append("a", event(3), "".join(['{"n":', "1}"]))  # an equal text, another object
    assert store.load_world("a").state == {"n": 1}  # type: ignore[union-attr]
    # One group: a's state changes, then stays, then goes back; b unchanged then a dict.
    errors = store.append_many(
        [
            ("a", event(4), two),
            ("b", event(1), one),
            ("a", event(5), two),
            ("b", event(2), one),
            ("a", event(6), one),
            ("b", event(3), {"n": 3}),
            ("b", event(4), one),
        ]
    )
    assert errors == [None] * 7
    assert store.load_world("a").state == {"n": 1}  # type: ignore[union-attr]
    assert store.load_world("b").state == {"n": 1}  # type: ignore[union-attr]
    # A group with a failing item is written again item by item: the same outcome.
    errors = store.append_many(
        [("a", event(7), two), ("b", event(9), two), ("a", event(8), two), ("b", event(5), one)]
    )
    assert errors[0] is None and isinstance(errors[1], SeqConflict) and errors[2:] == [None] * 2
    assert store.load_world("a").state == {"n": 2}  # type: ignore[union-attr]
    # A group whose commit fails writes nothing and leaves what is remembered as it was.
    store.append("b", event(6), two)
    store._db.execute(
        "CREATE TRIGGER nope BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'x'); END"
    )
    assert all(isinstance(e, StoreError) for e in store.append_many([("b", event(7), two)]))
    store._db.execute("DROP TRIGGER nope")
    store.append("b", event(7), one)
    store.append("b", event(8), one)
    # Another connection (another process) writes b; this one's next write is in full.
    other = SQLiteStore(path)
    other.append("b", event(9), two)
    other.close()
    store.append("b", event(10), one)
    assert store.load_world("b").state == {"n": 1}  # type: ignore[union-attr]
    store.close()
    reopened = SQLiteStore(path)
    assert [(r.id, r.seq, r.state) for r in reopened.list_worlds()] == [
        ("a", 8, {"n": 2}),
        ("b", 10, {"n": 1}),
    ]
    reopened.append("a", event(9), two)  # a new connection writes the state in full first
    reopened.append("a", event(10), two)
    assert reopened.load_world("a").state == {"n": 2}  # type: ignore[union-attr]
    reopened.close()


def test_a_group_moves_each_world_once_to_its_last_event(opener: Opener) -> None:
    store = store_with(opener, "a", "b")
    errors = store.append_many(
        [
            ("a", event(1), {**STATE, "n": 1}),
            ("b", event(1, "b-1"), {**STATE, "n": 10}),
            ("a", event(2), {**STATE, "n": 2}),
            ("a", event(3), '{"n":3}'),
        ]
    )
    assert errors == [None, None, None, None]
    a, b = store.load_world("a"), store.load_world("b")
    assert a is not None and (a.seq, a.state) == (3, {"n": 3})
    assert b is not None and (b.seq, b.state["n"]) == (1, 10)
    # A world's events out of order in one group: the one that does not follow fails alone.
    errors = store.append_many(
        [("a", event(4), '{"n":4}'), ("a", event(6), '{"n":6}'), ("a", event(5), '{"n":5}')]
    )
    assert errors[0] is None and isinstance(errors[1], SeqConflict) and errors[2] is None
    a = store.load_world("a")
    assert a is not None and (a.seq, a.state) == (5, {"n": 5})
    assert [e.seq for e in store.events_after("a", 0)] == [1, 2, 3, 4, 5]


def test_a_state_left_as_it_was_still_reads_back_after_other_writers(tmp_path: Path) -> None:
    """The state text is written only when it changed since this connection's last write
    at the seq just before; another connection's write in between makes it write again."""
    path = tmp_path / "s.sqlite3"
    first = SQLiteStore(path)
    first.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    first.append("w", event(1), '{"n":1}')
    first.append("w", event(2), '{"n":1}')  # unchanged: the head alone moves
    second = SQLiteStore(path)
    second.append("w", event(3), '{"n":3}')
    first.append("w", event(4), '{"n":1}')  # first's text again, after second's write
    row = second.load_world("w")
    assert row is not None and (row.seq, row.state) == (4, {"n": 1})
    first.close()
    second.close()


def test_a_group_stores_each_record_as_the_text_its_encoder_gives(tmp_path: Path) -> None:
    """An event's record (schema 4: its fields but the world, seq and request id, one JSON
    array) is stored as TEXT, byte for byte what orjson gives; a record orjson refuses (an
    integer past 64 bits) takes the standard encoder, the group's other items written all
    the same (orjson's)."""
    import orjson

    from bridge.serialize import dumps
    from bridge.store import RECORD_FIELDS

    store = SQLiteStore(tmp_path / "s.sqlite3")
    for world in ("a", "b"):
        store.create_world(world, world, "o3d10", f"g-{world}", f"p-{world}", STATE, "now")
    plain = event(1, "plain")
    big = NewEvent(
        1, "big", "roll", "ana", "gm", {"n": 2**64, "t": "ñá"}, "h", [], [], {"u": 1}, "now"
    )
    assert store.append_many([("a", plain, STATE), ("b", big, STATE)]) == [None, None]
    rows = store._db.execute(
        "SELECT heads.world_id, events.seq, request_id, typeof(record), record FROM events"
        " JOIN heads ON key = world ORDER BY request_id"
    ).fetchall()

    def record(e: NewEvent) -> list[object]:
        return [getattr(e, field) for field in RECORD_FIELDS]

    assert rows == [
        ("b", 1, "big", "text", dumps(record(big))),
        ("a", 1, "plain", "text", orjson.dumps(record(plain)).decode()),
    ]
    again = store.find_request("b", "big")
    assert again is not None and again.payload == big.payload and again.undo == {"u": 1}
    store.close()


def test_a_group_past_one_statement_s_rows_is_written_whole(tmp_path: Path) -> None:
    """A group's events are bound many rows to a statement, in chunks: 150 events are
    more than one chunk (one transaction for all of them); a world not at the seq before
    its event is still found in the second chunk (its event's trigger aborts it; the group
    is then written item by item)."""
    worlds = [f"w{i:02d}" for i in range(70)]
    store = SQLiteStore(tmp_path / "s.sqlite3")
    try:
        for world in worlds:
            store.create_world(
                world, world, "o3d10", f"g-{world}", f"p-{world}", {**STATE, "id": world}, "now"
            )
        items = [(w, event(seq, f"{w}-{seq}"), STATE) for seq in (1, 2) for w in worlds]
        items += [(w, event(3, f"{w}-3"), STATE) for w in worlds[:10]]
        assert store.append_many(items) == [None] * 150
        assert [store.load_world(w).seq for w in worlds] == [3] * 10 + [2] * 60  # type: ignore[union-attr]
        assert [e.request_id for e in store.events_after("w05", 0)] == ["w05-1", "w05-2", "w05-3"]
        # w69 is at 2: its event 4 does not follow; it fails alone, the others are written.
        late = [(w, event(4 if w == "w69" else 3, f"{w}-x"), STATE) for w in worlds[10:]]
        errors = store.append_many(late)
        assert all(e is None for e in errors[:-1]) and isinstance(errors[-1], SeqConflict)
        assert [store.load_world(w).seq for w in ("w10", "w68", "w69")] == [3, 3, 2]  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_request_id_in_the_log_is_refused_whoever_wrote_it(tmp_path: Path) -> None:
    """Schema 5 has no index of request ids: the writer checks each new id against the
    hashes of its world's ids, read once from the log and kept up to date. Another store
    on the same file (another process) writing meanwhile, a transaction rolled back, a
    store opened afresh: a request id already in the log is refused all the same, and
    one that is not is written."""
    path = tmp_path / "s.sqlite3"
    first = SQLiteStore(path)
    first.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    first.append("w", event(1, "a"), STATE)
    second = SQLiteStore(path)
    second.append("w", event(2, "b"), STATE)  # the first store did not see it written
    with pytest.raises(SeqConflict):
        first.append("w", event(2, "c"), STATE)
    with pytest.raises(StoreError, match="already in the log"):
        first.append("w", event(3, "b"), STATE)  # read again: the world moved elsewhere
    # A group whose second item repeats its first's id: the first written alone.
    errors = first.append_many([("w", event(3, "c"), STATE), ("w", event(4, "c"), STATE)])
    assert errors[0] is None and isinstance(errors[1], SeqConflict | StoreError)
    assert first.append_many([("w", event(4, "d"), STATE)]) == [None]
    # An id whose transaction failed was never written: it is taken when it comes again.
    failed = first.append_many([("w", event(5, "e"), STATE), ("w", event(9, "f"), STATE)])
    assert failed[0] is None and isinstance(failed[1], SeqConflict)
    assert first.append_many([("w", event(6, "f"), STATE)]) == [None]
    with pytest.raises(StoreError, match="already in the log"):
        second.append("w", event(7, "a"), STATE)
    first.close()
    second.close()
    again = SQLiteStore(path)
    for request in "abcdef":
        with pytest.raises(StoreError, match="already in the log"):
            again.append("w", event(7, request), STATE)
    assert [e.request_id for e in again.events_after("w", 0)] == list("abcdef")
    assert sorted(again.request_ids("w")) == list("abcdef")
    again.append("w", event(7, "g"), STATE)
    again.close()


def test_a_hash_shared_by_two_request_ids_reads_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two request ids with one ``hash()`` (a collision, made here by hand): the second is
    looked up in the log and written, since it is not there."""
    store = SQLiteStore(tmp_path / "s.sqlite3")
    store.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    store.append("w", event(1, "a"), STATE)
    key = store._keys["w"]
    store._ids[key].add(hash("b"))  # as if "a" and "b" hashed alike
    store.append("w", event(2, "b"), STATE)
    with pytest.raises(StoreError, match="already in the log"):
        store.append("w", event(3, "b"), STATE)
    assert [e.request_id for e in store.events_after("w", 0)] == ["a", "b"]
    store.close()


def test_a_group_is_one_statement_unless_it_changes_a_state_or_a_follow_up(
    tmp_path: Path,
) -> None:
    """Schema 6: each event moves its world's head (a trigger), so a group that leaves
    every state as it was and marks no follow-up is one INSERT in its own transaction;
    one that changes a state, or marks a follow-up, is written in a transaction with its
    other statements. Either way, an event that does not follow its world's head aborts
    the write, and the group is written item by item: the others land."""
    path = tmp_path / "s.sqlite3"
    store = SQLiteStore(path)
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    for world in ("a", "b"):
        store.create_world(world, world, "o3d10", f"g{world}", f"p{world}", STATE, "now")
    one = '{"n":1}'
    first = store.append_many([("a", event(1, "a1"), one), ("b", event(1, "b1"), one)])
    assert first == [None, None]
    statements.clear()
    same = store.append_many([("a", event(2, "a2"), one), ("b", event(2, "b2"), one)])
    assert same == [None, None]
    # (the trace names the INSERT again for each run of its trigger)
    assert {s.split()[0] for s in statements} == {"INSERT"}  # the states as they were
    statements.clear()
    marked = replace(event(3, "a3"), used_follow_ups=(("1.0", "soak"),))
    changed = store.append_many([("a", marked, one), ("b", event(3, "b3"), '{"n":2}')])
    assert changed == [None, None]
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"
    statements.clear()
    errors = store.append_many([("a", event(4, "a4"), one), ("b", event(9, "b9"), one)])
    assert errors[0] is None and isinstance(errors[1], SeqConflict)
    assert "ROLLBACK" in statements  # the group aborted whole, then written one by one
    store.close()
    raw = sqlite3.connect(path)
    assert dict(raw.execute("SELECT world_id, seq FROM heads").fetchall()) == {"a": 4, "b": 3}
    assert raw.execute("SELECT count(*) FROM events").fetchone() == (7,)
    with pytest.raises(sqlite3.IntegrityError, match="seq conflict"):
        raw.execute("INSERT INTO events VALUES (1, 9, 'x', '[]')")  # not after a's head
    raw.close()


def test_a_write_lock_held_elsewhere_fails_the_group_after_one_wait(tmp_path: Path) -> None:
    """Another connection holding the write lock past the busy timeout fails every item of
    the group at once, for a group of rolls (one INSERT) and for one that changes a state
    (its own transaction) alike: the items are not tried again one by one, each waiting
    out the timeout in turn. Nothing is written; once the lock is gone the group goes in."""
    path = tmp_path / "s.sqlite3"
    store = SQLiteStore(path)
    store.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    store.append("w", event(1), '{"n":1}')
    store._db.execute("PRAGMA busy_timeout=50")
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        for state in ('{"n":1}', '{"n":2}'):  # the state as it was, then a new one
            statements.clear()
            errors = store.append_many([("w", event(2), state), ("w", event(3), state)])
            assert all(isinstance(e, StoreError) for e in errors), errors
            tried = [s.split()[0] for s in statements]
            assert tried == (["INSERT"] if state == '{"n":1}' else ["BEGIN"]), tried
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.load_world("w").seq == 1  # type: ignore[union-attr]
    assert store.append_many([("w", event(2), '{"n":2}'), ("w", event(3), '{"n":2}')]) == [
        None,
        None,
    ]
    store.close()
