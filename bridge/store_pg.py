"""The PostgreSQL store: the same worlds, tokens, snapshots and event logs as the
SQLite store, shared by every bridge process that points at the same database.

Driver: psycopg 3, used synchronously on :class:`bridge.store.AsyncStore`'s threads
(one connection per thread), exactly as the SQLite adapter is used.

Across processes a world's events stay in one order, exactly once:

* ``append`` updates the world's row ``WHERE seq = n - 1`` before inserting event n,
  in one transaction. The update takes the row's lock until commit, so a second
  process appending to the same world waits, then finds the seq moved and gets
  :class:`SeqConflict` (nothing written); ``seq`` is gap-free by construction.
* ``(world_id, request_id)`` is a unique key: the same request sent to two
  processes at once makes one event; the loser's insert fails and is reported as
  :class:`SeqConflict`, so it re-reads and answers with the winner's event.
* The schema is versioned (``bridge/migrations/postgresql/NNNN_*.sql``); missing
  migrations are applied on open under an advisory lock, so processes starting
  together migrate once.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import psycopg

from bridge.auth import same_hash
from bridge.store import EventRow, NewEvent, SeqConflict, StoreError, WorldRow

MIGRATIONS = Path(__file__).parent / "migrations" / "postgresql"
MIGRATION_LOCK = 0x7674_7462  # "vttb": pg_advisory_xact_lock key for migrations
CONNECT_TIMEOUT = 5


P = ParamSpec("P")
T = TypeVar("T")


class _ConnectionLost(StoreError):
    """The connection broke (server restarted, network): worth one more try on a new one."""


def _once_more(method: Callable[P, T]) -> Callable[P, T]:
    """Run a store call again, on a fresh connection, when its connection turned out
    dead: after a database restart every idle connection is, and the first use finds
    out. Safe for writes too: a retried append that had in fact committed fails its
    ``seq`` check (nothing written twice) and the caller re-reads."""

    @functools.wraps(method)
    def again(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except _ConnectionLost:
            return method(*args, **kwargs)

    return again


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def migrations() -> list[tuple[int, str, str]]:
    """``(version, name, sql)`` of every migration shipped, in order."""
    found = []
    for path in sorted(MIGRATIONS.glob("*.sql")):
        number, _, name = path.stem.partition("_")
        found.append((int(number), name, path.read_text("utf-8")))
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps: {versions}")
    return found


SCHEMA_VERSION = len(migrations())


@dataclass(frozen=True)
class WorldExport:
    """Everything a world is, for ``vtt-bridge store copy``."""

    row: WorldRow
    gm_token_hash: str
    player_token_hash: str
    initial_state: dict[str, Any] | None
    events: list[EventRow]
    used_follow_ups: list[tuple[str, str, int]]


_EVENT_COLUMNS = (
    "world_id, seq, request_id, event, username, role, payload, payload_hash, draws,"
    " pushes, undo, created_at"
)


def _event(r: tuple[Any, ...]) -> EventRow:
    return EventRow(
        r[0],
        int(r[1]),
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


def _world(r: tuple[Any, ...]) -> WorldRow:
    return WorldRow(r[0], r[1], r[2], int(r[3]), json.loads(r[4]), r[5])


class PgStore:
    """A :class:`bridge.store_api.Store` on PostgreSQL (``postgresql://user@host/db``)."""

    threads = 4
    """Connections (and AsyncStore threads): reads of other worlds never queue behind a write."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._local = threading.local()
        self._all: list[psycopg.Connection[Any]] = []
        self._all_lock = threading.Lock()
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    # -- connections ------------------------------------------------------------
    def _conn(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            try:
                conn = psycopg.connect(
                    self.url,
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT,
                    application_name="vtt-bridge",
                )
            except psycopg.Error as exc:
                raise StoreError(f"cannot reach PostgreSQL: {exc}".strip()) from exc
            self._local.conn = conn
            with self._all_lock:
                self._all = [c for c in self._all if not c.closed] + [conn]
        return conn

    @contextmanager
    def _session(self) -> Iterator[psycopg.Connection[Any]]:
        """This thread's connection; any driver error becomes a StoreError."""
        conn = self._conn()
        try:
            yield conn
        except psycopg.Error as exc:
            message = str(exc).strip() or type(exc).__name__
            if conn.broken or isinstance(exc, psycopg.OperationalError):
                conn.close()  # reconnect on next use
                raise _ConnectionLost(message) from exc
            raise StoreError(message) from exc

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                conn.close()
            self._all = []

    def _migrate(self) -> None:
        shipped = migrations()
        with self._session() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS bridge_schema (version integer PRIMARY KEY,"
                " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            row = conn.execute("SELECT coalesce(max(version), 0) FROM bridge_schema").fetchone()
            version = int(row[0]) if row else 0
            if version > len(shipped):
                raise StoreError(
                    f"the database has schema version {version}; this bridge knows {len(shipped)}"
                )
            for number, name, sql in shipped[version:]:
                conn.execute(sql.encode("utf-8"))
                conn.execute(
                    "INSERT INTO bridge_schema (version, name) VALUES (%s, %s)", (number, name)
                )

    @_once_more
    def schema_version(self) -> int:
        with self._session() as conn:
            row = conn.execute("SELECT max(version) FROM bridge_schema").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    # -- worlds ---------------------------------------------------------------
    @_once_more
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
        with self._session() as conn:
            conn.execute(
                "INSERT INTO worlds (id, name, system, gm_token_hash, player_token_hash, seq,"
                " state, initial_state, created_at) VALUES (%s, %s, %s, %s, %s, 0, %s, %s, %s)",
                (
                    world_id,
                    name,
                    system,
                    gm_token_hash,
                    player_token_hash,
                    _dumps(state),
                    _dumps(state),
                    created_at,
                ),
            )

    @_once_more
    def list_worlds(self) -> list[WorldRow]:
        with self._session() as conn:
            rows = conn.execute(
                "SELECT id, name, system, seq, state, created_at FROM worlds"
                " ORDER BY created_at, id"
            ).fetchall()
        return [_world(r) for r in rows]

    @_once_more
    def load_world(self, world_id: str) -> WorldRow | None:
        with self._session() as conn:
            r = conn.execute(
                "SELECT id, name, system, seq, state, created_at FROM worlds WHERE id = %s",
                (world_id,),
            ).fetchone()
        return None if r is None else _world(r)

    @_once_more
    def heads(self, world_ids: Iterable[str]) -> dict[str, int]:
        """The current ``seq`` of each of these worlds (one query, no state)."""
        ids = list(world_ids)
        if not ids:
            return {}
        with self._session() as conn:
            rows = conn.execute("SELECT id, seq FROM worlds WHERE id = ANY(%s)", (ids,)).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    @_once_more
    def initial_state(self, world_id: str) -> dict[str, Any] | None:
        with self._session() as conn:
            r = conn.execute(
                "SELECT initial_state FROM worlds WHERE id = %s", (world_id,)
            ).fetchone()
        return None if r is None or r[0] is None else json.loads(r[0])

    @_once_more
    def find_token(self, token_hash: str) -> tuple[str, str] | None:
        with self._session() as conn:
            r = conn.execute(
                "SELECT id, gm_token_hash, player_token_hash"
                " FROM worlds WHERE gm_token_hash = %s OR player_token_hash = %s",
                (token_hash, token_hash),
            ).fetchone()
        if r is None:
            return None
        if same_hash(r[1], token_hash):  # constant-time, as in the SQLite store
            return (r[0], "gm")
        if same_hash(r[2], token_hash):
            return (r[0], "player")
        return None

    # -- events -----------------------------------------------------------------
    @_once_more
    def find_request(self, world_id: str, request_id: str) -> EventRow | None:
        with self._session() as conn:
            r = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE world_id = %s AND request_id = %s",
                (world_id, request_id),
            ).fetchone()
        return None if r is None else _event(r)

    def find_request_now(self, world_id: str, request_id: str) -> EventRow | None:
        """Any thread may call it (each has its own connection); it waits on the network,
        so the server reads through ``AsyncStore.find_request`` instead."""
        return self.find_request(world_id, request_id)

    @_once_more
    def event_at(self, world_id: str, seq: int) -> EventRow | None:
        with self._session() as conn:
            r = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE world_id = %s AND seq = %s",
                (world_id, seq),
            ).fetchone()
        return None if r is None else _event(r)

    @_once_more
    def events_after(self, world_id: str, seq: int, limit: int = 10_000) -> list[EventRow]:
        with self._session() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE world_id = %s AND seq > %s"
                " ORDER BY seq LIMIT %s",
                (world_id, seq, limit),
            ).fetchall()
        return [_event(r) for r in rows]

    @_once_more
    def used_follow_ups(self, world_id: str, card_ids: Iterable[str]) -> set[tuple[str, str]]:
        ids = list(card_ids)
        if not ids:
            return set()
        with self._session() as conn:
            rows = conn.execute(
                "SELECT card_id, action FROM used_follow_ups WHERE world_id = %s"
                " AND card_id = ANY(%s)",
                (world_id, ids),
            ).fetchall()
        return {(r[0], r[1]) for r in rows}

    def append(self, world_id: str, event: NewEvent, state: dict[str, Any] | str) -> None:
        (error,) = self.append_many([(world_id, event, state)])
        if error is not None:
            raise error

    def append_many(
        self, items: list[tuple[str, NewEvent, dict[str, Any] | str]]
    ) -> list[StoreError | None]:
        """Group commit, as SQLite's: each item in its own savepoint, one transaction.

        Items are written in world order (stable), so two processes' groups lock the
        world rows in the same order and never deadlock.
        """
        try:
            return self._append_many(items)
        except _ConnectionLost:
            pass
        try:
            return self._append_many(items)
        except _ConnectionLost as exc:
            return [exc for _ in items]

    def _append_many(
        self, items: list[tuple[str, NewEvent, dict[str, Any] | str]]
    ) -> list[StoreError | None]:
        results: list[StoreError | None] = [None] * len(items)
        order = sorted(range(len(items)), key=lambda i: items[i][0])
        try:
            with self._session() as conn, conn.transaction():
                for index in order:
                    world_id, event, state = items[index]
                    try:
                        with conn.transaction():
                            self._write(conn, world_id, event, state)
                    except SeqConflict as exc:
                        results[index] = exc
                    except psycopg.errors.UniqueViolation as exc:
                        if "events_request_once" in str(exc):
                            # The same request id was written meanwhile (by another process).
                            results[index] = SeqConflict(
                                f"request {event.request_id} of world {world_id} already written"
                            )
                        else:
                            results[index] = StoreError(str(exc).strip())
                    except (psycopg.IntegrityError, psycopg.DataError, ValueError) as exc:
                        results[index] = StoreError(str(exc).strip())
        except _ConnectionLost:
            raise
        except StoreError as exc:
            return [exc for _ in items]
        return results

    @staticmethod
    def _write(
        conn: psycopg.Connection[Any], world_id: str, event: NewEvent, state: dict[str, Any] | str
    ) -> None:
        updated = conn.execute(
            "UPDATE worlds SET seq = %s, state = %s WHERE id = %s AND seq = %s",
            (
                event.seq,
                state if isinstance(state, str) else _dumps(state),
                world_id,
                event.seq - 1,
            ),
        ).rowcount
        if updated != 1:
            raise SeqConflict(f"world {world_id} is not at seq {event.seq - 1}")
        conn.execute(
            f"INSERT INTO events ({_EVENT_COLUMNS})"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                world_id,
                event.seq,
                event.request_id,
                event.event,
                event.user,
                event.role,
                _dumps(event.payload),
                event.payload_hash,
                _dumps(event.draws),
                _dumps(event.pushes),
                None if event.undo is None else _dumps(event.undo),
                event.created_at,
            ),
        )
        if event.used_follow_ups:
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO used_follow_ups (world_id, card_id, action, seq)"
                    " VALUES (%s, %s, %s, %s)",
                    [(world_id, card, action, event.seq) for card, action in event.used_follow_ups],
                )
        if event.released_follow_ups:
            with conn.cursor() as cursor:
                cursor.executemany(
                    "DELETE FROM used_follow_ups WHERE world_id = %s AND card_id = %s"
                    " AND action = %s",
                    [(world_id, card, action) for card, action in event.released_follow_ups],
                )

    # -- copying worlds in ------------------------------------------------------
    @_once_more
    def import_world(self, world: WorldExport) -> None:
        """Write a whole world (row, tokens, snapshot, events, follow-up marks) in one
        transaction. Raises StoreError if a world with its id or tokens exists."""
        row = world.row
        with self._session() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO worlds (id, name, system, gm_token_hash, player_token_hash, seq,"
                " state, initial_state, created_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    row.id,
                    row.name,
                    row.system,
                    world.gm_token_hash,
                    world.player_token_hash,
                    row.seq,
                    _dumps(row.state),
                    None if world.initial_state is None else _dumps(world.initial_state),
                    row.created_at,
                ),
            )
            with conn.cursor() as cursor:
                with cursor.copy(f"COPY events ({_EVENT_COLUMNS}) FROM STDIN") as copy:
                    for e in world.events:
                        copy.write_row(
                            (
                                e.world_id,
                                e.seq,
                                e.request_id,
                                e.event,
                                e.user,
                                e.role,
                                _dumps(e.payload),
                                e.payload_hash,
                                _dumps(e.draws),
                                _dumps(e.pushes),
                                None if e.undo is None else _dumps(e.undo),
                                e.created_at,
                            )
                        )
                cursor.executemany(
                    "INSERT INTO used_follow_ups (world_id, card_id, action, seq)"
                    " VALUES (%s, %s, %s, %s)",
                    [(row.id, card, action, seq) for card, action, seq in world.used_follow_ups],
                )

    @_once_more
    def export_world(self, world_id: str) -> WorldExport | None:
        with self._session() as conn:
            r = conn.execute(
                "SELECT id, name, system, seq, state, created_at, gm_token_hash,"
                " player_token_hash, initial_state FROM worlds WHERE id = %s",
                (world_id,),
            ).fetchone()
            if r is None:
                return None
            used = conn.execute(
                "SELECT card_id, action, seq FROM used_follow_ups WHERE world_id = %s"
                " ORDER BY card_id, action",
                (world_id,),
            ).fetchall()
        events: list[EventRow] = []
        while True:
            batch = self.events_after(world_id, events[-1].seq if events else 0, 5000)
            if not batch:
                break
            events.extend(batch)
        return WorldExport(
            _world(r[:6]),
            r[6],
            r[7],
            None if r[8] is None else json.loads(r[8]),
            events,
            [(c, a, int(s)) for c, a, s in used],
        )
