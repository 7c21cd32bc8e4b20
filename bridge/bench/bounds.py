"""Upper bounds: the bridge served with part of its store's work taken away, to measure.

``python -m bridge.bench.ab --scenario "savage_worlds roll x50"
--b="BOUND=no-log-index+no-cards"`` serves B through this module: it takes the named parts
of the store's work away and then runs ``vtt-bridge`` with the rest of its arguments.
What B then reads against the floor is the most that any way of doing that part more
cheaply could buy: a bound, not a design.

**Every bound breaks a promise of the store** (what is acknowledged is on disk, a
world's log can be read back in order, a reconnecting player is sent the cards it
missed): they exist to be measured, never to serve a table. They apply only when this
module is run as the served process's entry point; the A/B harness imports it to check
names, nothing else imports it, and the bridge's own command has no way to reach it.

The bounds (``+`` joins several):

- ``no-log-index``: the event log's one index, ``(world, seq, request_id)``, is dropped
  each time the store opens. Each commit then writes the table's pages only (the index
  was ~18 of ~30 pages a commit, each world's newest entries in a leaf of their own); a
  world's events and request ids are read by scanning the table.
- ``no-cards``: each event's record is written without its pushes (the rendered cards,
  ~700 of a Savage Worlds roll's ~900 bytes).
- ``bare-record``: each event's record is two short fields (its event and payload
  hash): the least a row can hold.
- ``answer-at-hand-over``: each event is answered as its group is handed to the writer,
  not once its group is on disk; the group is still written, with all its CPU. It bounds
  any way of overlapping the write with the loop's work.
- ``no-write``: the store writes nothing and answers every event at once.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from typing import Any

from bridge import store

Setter = Callable[[Any, str, Any], None]
"""How a bound replaces an attribute: ``setattr``, or a test's ``monkeypatch.setattr``."""


def _no_log_index(set_attr: Setter) -> None:
    opened = store.SQLiteStore.__init__

    def __init__(self: store.SQLiteStore, *args: Any, **kwargs: Any) -> None:
        opened(self, *args, **kwargs)
        self._db.execute("DROP INDEX IF EXISTS events_log")

    set_attr(store.SQLiteStore, "__init__", __init__)


def _no_cards(set_attr: Setter) -> None:
    whole = store._record
    pushes = store.RECORD_FIELDS.index("pushes")

    def record(event: store.NewEvent) -> tuple[Any, ...]:
        fields = whole(event)
        return (*fields[:pushes], None, *fields[pushes + 1 :])

    set_attr(store, "_record", record)


def _bare_record(set_attr: Setter) -> None:
    def record(event: store.NewEvent) -> tuple[Any, ...]:
        return (event.event, event.payload_hash)

    set_attr(store, "_record", record)


def _answer_at_hand_over(set_attr: Setter) -> None:
    hand_over = store.AsyncStore._hand_over

    def _hand_over(self: store.AsyncStore, loop: asyncio.AbstractEventLoop) -> None:
        count = min(len(self._landings), self.GROUP_LIMIT)
        early = self._landings[:count]
        self._landings[:count] = [_ignore] * count
        for landing in early:
            loop.call_soon(landing, None)
        hand_over(self, loop)

    set_attr(store.AsyncStore, "_hand_over", _hand_over)


def _ignore(error: store.StoreError | None) -> None:
    """The landing left to a group whose events were answered already."""


def _no_write(set_attr: Setter) -> None:
    def append_many(
        self: store.SQLiteStore, items: list[tuple[str, store.NewEvent, Any]]
    ) -> list[store.StoreError | None]:
        return [None] * len(items)

    set_attr(store.SQLiteStore, "append_many", append_many)


BOUNDS: dict[str, Callable[[Setter], None]] = {
    "no-log-index": _no_log_index,
    "no-cards": _no_cards,
    "bare-record": _bare_record,
    "answer-at-hand-over": _answer_at_hand_over,
    "no-write": _no_write,
}


def parse(text: str) -> list[str]:
    """The bounds a ``+``-joined text names, in order; ValueError for an unknown one or for
    two that replace the same thing (``no-cards`` and ``bare-record``: both the record)."""
    names = [name for name in text.split("+") if name]
    if not names:
        raise ValueError("BOUND names no bound (known: " + ", ".join(BOUNDS) + ")")
    for name in names:
        if name not in BOUNDS:
            raise ValueError(f"no bound {name!r} (known: {', '.join(BOUNDS)})")
    if len(set(names)) != len(names) or {"no-cards", "bare-record"} <= set(names):
        raise ValueError(f"BOUND={text}: a bound twice, or two records (no-cards, bare-record)")
    return names


def apply(names: list[str], set_attr: Setter = setattr) -> None:
    """Take the named parts of the store's work away, in this process."""
    for name in names:
        BOUNDS[name](set_attr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bridge.bench.bounds",
        description="vtt-bridge with part of its store's work taken away (measuring only)",
    )
    parser.add_argument("--bound", required=True, help="+".join(BOUNDS))
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="vtt-bridge's arguments")
    args = parser.parse_args(argv)
    try:
        names = parse(args.bound)
    except ValueError as exc:
        parser.error(str(exc))
    apply(names)
    from bridge.cli import main as bridge_main

    return bridge_main(args.rest)


if __name__ == "__main__":
    sys.exit(main())
