"""The SQLite store's schema upgrades in place: a database made by an earlier schema's
code opens, keeps every world, head, state and event, reads them back the same, and goes
on appending."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import orjson
import pytest

from bridge.store import (
    RECORD_FIELDS,
    SCHEMA_VERSION,
    EventRow,
    NewEvent,
    SeqConflict,
    SQLiteStore,
    StoreError,
)

SCHEMA_2 = Path(__file__).parent / "fixtures" / "store_schema2.sqlite3"
"""Made by the store of commit 96e6994 (schema 2, before ``heads``): worlds ``mesa`` (three
events, the third leaving the state as it was, so written as its seq alone; a follow-up
mark) and ``otra`` (one event)."""


def event(seq: int, request: str) -> NewEvent:
    return NewEvent(
        seq, request, "roll", "ana", "player", {"n": seq}, "h", [[10, 1]], [], None, "now"
    )


def copied(fixture: Path, folder: Path) -> Path:
    """A copy of a fixture database to upgrade."""
    path = folder / "bridge.sqlite3"
    shutil.copyfile(fixture, path)
    return path


def assert_reads(store: SQLiteStore, before: dict[str, list[EventRow]]) -> None:
    """Every event of ``before`` reads back the same from the upgraded ``store``, by seq,
    by request id and in the world's listing of request ids."""
    for world_id, rows in before.items():
        assert store.events_after(world_id, 0) == rows
        assert sorted(store.request_ids(world_id)) == sorted(e.request_id for e in rows)
        for row in rows:
            assert store.event_at(world_id, row.seq) == row
            assert store.find_request(world_id, row.request_id) == row
            assert store.find_request_now(world_id, row.request_id) == row
    assert store.find_request("otra", "r-1") is None  # another world's request id
    assert store.used_follow_ups("mesa", ["1.0", "2.0"]) == {("1.0", "soak")}


def assert_current_layout(db: sqlite3.Connection) -> None:
    """An upgraded file is at the current schema, with the event log's foreign key and
    nothing broken or left behind."""
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert [(r[2], r[3], r[4]) for r in db.execute("PRAGMA foreign_key_list(events)")] == [
        ("heads", "world", "key")
    ]
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"worlds", "heads", "events", "used_follow_ups"}


@pytest.fixture
def old_copy(tmp_path: Path) -> Path:
    return copied(SCHEMA_2, tmp_path)


def test_the_fixture_is_a_schema_2_database(old_copy: Path) -> None:
    db = sqlite3.connect(old_copy)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "heads" not in tables and "worlds" in tables
    db.close()


def test_a_schema_2_database_upgrades_in_place_and_keeps_everything(old_copy: Path) -> None:
    raw = sqlite3.connect(old_copy)
    worlds_before = raw.execute("SELECT id, seq, state FROM worlds ORDER BY id").fetchall()
    raw.close()
    events_before = rows_as_read(old_copy)
    assert [(w, seq) for w, seq, _ in worlds_before] == [("mesa", 3), ("otra", 1)]

    store = SQLiteStore(old_copy)
    rows = {row.id: row for row in store.list_worlds()}
    for world_id, seq, state in worlds_before:
        loaded = store.load_world(world_id)
        assert loaded is not None and loaded == rows[world_id]
        assert loaded.seq == seq and loaded.state == sqlite3_json(state)
    assert [e.request_id for e in store.events_after("mesa", 0)] == ["r-1", "r-2", "r-3"]
    assert store.used_follow_ups("mesa", ["1.0"]) == {("1.0", "soak")}
    assert store.find_token("g-otra") == ("otra", "gm")
    assert store.initial_state("mesa") is not None

    with pytest.raises(SeqConflict):
        store.append("mesa", event(3, "again-3"), '{"n":9}')
    store.append("mesa", event(4, "r-4"), '{"n":4}')
    errors = store.append_many([("otra", event(2, "o-2"), "{}"), ("otra", event(3, "o-3"), "{}")])
    assert errors == [None, None]
    store.close()

    db = sqlite3.connect(old_copy)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT world_id, seq FROM heads ORDER BY world_id").fetchall() == [
        ("mesa", 4),
        ("otra", 3),
    ]
    db.close()

    again = SQLiteStore(old_copy)  # and it opens again as it is now
    mesa = again.load_world("mesa")
    assert mesa is not None and (mesa.seq, mesa.state) == (4, {"n": 4})
    for world_id, rows in events_before.items():
        assert again.events_after(world_id, 0)[: len(rows)] == rows
    again.close()


