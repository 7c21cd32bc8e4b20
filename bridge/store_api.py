"""What the bridge asks of a durable store, whatever engine holds it.

:class:`Store` is the interface the server (through :class:`bridge.store.AsyncStore`),
the command line, the demo and the session export use. Two adapters implement it:
:class:`bridge.store.SQLiteStore` (embedded, the default) and
:class:`bridge.store_pg.PgStore` (PostgreSQL, shared by several bridge processes).
Every call is synchronous and may block; ``AsyncStore`` runs them off the event loop.

The guarantees every adapter keeps: an event and the world state it produced are
written in one transaction; a world's ``seq`` is gap-free (``append`` of ``seq`` n
succeeds only when the world is at n - 1, else :class:`SeqConflict`); ``(world,
request id)`` is unique; a failed call writes nothing and raises :class:`StoreError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from bridge.store import EventRow, NewEvent, SeqConflict, StoreError, WorldRow

__all__ = ["EventRow", "NewEvent", "SeqConflict", "Store", "StoreError", "WorldRow", "open_store"]


class Store(Protocol):
    """A durable store of worlds, their tokens, state snapshots and event logs."""

    def close(self) -> None: ...

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
    ) -> None: ...

    def list_worlds(self) -> list[WorldRow]: ...

    def load_world(self, world_id: str) -> WorldRow | None: ...

    def initial_state(self, world_id: str) -> dict[str, Any] | None: ...

    def find_token(self, token_hash: str) -> tuple[str, str] | None: ...

    # -- events -----------------------------------------------------------------
    def find_request(self, world_id: str, request_id: str) -> EventRow | None: ...

    def find_request_now(self, world_id: str, request_id: str) -> EventRow | None: ...

    def event_at(self, world_id: str, seq: int) -> EventRow | None: ...

    def events_after(self, world_id: str, seq: int, limit: int = 10_000) -> list[EventRow]: ...

    def used_follow_ups(self, world_id: str, card_ids: Iterable[str]) -> set[tuple[str, str]]: ...

    def append(self, world_id: str, event: NewEvent, state: dict[str, Any] | str) -> None:
        """``state``: the world's JSON value, or its JSON text already encoded."""

    def append_many(
        self, items: list[tuple[str, NewEvent, dict[str, Any] | str]]
    ) -> list[StoreError | None]: ...


def open_store(location: str, *, sync: str = "FULL") -> Store:
    """The store at ``location``: ``postgresql://...`` or a SQLite file (``sqlite:///path``
    or a plain path)."""
    if location.startswith(("postgresql://", "postgres://")):
        from bridge.store_pg import PgStore

        return PgStore(location)
    from bridge.store import SQLiteStore

    path = location.removeprefix("sqlite://") if location.startswith("sqlite://") else location
    return SQLiteStore(path, synchronous=sync)
