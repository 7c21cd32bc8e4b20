"""The embedded durable store: SQLite in WAL mode under ``--data``.

One database file holds the worlds (with their token hashes, current ``seq``
and state snapshot) and every world's event log. An event and the state it
produced are written in one transaction before the request is acknowledged;
``(world, request id)`` is unique, so a retried request can never make a
second event. All calls are synchronous; :class:`AsyncStore` runs them on one
dedicated thread so the event loop never waits on the disk.

Layout (schema 6): a world's head (``heads``) carries the world's small integer key, which
the event log is keyed by: ``events (world, seq, request_id, record)``, ``record`` the rest
of the event as one JSON array (:data:`RECORD_FIELDS`), with one index, ``(world, seq,
request_id)``: a world's events in order, and its request ids read from the index alone.
Each event moves its world's head itself, only from the seq it follows (the trigger
``events_head``), so a group of rolls is one ``INSERT``.
A request id is checked unique in its world by the writer (:meth:`SQLiteStore._fresh`),
not by an index of its own: request ids are random, and such an index wrote a page of
its own for nearly every event (docs/performance.md, "Thirteenth pass"). Docs:
docs/performance-store.md, "Tenth pass".
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import queue
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

if TYPE_CHECKING:
    from bridge.store_api import Store

from bridge.auth import same_hash
from bridge.serialize import NewEvent as NewEvent  # the engine builds it natively
from bridge.serialize import dumps

T = TypeVar("T")

SCHEMA_VERSION = 6
RECORD_FIELDS = (
    "event",
    "user",
    "role",
    "payload",
    "payload_hash",
    "draws",
    "pushes",
    "undo",
    "created_at",
)
"""An event's ``record`` column: the JSON array of these fields, in this order (schema 4)."""

_SCHEMA_4 = """
    CREATE TABLE heads4 (
        key INTEGER PRIMARY KEY,
        world_id TEXT NOT NULL UNIQUE REFERENCES worlds(id),
        seq INTEGER NOT NULL
    );
    INSERT INTO heads4 (world_id, seq) SELECT world_id, seq FROM heads ORDER BY world_id;
    CREATE TABLE events4 (
        world INTEGER NOT NULL REFERENCES heads4(key),
        seq INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (world, seq),
        UNIQUE (world, request_id)
    )
"""
_SCHEMA_4_SWAP = """
    DROP TABLE events;
    DROP TABLE heads;
    ALTER TABLE heads4 RENAME TO heads;
    ALTER TABLE events4 RENAME TO events
"""


def _migrate_to_4(db: sqlite3.Connection) -> None:
    """Schema 3 to 4, in the migration's transaction: ``heads`` rebuilt with an integer key
    a world, and every event copied (in the order it was written) into the new ``events``,
    its record made of its old columns' texts as they are (the JSON columns verbatim, the
    text columns quoted), so it reads back the same values."""
    for statement in _SCHEMA_4.split(";"):
        db.execute(statement)
    rows = db.execute(
        "SELECT h.key, e.seq, e.request_id, e.event, e.user, e.role, e.payload, e.payload_hash,"
        " e.draws, e.pushes, e.undo, e.created_at FROM events AS e"
        " JOIN heads4 AS h ON h.world_id = e.world_id ORDER BY e.rowid"
    )
    insert = "INSERT INTO events4 (world, seq, request_id, record) VALUES (?, ?, ?, ?)"
    while batch := rows.fetchmany(1000):
        db.executemany(insert, [(*r[:3], _record_of_columns(*r[3:])) for r in batch])
    (copied,) = db.execute("SELECT count(*) FROM events4").fetchone()
    (held,) = db.execute("SELECT count(*) FROM events").fetchone()
    if copied != held:  # an event whose world has no head: kept where it is, not lost
        raise StoreError(f"schema 4: {held - copied} events of worlds without a head")
    for statement in _SCHEMA_4_SWAP.split(";"):
        db.execute(statement)


def _record_of_columns(
    event: str,
    user: str,
    role: str,
    payload: str,
    payload_hash: str,
    draws: str,
    pushes: str,
    undo: str | None,
    created_at: str,
) -> str:
    """A schema 3 event's columns as its schema 4 record (:data:`RECORD_FIELDS`): the JSON
    columns' texts as they are, the text columns encoded."""
    return (
        f"[{_dumps(event)},{_dumps(user)},{_dumps(role)},{payload},{_dumps(payload_hash)},"
        f"{draws},{pushes},{'null' if undo is None else undo},{_dumps(created_at)}]"
    )


_SCHEMA_5 = """
    CREATE TABLE events5 (
        world INTEGER NOT NULL REFERENCES heads(key),
        seq INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        record TEXT NOT NULL
    );
    INSERT INTO events5 (world, seq, request_id, record)
        SELECT world, seq, request_id, record FROM events ORDER BY rowid;
    DROP TABLE events;
    ALTER TABLE events5 RENAME TO events;
    CREATE UNIQUE INDEX events_log ON events (world, seq, request_id)
"""
"""Schema 4 to 5: the event log rebuilt without its two automatic indexes (``(world,
seq)`` and ``(world, request_id)``), with the one index ``(world, seq, request_id)``: every
event copied in the order it was written."""


_HEAD_TRIGGER = """
    CREATE TRIGGER events_head AFTER INSERT ON events
    BEGIN
        UPDATE heads SET seq = NEW.seq WHERE key = NEW.world AND seq = NEW.seq - 1;
        SELECT RAISE(ABORT, 'seq conflict') WHERE changes() = 0;
    END
"""
"""Schema 6: an event moves its world's head, only from the seq it follows; any other
event aborts its statement ("seq conflict"). A group's write is then one ``INSERT``."""