def sqlite3_json(text: str) -> object:
    import json

    return json.loads(text)


SCHEMA_3 = Path(__file__).parent / "fixtures" / "store_schema3.sqlite3"
"""Made by the store of commit aa16c2b (schema 3: ``heads`` by world id, ``events`` by
world id with its twelve columns): worlds ``mesa`` (four events: a card with text beyond
ASCII, an undo and two follow-up marks, an integer past 64 bits (the standard encoder's
text) leaving the state as it was, a group of two releasing a mark) and ``otra`` (one
event). Made by ``fixtures/make_store_schema3.py`` run in a checkout of that commit."""


def rows_as_read(path: Path) -> dict[str, list[EventRow]]:
    """Every event of a schema 2 or 3 database, as that schema's store read it (each JSON
    column parsed), by world."""
    raw = sqlite3.connect(path)
    events: dict[str, list[EventRow]] = {}
    for r in raw.execute("SELECT * FROM events ORDER BY world_id, seq"):
        events.setdefault(r[0], []).append(
            EventRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                json.loads(r[6]),
                r[7],
                json.loads(r[8]),
                json.loads(r[9]),
                None if r[10] is None else json.loads(r[10]),
                r[11],
            )
        )
    raw.close()
    return events


@pytest.fixture
def old_copy_3(tmp_path: Path) -> Path:
    return copied(SCHEMA_3, tmp_path)


def test_the_fixture_is_a_schema_3_database(old_copy_3: Path) -> None:
    db = sqlite3.connect(old_copy_3)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    columns = [r[1] for r in db.execute("PRAGMA table_info(events)")]
    assert columns[:3] == ["world_id", "seq", "request_id"] and "pushes" in columns
    db.close()


def test_a_schema_3_database_upgrades_in_place_and_reads_the_same(old_copy_3: Path) -> None:
    before = rows_as_read(old_copy_3)
    assert {w: [e.seq for e in rows] for w, rows in before.items()} == {
        "mesa": [1, 2, 3, 4],
        "otra": [1],
    }
    assert before["mesa"][2].payload["n"] == 2**64  # the standard encoder's text

    store = SQLiteStore(old_copy_3)
    assert Path(f"{old_copy_3}-wal").stat().st_size == 0  # the upgrade copied back, WAL cut
    assert_reads(store, before)
    for world_id, rows in before.items():
        assert store.events_after(world_id, 1, limit=2) == rows[1:3]
    assert store.find_token("p-mesa") == ("mesa", "player")
    assert [(w.id, w.seq) for w in store.list_worlds()] == [("mesa", 4), ("otra", 1)]
    mesa = store.load_world("mesa")
    assert mesa is not None and mesa.state == {"n": 4}
    assert store.initial_state("otra") is not None

    # Appends go on from each head; a request id already in the log is refused.
    with pytest.raises(SeqConflict):
        store.append("mesa", event(4, "again-4"), '{"n":9}')
    with pytest.raises(StoreError):
        store.append("mesa", event(5, "r-2"), '{"n":9}')
    store.append("mesa", event(5, "r-5"), '{"n":5}')
    errors = store.append_many([("otra", event(2, "o-2"), "{}"), ("mesa", event(6, "r-6"), "{}")])
    assert errors == [None, None]
    store.close()

    again = SQLiteStore(old_copy_3)  # and it opens again as it is now, the ids still refused
    with pytest.raises(StoreError):
        again.append("otra", event(3, "o-1"), "{}")
    assert again.events_after("mesa", 0)[:4] == before["mesa"]
    assert [e.request_id for e in again.events_after("mesa", 4)] == ["r-5", "r-6"]
    assert [e.request_id for e in again.events_after("otra", 0)] == ["o-1", "o-2"]
    again.close()

    db = sqlite3.connect(old_copy_3)
    assert_current_layout(db)
    assert [r[1] for r in db.execute("PRAGMA table_info(events)")] == [
        "world",
        "seq",
        "request_id",
        "record",
    ]
    # A record orjson wrote reads back as the text the new writer writes for it.
    first = before["mesa"][0]
    (text,) = db.execute(
        "SELECT record FROM events JOIN heads ON key = world WHERE world_id = 'mesa' AND"
        " events.seq = 1"
    ).fetchone()
    assert text == orjson.dumps([getattr(first, field) for field in RECORD_FIELDS]).decode()
    db.close()


