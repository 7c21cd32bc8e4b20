"""The campaign's invariants over a world's log, checked from the database itself.

- every acknowledged request is in the log, at the seq its ack gave;
- no request id appears twice (nothing applied twice);
- ``seq`` runs 1..N without a gap and the world's row says N;
- the stored state equals the fold of the log: the initial world, every event run
  again through :func:`bridge.engine.process` with the dice it recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.engine import Accepted, Session, process
from bridge.serialize import world_from_json, world_to_json
from bridge.store import EventRow, SQLiteStore
from protocol.v1.parse import ParseError, parse_request
from rules.dice import Draw, ScriptedDice
from rules.registry import default_registry


def fold(store: SQLiteStore, world_id: str) -> tuple[dict[str, Any], list[EventRow]]:
    """The world state the log folds to, and the log itself."""
    registry = default_registry()
    initial = store.initial_state(world_id)
    assert initial is not None, "no initial state recorded"
    world = world_from_json(initial)
    locale = str(world.settings.get("locale", "es"))
    rows = store.events_after(world_id, 0, 10_000_000)
    produced: dict[int, EventRow] = {}
    used: set[tuple[str, str]] = set()
    for row in rows:
        request = parse_request(row.event, (row.payload,))
        assert not isinstance(request, ParseError), (row.seq, request)
        referenced = None
        if row.event == "card_action":
            referenced = produced.get(int(str(row.payload["card"]).split(".")[0]))
        elif row.event == "undo":
            referenced = produced.get(int(row.payload["seq"]))
        dice = ScriptedDice([Draw(d[0], d[1]) for d in row.draws])
        role = "gm" if row.role == "gm" else "player"
        outcome = process(
            registry,
            world,
            Session(row.user, role, locale),
            row.event,
            request,
            dice,
            referenced=referenced,
            used=used,
        )
        assert isinstance(outcome, Accepted), (row.seq, outcome)
        assert outcome.pushes == row.pushes, f"seq {row.seq}: replayed pushes differ"
        world = outcome.world
        used.update(outcome.used_follow_ups)
        used.difference_update(outcome.released_follow_ups)
        produced[row.seq] = row
    return world_to_json(world), rows


def check_log(data: Path | str, world_id: str, acked: dict[str, int]) -> list[EventRow]:
    """Assert the four invariants; ``acked`` maps request id to the seq its ack gave."""
    path = Path(data)
    store = SQLiteStore(path if path.suffix == ".sqlite3" else path / "bridge.sqlite3")
    try:
        row = store.load_world(world_id)
        assert row is not None
        state, events = fold(store, world_id)
        seqs = [e.seq for e in events]
        assert seqs == list(range(1, len(events) + 1)), "seq has a gap or a repeat"
        assert row.seq == len(events), "the world's seq is not its last event"
        ids = [e.request_id for e in events]
        assert len(ids) == len(set(ids)), "a request was applied twice"
        by_id = {e.request_id: e.seq for e in events}
        lost = {rid: seq for rid, seq in acked.items() if by_id.get(rid) != seq}
        assert not lost, f"acknowledged events missing or moved: {lost}"
        assert state == row.state, "the stored state is not the fold of the log"
        return events
    finally:
        store.close()
