"""How the network benchmark spreads its connections over the load generators."""

from __future__ import annotations

from collections import Counter

import pytest

from bridge.bench.net import MEMBERS, generator_connections


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
