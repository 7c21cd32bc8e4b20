"""The upper bounds' store patches (bridge/bench/bounds.py): each takes away what it says
and nothing else, on a real SQLite store; the A/B harness serves them by name."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.bench import bounds
from bridge.bench.ab import compare, parse_variant, report
from bridge.store import AsyncStore, NewEvent, SQLiteStore, StoreError

STATE = {"id": "w", "name": "w", "system": "o3d10", "settings": {}, "actors": {}, "data": {}}


def event(seq: int) -> NewEvent:
    card = {"type": "chat_card", "index": 0, "card": {"title": "Disparar", "n": seq}}
    return NewEvent(
        seq, f"req-{seq}", "roll", "ana", "gm", {"n": seq}, "hash", [[6, 4]], [card], None, "now"
    )


def opened(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    store.create_world("w", "w", "o3d10", "g", "p", STATE, "now")
    return store


def records(path: Path) -> list[Any]:
    with sqlite3.connect(path) as db:
        return [orjson.loads(r) for (r,) in db.execute("SELECT record FROM events ORDER BY seq")]


def indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
    return {name for (name,) in rows}


def test_names_are_checked_and_kept_in_order() -> None:
    assert bounds.parse("no-cards+no-log-index") == ["no-cards", "no-log-index"]
    with pytest.raises(ValueError, match="known: no-log-index, no-cards"):
        bounds.parse("no-index")
    with pytest.raises(ValueError, match="names no bound"):
        bounds.parse("+")
    with pytest.raises(ValueError, match="twice"):
        bounds.parse("no-write+no-write")
    with pytest.raises(ValueError, match="two records"):
        bounds.parse("no-cards+bare-record")


def test_no_log_index_drops_the_index_and_the_log_still_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.sqlite3"
    opened(path).close()
    assert "events_log" in indexes(path)
    bounds.apply(["no-log-index"], monkeypatch.setattr)
    store = SQLiteStore(path)
    assert store.append_many([("w", event(1), STATE), ("w", event(2), STATE)]) == [None, None]
    assert "events_log" not in indexes(path)
    assert [e.seq for e in store.events_after("w", 0)] == [1, 2]
    assert store.find_request("w", "req-2") is not None
    store.close()


def test_no_cards_writes_the_record_without_its_pushes_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, bare = tmp_path / "whole.sqlite3", tmp_path / "bare.sqlite3"
    store = opened(whole)
    store.append_many([("w", event(1), STATE)])
    store.close()
    bounds.apply(["no-cards"], monkeypatch.setattr)
    store = opened(bare)
    store.append_many([("w", event(1), STATE)])
    store.close()
    (kept,), (stripped,) = records(whole), records(bare)
    assert kept[6] == [event(1).pushes[0]] and stripped[6] is None
    assert stripped[:6] == kept[:6] and stripped[7:] == kept[7:]


def test_bare_record_writes_two_fields(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bounds.apply(["bare-record"], monkeypatch.setattr)
    path = tmp_path / "s.sqlite3"
    store = opened(path)
    store.append_many([("w", event(1), STATE)])
    store.close()
    assert records(path) == [["roll", "hash"]]


def test_no_write_answers_every_event_and_writes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds.apply(["no-write"], monkeypatch.setattr)
    path = tmp_path / "s.sqlite3"
    store = opened(path)
    assert store.append_many([("w", event(1), STATE), ("w", event(2), STATE)]) == [None, None]
    store.close()
    assert records(path) == []


async def test_answer_at_hand_over_answers_before_the_write_ends_and_still_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds.apply(["answer-at-hand-over"], monkeypatch.setattr)
    path = tmp_path / "s.sqlite3"
    sync = opened(path)
    release = asyncio.Event()
    written: list[int] = []
    original = sync.append_many
    loop = asyncio.get_running_loop()

    def held(items: list[tuple[str, NewEvent, Any]]) -> list[StoreError | None]:
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)
        written.append(len(items))
        return original(items)

    monkeypatch.setattr(sync, "append_many", held)
    store = AsyncStore(sync)
    answered: list[StoreError | None] = []
    for seq in (1, 2, 3):
        store.hand("w", event(seq), STATE, answered.append)
    for _ in range(200):  # the gathering goes quiet and hands the group over
        if answered:
            break
        await asyncio.sleep(0.001)
    assert answered == [None, None, None] and written == []  # answered, not yet written
    release.set()
    await store.close()
    assert written == [3] and [r[0] for r in records(path)] == ["roll"] * 3


def test_a_variant_serves_its_bounds_through_the_module(tmp_path: Path) -> None:
    variant = parse_variant("BOUND=no-cards+no-log-index --sync normal")
    assert variant.bound == "no-cards+no-log-index" and variant.args == ("--sync", "normal")
    command = variant.command(tmp_path)
    assert command[:5] == [sys.executable, "-m", "bridge.bench.bounds", "--bound", variant.bound]
    assert command[5] == "serve" and command[-2:] == ["--sync", "normal"]
    assert parse_variant("--sync normal").command(tmp_path)[1:3] == ["-m", "bridge"]
    with pytest.raises(ValueError, match="no bound 'fast'"):
        parse_variant("BOUND=fast")


def test_a_short_round_serves_a_bound_against_the_bridge() -> None:
    """Real servers: the bounded bridge starts through the module and serves every request."""
    comparison = compare(
        "o3d10 roll x1", parse_variant(""), parse_variant("BOUND=no-log-index+no-cards"), 1, 0.3
    )
    (row,) = comparison.rounds
    assert all(w.requests > 0 and w.errors == 0 for w in row.values())
    assert "B = [BOUND=no-log-index+no-cards]" in report(comparison)