def test_an_upgrade_that_would_leave_an_event_behind_changes_nothing(old_copy_3: Path) -> None:
    """An event whose world has no head (only a database written without the foreign key
    checks could hold one) is not dropped by the upgrade: it fails, schema 3 kept whole."""
    raw = sqlite3.connect(old_copy_3)
    raw.execute(
        "INSERT INTO events SELECT 'ghost', seq, request_id, event, user, role, payload,"
        " payload_hash, draws, pushes, undo, created_at FROM events WHERE world_id = 'otra'"
    )
    raw.commit()
    raw.close()
    before = rows_as_read(old_copy_3)
    with pytest.raises(StoreError, match="1 events of worlds without a head"):
        SQLiteStore(old_copy_3)
    db = sqlite3.connect(old_copy_3)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"worlds", "heads", "events", "used_follow_ups"}
    db.close()
    assert rows_as_read(old_copy_3) == before


SCHEMA_4 = Path(__file__).parent / "fixtures" / "store_schema4.sqlite3"
"""Made by the store of commit 4caa98e (schema 4: ``events (world, seq, request_id,
record)`` with the two automatic indexes ``(world, seq)`` and ``(world, request_id)``): the
worlds and events of the schema 3 fixture, then one more event of ``otra``. Made by
``fixtures/make_store_schema4.py`` run in a checkout of that commit."""


@pytest.fixture
def old_copy_4(tmp_path: Path) -> Path:
    return copied(SCHEMA_4, tmp_path)


def test_the_fixture_is_a_schema_4_database(old_copy_4: Path) -> None:
    db = sqlite3.connect(old_copy_4)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 4
    indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"sqlite_autoindex_events_1", "sqlite_autoindex_events_2"} <= indexes
    db.close()


def test_a_schema_4_database_upgrades_in_place_and_reads_the_same(old_copy_4: Path) -> None:
    raw = sqlite3.connect(old_copy_4)
    before = {  # the rows as schema 4 reads them (its columns are schema 5's)
        world: [
            SQLiteStore._event(world, *r)
            for r in raw.execute(
                "SELECT e.seq, e.request_id, e.record FROM events AS e JOIN heads ON key = world"
                " WHERE world_id = ? ORDER BY e.seq",
                (world,),
            )
        ]
        for world in ("mesa", "otra")
    }
    order = raw.execute("SELECT world, seq FROM events ORDER BY rowid").fetchall()
    raw.close()
    assert {w: [e.request_id for e in rows] for w, rows in before.items()} == {
        "mesa": ["r-1", "r-2", "r-3", "r-4"],
        "otra": ["o-1", "o-2"],
    }

    store = SQLiteStore(old_copy_4)
    assert Path(f"{old_copy_4}-wal").stat().st_size == 0  # the upgrade copied back, WAL cut
    assert_reads(store, before)
    with pytest.raises(StoreError, match="already in the log"):
        store.append("otra", event(3, "o-1"), "{}")
    store.append("otra", event(3, "r-1"), "{}")  # another world's id: free here
    store.close()

    db = sqlite3.connect(old_copy_4)
    assert_current_layout(db)
    assert db.execute("SELECT world, seq FROM events ORDER BY rowid").fetchall()[:6] == order
    indexes = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'"
    ).fetchall()
    assert indexes == [("events_log",)]
    db.close()