def _add_head_trigger(db: sqlite3.Connection) -> None:
    db.execute(_HEAD_TRIGGER)  # (one statement: the string migrations split on ';')


_MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    """
    CREATE TABLE worlds (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        system TEXT NOT NULL,
        gm_token_hash TEXT NOT NULL UNIQUE,
        player_token_hash TEXT NOT NULL UNIQUE,
        seq INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE events (
        world_id TEXT NOT NULL REFERENCES worlds(id),
        seq INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        event TEXT NOT NULL,
        user TEXT NOT NULL,
        role TEXT NOT NULL,
        payload TEXT NOT NULL,
        payload_hash TEXT NOT NULL,
        draws TEXT NOT NULL,
        pushes TEXT NOT NULL,
        undo TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (world_id, seq),
        UNIQUE (world_id, request_id)
    );
    CREATE TABLE used_follow_ups (
        world_id TEXT NOT NULL,
        card_id TEXT NOT NULL,
        action TEXT NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (world_id, card_id, action)
    );
    """,
    # 2: the world as it was created, so its log can be replayed from the start.
    """
    ALTER TABLE worlds ADD COLUMN initial_state TEXT
    """,
    # 3: a world's head (its last event's seq) in a narrow table of its own, so an event
    # rewrites a row of two columns, not the world's row with its state and initial state;
    # ``worlds.seq`` becomes the seq whose state ``worlds.state`` holds.
    """
    CREATE TABLE heads (
        world_id TEXT PRIMARY KEY REFERENCES worlds(id),
        seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO heads (world_id, seq) SELECT id, seq FROM worlds
    """,
    # 4: the event log keyed by the world's small integer key (``heads.key``) instead of its
    # id text, the event's other columns one JSON record: an event is two index entries of a
    # few bytes each and a row of four values (see :func:`_migrate_to_4`).
    _migrate_to_4,
    # 5: one index on the event log, (world, seq, request_id), instead of two: a request id
    # is checked unique by the writer (``SQLiteStore._fresh``), since an index of random
    # request ids wrote a page of its own for nearly every event.
    _SCHEMA_5,
    # 6: an event moves its world's head itself (a trigger), so a group of events whose
    # worlds' states stay as they were is written by one INSERT in its own transaction:
    # one statement, one release of the GIL by the writer thread for the write and the
    # sync together (docs/performance.md, "Thirteenth pass").
    _add_head_trigger,
)


class StoreError(Exception):
    """The store could not do what was asked; nothing was written."""


class SeqConflict(StoreError):
    """The world's ``seq`` moved under us (another writer): nothing was written."""


@dataclass(frozen=True)
class WorldRow:
    id: str
    name: str
    system: str
    seq: int
    state: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class EventRow:
    world_id: str
    seq: int
    request_id: str
    event: str
    user: str
    role: str
    payload: dict[str, Any]
    payload_hash: str
    draws: list[list[int]]
    pushes: list[dict[str, Any]]
    undo: dict[str, Any] | None
    created_at: str


