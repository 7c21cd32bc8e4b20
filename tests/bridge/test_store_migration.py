"""The SQLite store's schema upgrades in place: a database made by the previous schema's
code opens, keeps every world, head, state and event, and goes on appending."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bridge.store import SCHEMA_VERSION, NewEvent, SeqConflict, SQLiteStore

SCHEMA_2 = Path(__file__).parent / "fixtures" / "store_schema2.sqlite3"
"""Made by the store of commit 96e6994 (schema 2, before ``heads``): worlds ``mesa`` (three
events, the third leaving the state as it was, so written as its seq alone; a follow-up
mark) and ``otra`` (one event)."""


def event(seq: int, request: str) -> NewEvent:
    return NewEvent(
        seq, request, "roll", "ana", "player", {"n": seq}, "h", [[10, 1]], [], None, "now"
    )


@pytest.fixture
def old_copy(tmp_path: Path) -> Path:
    path = tmp_path / "bridge.sqlite3"
    shutil.copyfile(SCHEMA_2, path)
    return path


def test_the_fixture_is_a_schema_2_database(old_copy: Path) -> None:
    db = sqlite3.connect(old_copy)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "heads" not in tables and "worlds" in tables
    db.close()


def test_a_schema_2_database_upgrades_in_place_and_keeps_everything(old_copy: Path) -> None:
    raw = sqlite3.connect(old_copy)
    worlds_before = raw.execute("SELECT id, seq, state FROM worlds ORDER BY id").fetchall()
    events_before = raw.execute("SELECT * FROM events ORDER BY world_id, seq").fetchall()
    raw.close()
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
    events_after = db.execute("SELECT * FROM events ORDER BY world_id, seq").fetchall()
    assert [e for e in events_after if e[2] not in ("r-4", "o-2", "o-3")] == events_before
    db.close()

    again = SQLiteStore(old_copy)  # and it opens again as it is now
    mesa = again.load_world("mesa")
    assert mesa is not None and (mesa.seq, mesa.state) == (4, {"n": 4})
    again.close()


def sqlite3_json(text: str) -> object:
    import json

    return json.loads(text)
