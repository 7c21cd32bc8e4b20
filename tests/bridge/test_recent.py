"""Recent durable events read from memory (bridge/recent.py) read as the store reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.recent import RecentEvents
from bridge.store import NewEvent, SQLiteStore, StoreError
from support.live import Env, rid

WORLD = "w1"


def _event(seq: int, **extra: Any) -> NewEvent:
    fields: dict[str, Any] = {
        "seq": seq,
        "request_id": f"r{seq}",
        "event": "roll",
        "user": "gm",
        "role": "gm",
        # A tuple, a big integer, text outside ASCII: read back as JSON gives them
        # (a list, the same integer through the standard parser, the same text).
        "payload": {"id": f"r{seq}", "targets": ("a", "b"), "n": 2**70, "note": "¡Ñu!"},
        "payload_hash": "h",
        "draws": [[10, seq % 10 + 1]],
        "pushes": [{"type": "chat_card", "index": 0, "card": {"actions": [], "t": (1, 2)}}],
        "undo": {"actors": {"a": {"state": {"wounds": seq}}}},
        "created_at": "2026-11-30T00:00:00Z",
    }
    fields.update(extra)
    return NewEvent(**fields)


def _store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "bridge.sqlite3")
    store.create_world(WORLD, "W", "o3d10", "g", "p", {}, "2026-11-30T00:00:00Z")
    return store


def test_rows_and_used_follow_ups_read_as_the_store_reads_them(tmp_path: Path) -> None:
    store, recent = _store(tmp_path), RecentEvents()
    events = [
        _event(1),
        _event(2, used_follow_ups=(("1.0", "damage-a"), ("1.0", "damage-b"))),
        _event(3, undo=None, released_follow_ups=(("1.0", "damage-a"),)),
        _event(4, used_follow_ups=(("3.0", "soak"), ("1.0", "damage-a"))),
        _event(5, released_follow_ups=(("1.0", "damage-b"), ("3.0", "soak"))),
    ]
    for event in events:
        store.append(WORLD, event, "{}")
        recent.remember(WORLD, event)
        for seq in range(1, event.seq + 1):
            row = recent.row(WORLD, seq)
            assert row == store.event_at(WORLD, seq)
            assert row is not None and isinstance(row.payload["targets"], list)
            for card in (f"{seq}.0", f"{seq}.1"):
                used = recent.used(WORLD, card, event.seq)
                assert used == store.used_follow_ups(WORLD, [card]), (card, event.seq)
    first, again = recent.row(WORLD, 1), recent.row(WORLD, 1)
    assert first is not None and again is not None and first.pushes is not again.pushes
    store.close()


def test_a_gap_or_what_fell_out_is_read_from_the_store(tmp_path: Path) -> None:
    recent = RecentEvents(limit=3)
    for seq in (1, 2, 4):  # 3 was not made durable here (another process, another way)
        recent.remember(WORLD, _event(seq, used_follow_ups=((f"{seq - 1}.0", "x"),)))
    assert recent.row(WORLD, 3) is None
    assert recent.used(WORLD, "1.0", 2) == {("1.0", "x")}
    assert recent.used(WORLD, "2.0", 4) is None  # event 3 missing: the store decides
    assert recent.used(WORLD, "9.0", 4) is None  # a card past the head
    assert recent.row("other", 1) is None
    recent.remember(WORLD, _event(5))
    assert len(recent) == 3 and recent.row(WORLD, 1) is None  # the oldest fell out
    off = RecentEvents(limit=0)  # a cluster: never remembers
    off.remember(WORLD, _event(1))
    assert len(off) == 0 and off.row(WORLD, 1) is None and off.used(WORLD, "1.0", 1) is None


async def test_a_failed_write_is_not_remembered_and_an_undo_reads_memory_not_the_store(
    env: object,
) -> None:
    """A write that failed is never remembered: its seq goes to the next event, which is
    remembered as written. An undo of a recent event reads it from memory (no store read)."""
    from bridge.server import BRIDGE_KEY

    assert isinstance(env, Env)
    gm = await env.join()
    bridge = env.app[BRIDGE_KEY]
    roll = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}
    first = await gm.call("roll", {"id": rid(), **roll})
    assert first["ok"]
    original = env.store.append_many

    def failing(items: list[object]) -> list[object]:
        return [StoreError("disk I/O error (simulated)") for _ in items]

    env.store.append_many = failing  # type: ignore[method-assign,assignment]
    failed = await gm.call("roll", {"id": rid(), **roll, "params": {"attribute": "destreza"}})
    assert failed["error"]["code"] == "store_error"
    env.store.append_many = original  # type: ignore[method-assign]
    world_id = env.world.world_id
    assert bridge.recent.row(world_id, first["seq"] + 1) is None
    second = await gm.call("roll", {"id": rid(), **roll})
    assert second["ok"] and second["seq"] == first["seq"] + 1
    remembered = bridge.recent.row(world_id, second["seq"])
    assert remembered is not None and remembered.payload["params"] == {"attribute": "fisico"}
    assert remembered == env.store.event_at(world_id, second["seq"])
    reads: list[int] = []
    event_at = env.store.event_at

    def counted(world_id: str, seq: int) -> Any:
        reads.append(seq)
        return event_at(world_id, seq)

    env.store.event_at = counted  # type: ignore[method-assign]
    hits = bridge.recent.hits
    undone = await gm.call("undo", {"id": rid(), "seq": second["seq"]})
    # A roll changed nothing: the answer comes from the event read (from memory).
    assert undone["error"]["code"] == "nothing_to_undo", undone
    assert reads == [] and bridge.recent.hits == hits + 1