def _loads(text: str) -> Any:
    """An event's JSON column read back: orjson (several times faster on a card's pushes
    and undo), and the standard parser for what orjson refuses (an integer past 64 bits, a
    lone surrogate escaped by the standard encoder), which reads it as it was written."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _dumps(value: Any) -> str:
    """A JSON text as the store writes it (a world's state): orjson, about 10x faster than
    the standard encoder and the same JSON value read back; what orjson refuses (an integer
    past 64 bits, text that is not valid UTF-8, a key that is not text) goes through the
    standard encoder as before (which refuses what it must, with the item's StoreError)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return dumps(value)


def _orjson_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def _state_text(state: dict[str, Any] | str) -> str:
    """A world state as written: a JSON text already encoded is taken as it is."""
    return state if isinstance(state, str) else dumps(state)


_WORLD_COLUMNS = "id, name, system, heads.seq, state, created_at"
"""A world's row as read: its head's seq (``heads``), the rest from ``worlds``."""


class SQLiteStore:
    def __init__(self, path: Path | str, *, synchronous: str = "FULL") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # Room in the statement cache for the group writes' statements of each row count
        # (up to 64 of each kind: _execute_rows) beside the others.
        self._db = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, cached_statements=512
        )
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        if synchronous.upper() not in ("FULL", "NORMAL", "OFF", "EXTRA"):
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._migrate()
        # A second connection for the idempotency lookup on the event loop's thread: in WAL
        # mode it reads committed data without waiting behind the writer's sync to disk.
        self._reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._reader.execute("PRAGMA busy_timeout=5000")
        self._reader_lock = threading.Lock()
        # The state text this connection last committed for each world, and at which seq:
        # an event that leaves the world as it was (most rolls) writes only its seq.
        self._written: dict[str, tuple[str, int]] = {}
        # Each world's integer key (``heads.key``, never changed once made), as the writer
        # found it: its events' rows and its head's update are keyed by it.
        self._keys: dict[str, int] = {}
        # ``hash()`` of every request id in a world's log (by its key), for the worlds the
        # writer wrote to: read from the index on the world's first write here, then kept
        # up to date by each commit. A new request's id is not in it, and is written
        # without a read; one that is (a duplicate, or a collision) is looked up.
        self._ids: dict[int, set[int]] = {}
        self._ids_at: dict[int, int] = {}
        """The seq of each world's last event whose id :attr:`_ids` holds."""

    def _migrate(self) -> None:
        with self._lock:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has schema version {version}; this bridge knows {SCHEMA_VERSION}"
                )
            for number in range(version, SCHEMA_VERSION):
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    migration = _MIGRATIONS[number]
                    if callable(migration):
                        migration(self._db)
                    else:
                        for statement in migration.split(";"):
                            if statement.strip():
                                self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={number + 1}")
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            if 0 < version < SCHEMA_VERSION:
                # An upgrade rewrites much of the file (schema 4: every event) through the
                # WAL: copied back now and the WAL file cut, not kept at that size.
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._reader_lock:
            self._reader.close()

    def find_request_now(self, world_id: str, request_id: str) -> EventRow | None:
        """``find_request`` through the reader connection, safe to call from any thread."""
        if self.path == ":memory:":
            return self.find_request(world_id, request_id)
        with self._reader_lock:
            r = self._reader.execute(_FIND_REQUEST, (world_id, request_id)).fetchone()
        return None if r is None else self._event(world_id, *r)

    # -- worlds ---------------------------------------------------------------
    def create_world(
        self,
        world_id: str,
        name: str,
        system: str,
        gm_token_hash: str,
        player_token_hash: str,
        state: dict[str, Any],
        created_at: str,
    ) -> None:
        text = _dumps(state)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO worlds (id, name, system, gm_token_hash, player_token_hash, seq,"
                    " state, initial_state, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                    (
                        world_id,
                        name,
                        system,
                        gm_token_hash,
                        player_token_hash,
                        text,
                        text,
                        created_at,
                    ),
                )
                key = self._db.execute(
                    "INSERT INTO heads (world_id, seq) VALUES (?, 0)", (world_id,)
                ).lastrowid
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            if key is not None:
                self._keys[world_id] = key

    def list_worlds(self) -> list[WorldRow]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_WORLD_COLUMNS} FROM worlds JOIN heads ON world_id = id"
                " ORDER BY created_at, id"
            ).fetchall()
        return [WorldRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def load_world(self, world_id: str) -> WorldRow | None:
        with self._lock:
            r = self._db.execute(
                f"SELECT {_WORLD_COLUMNS} FROM worlds JOIN heads ON world_id = id WHERE id = ?",
                (world_id,),
            ).fetchone()
        return None if r is None else WorldRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5])

    def initial_state(self, world_id: str) -> dict[str, Any] | None:
        """The world as it was created (None for a world created before schema 2)."""
        with self._lock:
            r = self._db.execute(
                "SELECT initial_state FROM worlds WHERE id = ?", (world_id,)
            ).fetchone()
        return None if r is None or r[0] is None else json.loads(r[0])

    def find_token(self, token_hash: str) -> tuple[str, str] | None:
        """The world and role (``gm`` or ``player``) a token hash opens.

        The index finds the candidate row; the hashes are then compared in constant time
        (:func:`bridge.auth.same_hash`)."""
        with self._lock:
            r = self._db.execute(
                "SELECT id, gm_token_hash, player_token_hash FROM worlds"
                " WHERE gm_token_hash = ? OR player_token_hash = ?",
                (token_hash, token_hash),
            ).fetchone()
        if r is None:
            return None
        if same_hash(r[1], token_hash):
            return (r[0], "gm")
        if same_hash(r[2], token_hash):
            return (r[0], "player")
        return None

    # -- events -----------------------------------------------------------------
    @staticmethod
    def _event(world_id: str, seq: int, request_id: str, record: str) -> EventRow:
        """An event's row read back: its record's fields (:data:`RECORD_FIELDS`)."""
        event, user, role, payload, payload_hash, draws, pushes, undo, created_at = _loads(record)
        return EventRow(
            world_id,
            seq,
            request_id,
            event,
            user,
            role,
            payload,
            payload_hash,
            draws,
            pushes,
            undo,
            created_at,
        )

    def find_request(self, world_id: str, request_id: str) -> EventRow | None:
        with self._lock:
            r = self._db.execute(_FIND_REQUEST, (world_id, request_id)).fetchone()
        return None if r is None else self._event(world_id, *r)

    def request_ids(self, world_id: str) -> list[str]:
        """Every request id the world's log holds (the bridge's in-memory idempotency
        filter is filled from it when a world is loaded); the writer's own check of the
        world's ids (:meth:`_fresh`) is filled from the same read."""
        with self._lock:
            head = self._db.execute(
                "SELECT key, seq FROM heads WHERE world_id = ?", (world_id,)
            ).fetchone()
            if head is None:
                return []
            key, seq = head
            ids = self._read_ids(key)
            self._ids_at[key] = seq
        return ids

    def event_at(self, world_id: str, seq: int) -> EventRow | None:
        with self._lock:
            r = self._db.execute(
                f"SELECT seq, request_id, record FROM events WHERE world = {_WORLD_KEY}"
                " AND seq = ?",
                (world_id, seq),
            ).fetchone()
        return None if r is None else self._event(world_id, *r)

    def events_after(self, world_id: str, seq: int, limit: int = 10_000) -> list[EventRow]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT seq, request_id, record FROM events WHERE world = {_WORLD_KEY}"
                " AND seq > ? ORDER BY seq LIMIT ?",
                (world_id, seq, limit),
            ).fetchall()
        return [self._event(world_id, *r) for r in rows]

    def used_follow_ups(self, world_id: str, card_ids: Iterable[str]) -> set[tuple[str, str]]:
        ids = list(card_ids)
        if not ids:
            return set()
        used: set[tuple[str, str]] = set()
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT card_id, action FROM used_follow_ups WHERE world_id = ?"
                    f" AND card_id IN ({marks})",
                    (world_id, *chunk),
                ).fetchall()
                used.update((r[0], r[1]) for r in rows)
        return used

    def append(self, world_id: str, event: NewEvent, state: dict[str, Any] | str) -> None:
        """Write ``event`` and the world's new state in one transaction.

        ``state`` is the state's JSON value, or its JSON text already encoded
        (:func:`bridge.serialize.world_json_text`), written as it is.

        Raises :class:`SeqConflict` when the world is not at ``event.seq - 1`` and
        :class:`StoreError` when anything else fails; either way nothing is written.
        """
        (error,) = self.append_many([(world_id, event, state)])
        if error is not None:
            raise error

    def append_many(
        self, items: list[tuple[str, NewEvent, dict[str, Any] | str]]
    ) -> list[StoreError | None]:
        """Group commit: every item written, one transaction, one sync to disk.

        An item that fails is rolled back alone and gets its error; the others are written.
        If the commit itself fails, every item gets the error and nothing is written.

        The whole group is first written with one statement per table (``executemany``);
        only if any item fails there is the group rolled back to its start and written
        again item by item, each in its own savepoint, so the failure is the item's alone.
        """
        results: list[StoreError | None] = []
        with self._lock:
            written = self._written
            new_ids = _NewIds()  # the request ids written in the transaction so far
            try:
                try:
                    runs, committed = self._write_group(items, new_ids)
                except _Locked as exc:
                    return [StoreError(str(exc)) for _ in items]
                if runs is not None:
                    results = [None] * len(items)
                    if not committed:
                        self._db.execute("COMMIT")
                else:
                    # The group's transaction was rolled back whole: a new one, item by item.
                    new_ids.clear()
                    self._db.execute("BEGIN IMMEDIATE")
                    before: dict[str, tuple[str, int] | None] = {}
                    for world_id, event, state in items:
                        self._db.execute("SAVEPOINT item")
                        try:
                            self._write(world_id, event, state, before, new_ids)
                        except (StoreError, sqlite3.Error, ValueError) as exc:
                            self._db.execute("ROLLBACK TO item")
                            self._db.execute("RELEASE item")
                            results.append(
                                exc if isinstance(exc, StoreError) else StoreError(str(exc))
                            )
                            continue
                        self._db.execute("RELEASE item")
                        results.append(None)
                    self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error | ValueError):
                    return [StoreError(str(exc)) for _ in items]
                raise
            self._committed(new_ids)
            if len(written) > _WRITTEN_LIMIT:
                written.clear()
            if runs is not None:  # every item written: each world's last state, once
                for world_id, (_, seq, state, _) in runs.items():
                    if isinstance(state, str):
                        written[world_id] = (state, seq)
                    else:
                        written.pop(world_id, None)
            else:
                for (world_id, event, state), error in zip(items, results, strict=True):
                    if error is None:
                        if isinstance(state, str):
                            written[world_id] = (state, event.seq)
                        else:
                            written.pop(world_id, None)
        return results

    def _state_unchanged(
        self,
        world_id: str,
        seq: int,
        state: dict[str, Any] | str,
        pending: dict[str, tuple[str, int] | None],
    ) -> bool:
        """Whether the world's row already holds ``state`` for an event (or a run of
        events) that follows ``seq``: the same text was written for it at ``seq`` by this
        connection (committed, or earlier in this transaction: ``pending``). Then no other
        writer can have moved the row since, as the head's own seq check holds only then."""
        if not isinstance(state, str):
            return False
        before = pending[world_id] if world_id in pending else self._written.get(world_id)
        return before is not None and before[1] == seq and before[0] == state

    def _write_group(
        self,
        items: list[tuple[str, NewEvent, dict[str, Any] | str]],
        new_ids: _NewIds,
    ) -> tuple[dict[str, list[Any]] | None, bool]:
        """Write every item: the events with one statement (each moves its world's head:
        the ``events_head`` trigger), each world's state once (its last event's, and only
        if it is not the text the row already holds). A group that changes no state and
        marks no follow-up, of at most :data:`_ROWS_PER_STATEMENT` events (a roll's), is
        one ``INSERT`` in its own transaction, written and synced when it returns;
        another is written in a transaction begun here, which the caller commits.
        Returns each world's run (world -> [seq before its first event here, its last
        event's seq, its state]) and whether it is committed; (None, False) if any item
        would fail, nothing written, so the caller writes them one by one to tell which.
        ``new_ids`` gets each event's request id."""
        db = self._db
        try:
            # world -> [seq before its first event here, its last event's seq, its state,
            # its key]
            runs: dict[str, list[Any]] = {}
            rows, follow_ups = _group_rows(items, runs, self._keys, self._key)
            fresh = self._fresh
            for row in rows:
                if not fresh(row[0], row[1], row[2], new_ids):
                    raise StoreError(f"request {row[2]} is already in the log")
                new_ids.add(row[0], row[1], row[2])
            states = [
                (run[1], _state_text(run[2]), w)
                for w, run in runs.items()
                if not self._state_unchanged(w, run[0], run[2], _NOTHING_PENDING)
            ]
            if not states and not follow_ups and len(rows) <= _ROWS_PER_STATEMENT:
                _execute_rows(db, _insert_events_sql, rows)  # its own transaction
                return runs, True
            db.execute("BEGIN IMMEDIATE")
            _execute_rows(db, _insert_events_sql, rows)
            if states:
                db.executemany(_UPDATE_STATE, states)
            if follow_ups:
                for world_id, event, _ in items:
                    if event.used_follow_ups or event.released_follow_ups:
                        self._follow_ups(world_id, event)
        except (StoreError, sqlite3.Error, ValueError) as exc:
            if db.in_transaction:  # (SQLite may have rolled it back itself)
                db.execute("ROLLBACK")
            if _busy(exc):  # another connection holds the write lock: so would it for each
                raise _Locked(str(exc)) from exc
            return None, False
        return runs, False

    def _write(
        self,
        world_id: str,
        event: NewEvent,
        state: dict[str, Any] | str,
        before: dict[str, tuple[str, int] | None],
        new_ids: _NewIds,
    ) -> None:
        """One item in its savepoint; ``before`` is what each world's row holds so far in
        this transaction, ``new_ids`` the request ids written in it (both updated here once
        the item is written)."""
        key = self._keys.get(world_id)
        if key is None:
            key = self._key(world_id)
        head = self._db.execute(_HEAD_SEQ, (key,)).fetchone()
        if head is None or head[0] != event.seq - 1:
            raise SeqConflict(f"world {world_id} is not at seq {event.seq - 1}")
        if not self._fresh(key, event.seq, event.request_id, new_ids):
            raise StoreError(f"request {event.request_id} is already in the log")
        self._db.execute(_INSERT_EVENT, _event_values(key, event))
        if not self._state_unchanged(world_id, event.seq - 1, state, before):
            self._db.execute(_UPDATE_STATE, (event.seq, _state_text(state), world_id))
        self._follow_ups(world_id, event)
        before[world_id] = (state, event.seq) if isinstance(state, str) else None
        new_ids.add(key, event.seq, event.request_id)

    def _fresh(self, key: int, seq: int, request_id: str, txn: _NewIds) -> bool:
        """Whether the request id of the event at ``seq`` of the world keyed ``key`` is
        neither in the world's log nor written earlier in this transaction (``txn``).

        The log is read only when the id's hash is among the world's (:attr:`_ids`: a
        duplicate, or a collision). The world's hashes are read from the index on its first
        write here, and again whenever this store did not leave the world at ``seq - 1``
        (:attr:`_ids_at`, moved only by a commit: another writer moved the world, or a
        transaction failed), unless this transaction did (an earlier event of the world
        here, checked the same way)."""
        if (key, request_id) in txn.ids:
            return False
        ids = self._ids.get(key)
        if ids is None or (txn.at.get(key) != seq - 1 and self._ids_at.get(key) != seq - 1):
            self._read_ids(key)
            ids = self._ids[key]  # as of this transaction: its seq kept once it commits
        if hash(request_id) not in ids:
            return True
        found = self._db.execute(
            "SELECT 1 FROM events WHERE world = ? AND request_id = ?", (key, request_id)
        ).fetchone()
        return found is None

    def _read_ids(self, key: int) -> list[str]:
        """The request ids of the world keyed ``key``, read from the index; their hashes
        become the writer's (:attr:`_ids`), as of no known seq until the caller says."""
        ids = [r[0] for r in self._db.execute(_WORLD_REQUEST_IDS, (key,))]
        if len(self._ids) > _WRITTEN_LIMIT:
            self._ids.clear()
            self._ids_at.clear()
        self._ids[key] = {hash(i) for i in ids}
        self._ids_at.pop(key, None)
        return ids

    def _committed(self, txn: _NewIds) -> None:
        """The request ids of a transaction on disk: known to the writer's check."""
        for key, request_id in txn.ids:
            ids = self._ids.get(key)
            if ids is not None:
                ids.add(hash(request_id))
        for key, seq in txn.at.items():
            if key in self._ids:
                self._ids_at[key] = seq

    def _key(self, world_id: str) -> int:
        """The world's key (``heads.key``) read from the store (in the writer's transaction)
        and remembered; SeqConflict for a world the store does not hold (no head to move)."""
        r = self._db.execute("SELECT key FROM heads WHERE world_id = ?", (world_id,)).fetchone()
        if r is None:
            raise SeqConflict(f"world {world_id} is not in the store")
        keys = self._keys
        if len(keys) > _KEYS_LIMIT:
            keys.clear()
        key: int = r[0]
        keys[world_id] = key
        return key

    def _follow_ups(self, world_id: str, event: NewEvent) -> None:
        if event.used_follow_ups:
            self._db.executemany(
                "INSERT INTO used_follow_ups (world_id, card_id, action, seq) VALUES (?, ?, ?, ?)",
                [(world_id, card, action, event.seq) for card, action in event.used_follow_ups],
            )
        if event.released_follow_ups:
            self._db.executemany(
                "DELETE FROM used_follow_ups WHERE world_id = ? AND card_id = ? AND action = ?",
                [(world_id, card, action) for card, action in event.released_follow_ups],
            )


