"""The in-process CPU bench runs its rolls through Bridge.handle (every one accepted, or
it raises) and prints its figures."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from bridge.bench.handle_cpu import ROLLS, UNREACHED, UNREACHED_WORLD, attach_members, main
from bridge.engine import Session
from bridge.server import Bridge
from bridge.store import AsyncStore
from support.worlds import one_o3d10_world


@pytest.mark.parametrize("via", ["handle", "transport"])
@pytest.mark.parametrize("system", ["o3d10", "savage_worlds"])
def test_handle_cpu_runs_and_reports(
    system: str, via: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every roll accepted (or ``main`` raises), whether handed to ``Bridge.handle`` or to
    the transport as an encoded packet (then each ack comes back on the member's socket)."""
    frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
    assert main(["--system", system, "--rounds", "2", "--per", "1", "--via", via]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["system"] == system and report["via"] == via and len(report["slices"]) == 2
    assert report["median_us"] > 0 and report["loop_thread_median_us"] > 0
    # The startup heap given back to the collector, its thresholds as they were.
    assert (gc.get_freeze_count(), gc.get_threshold()) == (frozen, thresholds)


async def test_each_member_is_a_socket_in_its_worlds_room_and_gets_every_push(
    tmp_path: Path,
) -> None:
    """The bench's members are socket.io connections over engine.io sockets (no
    transport): a roll's card is queued once for each of them, as served."""
    sync, world_id, registry = one_o3d10_world(tmp_path)
    store = AsyncStore(sync)
    bridge = Bridge(store, registry, rate_limit=UNREACHED, world_limit=UNREACHED_WORLD)
    members, drains = await attach_members(
        bridge, world_id, [Session(f"u{i}", "gm", "es") for i in range(5)]
    )
    for task in drains:  # what each member would write is left in its queue
        task.cancel()
    ack = await bridge.handle(members[0].conn, "roll", ({"id": "a" * 32, **ROLLS["o3d10"]},), "es")
    assert ack["ok"], ack
    sockets = list(bridge.sio.eio.sockets.values())
    assert len(sockets) == 5 and [s.queue.qsize() for s in sockets] == [1] * 5
    assert len({s.queue.get_nowait().data for s in sockets}) == 1  # one encoding, five copies
    await store.close()
