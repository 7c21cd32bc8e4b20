"""The in-process CPU bench runs its rolls through Bridge.handle (every one accepted, or
it raises) and prints its figures."""

from __future__ import annotations

import gc
import json

import pytest

from bridge.bench.handle_cpu import main


@pytest.mark.parametrize("system", ["o3d10", "savage_worlds"])
def test_handle_cpu_runs_and_reports(system: str, capsys: pytest.CaptureFixture[str]) -> None:
    frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
    assert main(["--system", system, "--rounds", "2", "--per", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["system"] == system and len(report["slices"]) == 2
    assert report["median_us"] > 0 and report["loop_thread_median_us"] > 0
    # The startup heap given back to the collector, its thresholds as they were.
    assert (gc.get_freeze_count(), gc.get_threshold()) == (frozen, thresholds)