class _Locked(Exception):
    """The database's write lock stayed held by another connection past the busy timeout."""


def _busy(exc: Exception) -> bool:
    """Whether SQLite gave up waiting for another connection's lock (``SQLITE_BUSY``)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


class _NewIds:
    """The request ids a transaction writes: (world key, request id) of each event, and
    each world's last seq in it (:meth:`SQLiteStore._fresh`)."""

    __slots__ = ("at", "ids")

    def __init__(self) -> None:
        self.ids: dict[tuple[int, str], None] = {}
        self.at: dict[int, int] = {}

    def add(self, key: int, seq: int, request_id: str) -> None:
        self.ids[key, request_id] = None
        self.at[key] = seq

    def clear(self) -> None:
        self.ids.clear()
        self.at.clear()


_WORLD_KEY = "(SELECT key FROM heads WHERE world_id = ?)"
"""A world's key, from its id, in a read's WHERE clause."""
_FIND_REQUEST = (
    f"SELECT seq, request_id, record FROM events WHERE world = {_WORLD_KEY} AND request_id = ?"
    " ORDER BY seq DESC LIMIT 1"
)
"""The event of a request id: the world's index read from its newest event back (a retry
is of a request made moments ago; schema 5 has no index of request ids)."""
_WORLD_REQUEST_IDS = "SELECT request_id FROM events WHERE world = ?"
"""A world's request ids, by its key (read from the index alone)."""
_HEAD_SEQ = "SELECT seq FROM heads WHERE key = ?"
"""A world's head (its events move it: :data:`_HEAD_TRIGGER`)."""
_UPDATE_STATE = "UPDATE worlds SET seq = ?, state = ? WHERE id = ?"
"""A world's state snapshot and the seq it is the state after."""
_INSERT_EVENT = "INSERT INTO events (world, seq, request_id, record) VALUES (?, ?, ?, ?)"
_NOTHING_PENDING: dict[str, tuple[str, int] | None] = {}
_ROWS_PER_STATEMENT = 64
"""Rows one statement of a group's write binds at most (4 parameters a row: 256)."""


