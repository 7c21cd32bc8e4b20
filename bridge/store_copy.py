"""``vtt-bridge store copy``: move worlds from one store to a PostgreSQL store.

Each world (row, token hashes, initial state, state snapshot, every event, the
follow-up marks) is written in one transaction, then read back and compared with
the source event by event; any difference is reported and fails the command. A
world already in the target is not written again, only verified, so the command
can be re-run after an interruption. Stop the bridge that writes the source first
(a world that changes during the copy fails its verification).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bridge.store import EventRow, SQLiteStore, StoreError
from bridge.store_pg import PgStore, WorldExport


def _sqlite_path(location: str) -> Path:
    return Path(
        location.removeprefix("sqlite://") if location.startswith("sqlite://") else location
    )


class SQLiteSource:
    """Reads whole worlds out of a SQLite store file (never creates one)."""

    def __init__(self, location: str) -> None:
        path = _sqlite_path(location)
        if not path.is_file():
            raise StoreError(f"no SQLite store at {path}")
        self.store = SQLiteStore(path)
        self._raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    def world_ids(self) -> list[str]:
        return [row.id for row in self.store.list_worlds()]

    def export_world(self, world_id: str) -> WorldExport | None:
        row = self.store.load_world(world_id)
        if row is None:
            return None
        hashes = self._raw.execute(
            "SELECT gm_token_hash, player_token_hash FROM worlds WHERE id = ?", (world_id,)
        ).fetchone()
        used = self._raw.execute(
            "SELECT card_id, action, seq FROM used_follow_ups WHERE world_id = ?"
            " ORDER BY card_id, action",
            (world_id,),
        ).fetchall()
        events: list[EventRow] = []
        while True:
            batch = self.store.events_after(world_id, events[-1].seq if events else 0, 5000)
            if not batch:
                break
            events.extend(batch)
        return WorldExport(
            row,
            hashes[0],
            hashes[1],
            self.store.initial_state(world_id),
            events,
            [(c, a, int(s)) for c, a, s in used],
        )

    def close(self) -> None:
        self._raw.close()
        self.store.close()


class PgSource:
    def __init__(self, location: str) -> None:
        self.store = PgStore(location)

    def world_ids(self) -> list[str]:
        return [row.id for row in self.store.list_worlds()]

    def export_world(self, world_id: str) -> WorldExport | None:
        return self.store.export_world(world_id)

    def close(self) -> None:
        self.store.close()


@dataclass(frozen=True)
class Copied:
    world_id: str
    events: int
    status: str  # "copied", "verified" (was already there) or "mismatch"
    problems: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "world_id": self.world_id,
            "events": self.events,
            "status": self.status,
            "problems": list(self.problems),
        }


def differences(source: WorldExport, target: WorldExport) -> list[str]:
    """Every way ``target`` differs from ``source``, event by event."""
    problems: list[str] = []
    if source.row != target.row:
        problems.append("world row (name, system, seq, state or creation time) differs")
    if (source.gm_token_hash, source.player_token_hash) != (
        target.gm_token_hash,
        target.player_token_hash,
    ):
        problems.append("token hashes differ")
    if source.initial_state != target.initial_state:
        problems.append("initial state differs")
    if sorted(source.used_follow_ups) != sorted(target.used_follow_ups):
        problems.append("used follow-ups differ")
    if len(source.events) != len(target.events):
        problems.append(f"{len(source.events)} events in the source, {len(target.events)} copied")
    for mine, theirs in zip(source.events, target.events, strict=False):
        if mine != theirs:
            problems.append(f"event seq {mine.seq} differs")
            if len(problems) > 20:
                break
    return problems


def copy_worlds(
    source_location: str, target_location: str, world_ids: list[str] | None = None
) -> Iterator[Copied]:
    if not target_location.startswith(("postgresql://", "postgres://")):
        raise StoreError("the target must be a PostgreSQL store (postgresql://...)")
    source: SQLiteSource | PgSource = (
        PgSource(source_location)
        if source_location.startswith(("postgresql://", "postgres://"))
        else SQLiteSource(source_location)
    )
    target = PgStore(target_location)
    try:
        for world_id in world_ids or source.world_ids():
            original = source.export_world(world_id)
            if original is None:
                yield Copied(world_id, 0, "mismatch", ("no such world in the source",))
                continue
            status = "verified"
            if target.load_world(world_id) is None:
                target.import_world(original)
                status = "copied"
            copied = target.export_world(world_id)
            problems = (
                ["missing after the copy"] if copied is None else differences(original, copied)
            )
            yield Copied(
                world_id,
                len(original.events),
                "mismatch" if problems else status,
                tuple(problems),
            )
    finally:
        source.close()
        target.close()
