"""What only the PostgreSQL store has: versioned migrations, heads, whole-world copies."""

from __future__ import annotations

import threading

import psycopg
import pytest

from bridge.store import NewEvent, SeqConflict, StoreError
from bridge.store_pg import SCHEMA_VERSION, PgStore

STATE = {"id": "w", "name": "w", "system": "o3d10", "settings": {}, "actors": {}, "data": {}}


def event(seq: int, request: str) -> NewEvent:
    return NewEvent(seq, request, "roll", "dm", "gm", {}, "h", [], [], None, "now")


def test_migrations_apply_once_and_a_newer_schema_is_refused(pg_url: str) -> None:
    stores: list[PgStore] = []
    threads = [threading.Thread(target=lambda: stores.append(PgStore(pg_url))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(stores) == 4 and all(s.schema_version() == SCHEMA_VERSION for s in stores)
    for store in stores:
        store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT version FROM bridge_schema ORDER BY version").fetchall()
        assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
        conn.execute("INSERT INTO bridge_schema (version, name) VALUES (99, 'future')")
    with pytest.raises(StoreError, match="schema version 99"):
        PgStore(pg_url)


def test_two_connections_racing_for_one_seq_write_one_event(pg_url: str) -> None:
    a, b = PgStore(pg_url), PgStore(pg_url)
    a.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    a.append("w", event(1, "r1"), STATE)
    with pytest.raises(SeqConflict):  # same seq, another request
        b.append("w", event(1, "r2"), STATE)
    with pytest.raises(SeqConflict):  # next seq, a request already written
        b.append("w", event(2, "r1"), STATE)
    assert a.heads(["w", "nope"]) == {"w": 1}
    exported = a.export_world("w")
    assert exported is not None and [e.request_id for e in exported.events] == ["r1"]
    a.close()
    b.close()


def test_an_unreachable_database_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot reach PostgreSQL"):
        PgStore("postgresql://nobody@127.0.0.1:1/none")