@functools.cache
def _insert_events_sql(count: int) -> str:
    """:data:`_INSERT_EVENT` for ``count`` rows at once."""
    return _INSERT_EVENT + ", (?, ?, ?, ?)" * (count - 1)


def _execute_rows(
    db: sqlite3.Connection, sql: Callable[[int], str], rows: list[tuple[Any, ...]]
) -> int:
    """Every row bound to one statement of ``sql(len(rows))`` (chunks of
    :data:`_ROWS_PER_STATEMENT`); returns the rows changed. ``executemany`` steps and
    resets its statement once a row, and the sqlite3 module lets go of the GIL for each:
    with the loop thread busy, each is a hand-off between the two threads (served: 4.1
    futex calls a request with ``executemany``, 3.6 this way; docs/performance.md,
    "Twelfth pass")."""
    changed = 0
    step = _ROWS_PER_STATEMENT
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        flat = [value for row in chunk for value in row]
        changed += db.execute(sql(len(chunk)), flat).rowcount
    return changed


_WRITTEN_LIMIT = 4096
"""Worlds whose last committed state text a store remembers (one text each; past the
limit it forgets them all and writes each world's next state in full)."""
_KEYS_LIMIT = 65536
"""Worlds whose key a store remembers (past it, it forgets them all and reads them again)."""


