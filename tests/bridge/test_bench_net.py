"""How the network benchmark spreads its connections over the load generators, and warms
up each window."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bridge.bench.net import (
    MEMBERS,
    O3D10_ROLL,
    WARMUP_SECONDS,
    CpuWindow,
    Server,
    _bridge_command,
    _loaders,
    _setup_worlds,
    generator_connections,
    warmup_for,
)


@pytest.mark.parametrize(
    ("connections", "worlds", "processes"), [(50, 10, 2), (50, 10, 3), (500, 100, 2), (1, 1, 1)]
)
def test_every_connection_is_held_once(connections: int, worlds: int, processes: int) -> None:
    held = generator_connections(connections, worlds, processes)
    assert len(held) == processes
    assert sorted(i for part in held for i in part) == list(range(connections))
    assert all(part == sorted(part) for part in held)


@pytest.mark.parametrize("processes", [2, 3])
def test_each_world_s_members_and_active_members_are_spread(processes: int) -> None:
    """Ten worlds of five: no generator holds a whole world (a table's players are
    separate browsers), and the worlds' first members (the attack rows' active ones,
    member 0 of each world) are shared out evenly, not all in one generator."""
    worlds = 10
    held = generator_connections(worlds * MEMBERS, worlds, processes)
    for part in held:
        per_world = Counter(i % worlds for i in part)
        assert max(per_world.values()) < MEMBERS
    active = [sum(1 for i in part if i // worlds == 0) for part in held]
    assert max(active) - min(active) <= 1
    assert sum(active) == worlds
    sizes = [len(part) for part in held]
    assert max(sizes) - min(sizes) <= 1


def test_a_window_s_warm_up_is_served_and_not_counted(tmp_path: Path) -> None:
    """Real bridge, real generators: with a warm-up, each generator runs the scenario
    before it says it is ready, and the window counts only its own requests (a roll is
    one request an operation, so the two counts agree only if the warm-up's were left
    out). The store holds both."""
    from bridge.store import SQLiteStore

    tokens = _setup_worlds(tmp_path, {"o3d10": 1})["o3d10"]
    server = Server(_bridge_command(tmp_path))
    try:
        window = CpuWindow(server.pid)
        script = {"event": "roll", "payload": O3D10_ROLL}
        results = _loaders(server.url, tokens, 2, 0.3, False, script, 1, window=window, warmup=0.3)
    finally:
        server.stop()
    (result,) = results
    assert result["errors"] == 0 and result["warmup_requests"] > 0
    assert result["requests"] == result["operations"] > 0
    store = SQLiteStore(tmp_path / "bridge.sqlite3")
    try:
        (world,) = store.list_worlds()
        written = store.load_world(world.id)
        assert written is not None
        assert written.seq == result["warmup_requests"] + result["requests"]
    finally:
        store.close()


def test_full_windows_get_the_full_warm_up_and_short_ones_a_short_one() -> None:
    assert warmup_for(2.0) == WARMUP_SECONDS == 1.0  # make bench: 4 s a row in 2 slices
    assert warmup_for(1.0) == warmup_for(0.3) == 0.2  # quick runs, smoke tests