def _record(event: NewEvent) -> tuple[Any, ...]:
    """An event's record as encoded (:data:`RECORD_FIELDS`)."""
    return (
        event.event,
        event.user,
        event.role,
        event.payload,
        event.payload_hash,
        event.draws,
        event.pushes,
        event.undo,
        event.created_at,
    )


def _event_values(key: int, event: NewEvent) -> tuple[Any, ...]:
    """An event's row as bound to :data:`_INSERT_EVENT` (``key``: its world's key)."""
    return (key, event.seq, event.request_id, _dumps(_record(event)))


def _group_rows(
    items: list[tuple[str, NewEvent, dict[str, Any] | str]],
    runs: dict[str, list[Any]],
    keys: dict[str, int],
    find_key: Callable[[str], int],
    encode: Callable[[Any], str] = _orjson_text,
) -> tuple[list[tuple[Any, ...]], bool]:
    """A group's event rows (as :func:`_event_values`) and whether any event marks or
    releases follow-ups, in one pass that also fills ``runs`` (world -> [seq before its
    first event in the group, its last event's seq, its state, its key]; a key not in
    ``keys`` is found by ``find_key``). Raises SeqConflict when a world's events in the
    group do not follow each other, or a world is not in the store."""
    rows: list[tuple[Any, ...]] = []
    add = rows.append
    follow_ups = False
    try:
        for w, e, s in items:
            seq = e.seq
            run = runs.get(w)
            if run is None:
                key = keys.get(w)
                if key is None:
                    key = find_key(w)
                run = runs[w] = [seq - 1, seq, s, key]
            elif seq == run[1] + 1:
                run[1] = seq
                run[2] = s
            else:
                raise SeqConflict(f"world {w}: seq {seq} does not follow {run[1]}")
            add(
                (
                    run[3],
                    seq,
                    e.request_id,
                    encode(_record(e)),
                )
            )
            if e.used_follow_ups or e.released_follow_ups:
                follow_ups = True
    except TypeError:  # orjson refused a value: again, with the standard encoder for it
        if encode is _dumps:
            raise
        runs.clear()
        return _group_rows(items, runs, keys, find_key, _dumps)
    return rows, follow_ups


Landing = Callable[[StoreError | None], None]
"""What an event handed to :meth:`AsyncStore.hand` is answered through: called on the
loop with None once its transaction is on disk, or with the StoreError it failed with."""


class AsyncStore:
    """Runs a store's calls on dedicated threads: one for SQLite, the store's
    ``threads`` (its connection count) for a networked store such as PostgreSQL.

    Appends go through a group commit of their own: events waiting for the store are
    written together by one writer thread, one transaction and one sync to disk for the
    group (:meth:`hand`, :meth:`submit`). The hand-off costs, per group, a few loop
    callbacks (the gathering's iterations), one queue put and one wake-up of the event
    loop, which answers each event of the group through its landing: no executor future,
    no task, and on the hot path (:meth:`hand`) no future of its own an event.

    The loop and the writer do not wait for each other: a group is handed over as soon
    as it is gathered, even while the writer is still writing an earlier one, and the
    writer, once a transaction is on disk, takes every group handed over meanwhile into
    its next transaction at once (up to ``GROUP_LIMIT`` events), without waiting for the
    loop to hear of the last one. (Before, the next group was gathered only once the loop
    had answered the last: the writer sat idle for the loop's wake-up, the gathering and
    its own wake-up, ~4-5 ms a cycle served, while requests waited; docs/performance.md,
    "Eighth pass".)
    """

    GATHER_ROUNDS = 128
    """Event-loop iterations a group may wait for more events at most."""
    GATHER_QUIET = 6
    """Iterations in a row that bring no new event end the wait: a request read from a
    socket reaches the store within about three iterations (the websocket reader, the
    socket.io dispatch, the handler's task), so a lone request waits ~6 iterations of an
    otherwise idle loop (tens of microseconds)."""
    GATHER_SECONDS = 0.008
    """Time a group may wait for more events at most (a busy loop never goes quiet). A
    commit costs the machine a fixed ~95 us of CPU (the transaction, the sync's system
    calls and the VM's exits for the disk, the thread hand-offs) besides ~10 us an event,
    and on a busy machine CPU is what the requests wait for: 8 ms (it was 2 ms) let the
    served rolls' groups grow and cut ~10 us of server CPU a request, for ~1.4 % more
    requests a second at the same p99 (``python -m bridge.bench.ab``, 12 rounds, once its
    rounds no longer favoured B: docs/performance.md, "Fifteenth pass")."""
    GROUP_LIMIT = 256
    """Events in one group, and in one transaction, at most."""

    def __init__(self, store: Store) -> None:
        self.sync = store
        threads = int(getattr(store, "threads", 1))
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="vtt-store")
        # The events waiting for the next group, and what each is answered through (two
        # lists: a group is handed over as they are, no tuple a item rebuilt).
        self._items: list[tuple[str, NewEvent, dict[str, Any] | str]] = []
        self._landings: list[Landing] = []
        self._gathering = False
        """A group is being gathered (one at a time, handed over in submission order)."""
        self._pending = 0
        """Groups handed over to the writer and not answered yet."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: asyncio.Future[None] | None = None
        """Set once nothing is gathered or written any more (what :meth:`close` awaits)."""
        # The gathering's count: events seen, iterations in a row without a new one,
        # iterations so far, and its deadline (loop time).
        self._seen = 0
        self._quiet = 0
        self._rounds = 0
        self._deadline = 0.0
        self._groups: queue.SimpleQueue[_Group | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self.commits = 0
        """Transactions written so far (diagnosis and tests)."""

    async def append(self, world_id: str, event: NewEvent, state: dict[str, Any] | str) -> None:
        """Durably write one event; events of other worlds arriving meanwhile share its commit.

        Returns only once the transaction holding this event is on disk (group commit:
        nothing is acknowledged before it is durable). Raises StoreError as ``append``.
        """
        await self.submit(world_id, event, state)

    def submit(
        self, world_id: str, event: NewEvent, state: dict[str, Any] | str
    ) -> asyncio.Future[None]:
        """``append`` without a coroutine: queue the event for the next group commit and
        return the future that completes once its transaction is on disk (or fails with
        StoreError). Cancelling the future does not withdraw the event: it is written all
        the same. Must be called on the event loop's thread."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.hand(world_id, event, state, functools.partial(_settle, future))
        return future

    def hand(
        self,
        world_id: str,
        event: NewEvent,
        state: dict[str, Any] | str,
        landing: Landing,
    ) -> None:
        """Queue the event for the next group commit; once its transaction is on disk (or
        failed), :meth:`_answer` calls ``landing(None)`` (or ``landing(error)``, a
        StoreError) on the loop, in the order the events were handed, before any task
        the answer wakes resumes. No future, no loop handle an event: the bridge's hot
        path (``bridge.pipeline.WorldPipe.launch``) lands its flight in that call. A
        landing that raises is reported to the loop's exception handler; the other events
        are answered all the same. Must be called on the event loop's thread."""
        self._items.append((world_id, event, state))
        self._landings.append(landing)
        if not self._gathering:
            # Not tied to any request (a cancelled request must not leave others waiting).
            self._gathering = True
            self._loop = asyncio.get_running_loop()
            self._gather()

    def _gather(self) -> None:
        """Start gathering the next group: before it is handed over, let the requests
        already read from the sockets reach the store, so they share its commit instead
        of each waiting for a commit of its own: the loop iterates until it brings no new
        event for ``GATHER_QUIET`` iterations, or ``GATHER_SECONDS`` passed, or the group
        is full, or ``GATHER_ROUNDS`` iterations went by (:meth:`_tick`, once an
        iteration). A commit's fixed cost (the transaction, the sync, the thread hand-off)
        is then shared by more events; a lone request waits a few loop iterations. (One
        callback an iteration, not a task sleeping: the same count of iterations for
        less.) A writer still busy with an earlier group adds the groups handed over
        meanwhile to its next transaction (:func:`_write_groups`)."""
        loop = self._loop
        assert loop is not None
        self._deadline = loop.time() + self.GATHER_SECONDS
        self._seen, self._quiet, self._rounds = len(self._items), 0, 0
        if self._seen >= self.GROUP_LIMIT:
            self._hand_over(loop)
        else:
            loop.call_soon(self._tick)

    def _tick(self) -> None:
        """One loop iteration of the gathering (see :meth:`_gather`)."""
        loop = self._loop
        assert loop is not None
        seen = len(self._items)
        if seen > self._seen:
            self._seen, self._quiet = seen, 0
        else:
            self._quiet += 1
        self._rounds += 1
        if (
            self._quiet >= self.GATHER_QUIET
            or seen >= self.GROUP_LIMIT
            or self._rounds >= self.GATHER_ROUNDS
            or loop.time() >= self._deadline
        ):
            self._hand_over(loop)
        else:
            loop.call_soon(self._tick)

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand the gathered group (its first ``GROUP_LIMIT`` events) to the writer
        thread, whatever it is doing; :meth:`_answer` gets its outcome on this loop. The
        events left over start the next gathering at once."""
        items, landings = self._items, self._landings
        limit = self.GROUP_LIMIT
        if len(items) > limit:
            self._items, self._landings = items[limit:], landings[limit:]
            items, landings = items[:limit], landings[:limit]
        else:
            self._items, self._landings = [], []
        if self._writer is None:
            # The thread holds the queue only (each group brings its store call), and
            # ends when this AsyncStore is closed or garbage-collected: a store nobody
            # closed (tests) still lets its connections go.
            self._writer = threading.Thread(
                target=_write_groups, args=(self._groups,), name="vtt-store-writer", daemon=True
            )
            self._writer.start()
            weakref.finalize(self, self._groups.put, None)
        self._pending += 1
        self._groups.put(_Group(items, self.sync.append_many, loop, landings, self._answer, limit))
        if self._items:
            self._gather()
        else:
            self._gathering = False

    def _answer(self, answered: list[tuple[list[Landing], _Outcome]]) -> None:
        """On the loop, once a transaction is written (or failed): every event's landing
        of each group it held called with its outcome (in the order they were handed)."""
        try:
            self.commits += 1
            for landings, outcome in answered:
                self._pending -= 1
                if isinstance(outcome, Exception):  # the writer failed: nothing written
                    outcome = [StoreError(str(outcome)) for _ in landings]
                for landing, error in zip(landings, outcome, strict=True):
                    try:
                        landing(error)
                    except Exception as exc:  # as the loop treats a failing callback
                        self._report(exc)
        finally:
            if not self._pending and not self._gathering:
                idle = self._idle
                if idle is not None and not idle.done():
                    idle.set_result(None)

    def _report(self, exc: Exception) -> None:
        loop = self._loop
        if loop is not None:
            loop.call_exception_handler({"message": "store landing failed", "exception": exc})

    async def find_request(self, world_id: str, request_id: str) -> EventRow | None:
        """The event a request id made: read on this thread for SQLite (no thread hop),
        on the store's threads for a networked store (never a network wait on the loop)."""
        if isinstance(self.sync, SQLiteStore):
            return self.sync.find_request_now(world_id, request_id)
        return await self.run(self.sync.find_request, world_id, request_id)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def close(self) -> None:
        """Write what was submitted, then stop the writer and close the store."""
        if self._gathering or self._pending:
            self._idle = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._idle)
        writer = self._writer
        if writer is not None:
            self._groups.put(None)  # after every group already handed over
            await self.run(writer.join)
            self._writer = None
        await self.run(self.sync.close)
        self._executor.shutdown(wait=True)


_Outcome = list[StoreError | None] | Exception
"""What a transaction's write gave a group: each event's error (None: written), or the
exception the store call itself raised (nothing of it written)."""


def _settle(future: asyncio.Future[None], error: StoreError | None) -> None:
    """A :meth:`AsyncStore.submit` future's landing: its outcome set (a future its
    requester cancelled stays cancelled: the write stands)."""
    if not future.done():
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class _Group:
    """One group commit on its way to the writer thread, and back."""

    __slots__ = ("answer", "items", "landings", "limit", "loop", "write")

    def __init__(
        self,
        items: list[tuple[str, NewEvent, dict[str, Any] | str]],
        write: Callable[
            [list[tuple[str, NewEvent, dict[str, Any] | str]]], list[StoreError | None]
        ],
        loop: asyncio.AbstractEventLoop,
        landings: list[Landing],
        answer: Callable[[list[tuple[list[Landing], _Outcome]]], None],
        limit: int,
    ) -> None:
        self.items = items
        self.write = write
        self.loop = loop
        self.landings = landings
        self.answer = answer
        self.limit = limit


def _write_groups(groups: queue.SimpleQueue[_Group | None]) -> None:
    """The writer thread: one transaction after another (:func:`_write_batch`); ``None``
    ends it, after every group put before it."""
    carried: _Group | None = None
    while True:
        group = carried if carried is not None else groups.get()
        if group is None:
            return
        carried, ending = _write_batch(group, groups)
        del group  # nothing written stays alive while waiting (nor its store)
        if ending:
            return


def _write_batch(
    group: _Group, groups: queue.SimpleQueue[_Group | None]
) -> tuple[_Group | None, bool]:
    """One transaction holding ``group`` and every group handed over after it while the
    last transaction was written (up to the group limit of events), answered with one
    call into the loop's thread. Returns the group taken that did not fit (the next
    transaction's first) and whether ``None`` was taken (the writer's end)."""
    batch = [group]
    items = group.items
    carried: _Group | None = None
    ending = False
    while True:
        try:
            more = groups.get_nowait()
        except queue.Empty:
            break
        if more is None:
            ending = True
            break
        if len(items) + len(more.items) > group.limit:
            carried = more
            break
        if len(batch) == 1:
            items = list(items)
        items.extend(more.items)
        batch.append(more)
    outcome: _Outcome
    try:
        outcome = group.write(items)
    except Exception as exc:  # reported on the loop, where the futures live
        outcome = exc
    answered: list[tuple[list[Landing], _Outcome]] = []
    start = 0
    for part in batch:
        end = start + len(part.items)
        answered.append(
            (part.landings, outcome if isinstance(outcome, Exception) else outcome[start:end])
        )
        start = end
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it
        group.loop.call_soon_threadsafe(group.answer, answered)
    return carried, ending


def event_row(world_id: str, event: NewEvent) -> EventRow:
    """``event`` as the store reads it back once written: the same columns, encoded and
    decoded as :class:`SQLiteStore` writes and reads them (fresh objects, JSON's types)."""
    return SQLiteStore._event(world_id, event.seq, event.request_id, _dumps(_record(event)))
