"""The served A/B comparison (bridge/bench/ab.py): its variants, and one short real run."""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import pytest

from bridge.bench.ab import LoopTime, compare, main, parse_variant, report, round_orders
from bridge.bench.net import ROOT


def test_a_variant_splits_environment_arguments_and_checkout() -> None:
    variant = parse_variant("VTT_PURE=1 --sync normal 'X_Y=a b' lower=kept")
    assert variant.env == {"VTT_PURE": "1", "X_Y": "a b"}
    assert variant.args == ("--sync", "normal", "lower=kept")
    assert variant.root == ROOT
    command = variant.command(Path("/tmp/data"))
    assert command[0] == sys.executable
    assert command[-4:] == ["0", "--sync", "normal", "lower=kept"]
    assert variant.environment()["VTT_PURE"] == "1"
    assert variant.environment()["PATH"] == os.environ["PATH"]


def test_an_empty_variant_is_the_bridge_as_benched() -> None:
    variant = parse_variant("")
    assert variant.env == {} and variant.args == () and variant.root == ROOT


def test_another_checkout_runs_with_its_own_python(tmp_path: Path) -> None:
    same = parse_variant(f"ROOT={ROOT}")
    assert same.root == ROOT and same.command(tmp_path)[0] == sys.executable
    with pytest.raises(ValueError, match=r"no \.venv/bin/python"):
        parse_variant(f"ROOT={tmp_path}")
    other = tmp_path / "other"
    (other / ".venv" / "bin").mkdir(parents=True)
    (other / ".venv" / "bin" / "python").touch()
    assert parse_variant(f"ROOT={other}").command(tmp_path)[0] == str(
        other / ".venv" / "bin" / "python"
    )


def test_an_unknown_scenario_is_refused_with_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--scenario", "o3d10 roll x7", "--rounds", "1"])
    assert exited.value.code == 2
    assert "o3d10 roll x50" in capsys.readouterr().err


def test_one_short_round_serves_floor_and_both_bridges() -> None:
    """Real servers and load generators: every window served requests, none failed, and
    B's extra serve argument reached its server (it started, so it was accepted)."""
    comparison = compare("o3d10 roll x1", parse_variant(""), parse_variant("--sync normal"), 1, 0.3)
    (row,) = comparison.rounds
    assert set(row) == {"floor", "A", "B"}
    for window in row.values():
        assert window.requests > 0 and window.errors == 0 and window.seconds > 0
        # The loop thread served the window: some of it on a CPU, never more than its wall.
        assert window.loop.wall > 0 and window.loop.running > 0
        assert window.loop.running + window.loop.queued <= window.loop.wall * 1.05
    text = report(comparison)
    assert "A = [], B = [--sync normal]" in text and "B / A:" in text
    assert text.count("loop thread: on a CPU") == 3


def test_the_loop_threads_time_adds_up_and_splits_into_shares() -> None:
    total = LoopTime(0.6, 0.1, 1.0) + LoopTime(0.2, 0.1, 1.0)
    assert total == LoopTime(0.8, 0.2, 2.0)
    running, queued, off = total.shares()
    assert (running, queued) == (0.4, 0.1) and abs(off - 0.5) < 1e-12
    assert LoopTime(0.0, 0.0, 0.0).shares() == (0.0, 0.0, 0.0)
    # A window read with a little skew between the clocks never shows a negative share.
    assert LoopTime(0.95, 0.1, 1.0).shares()[2] == 0.0


def test_the_rounds_give_both_bridges_the_same_places() -> None:
    """No server serves two windows in a row, and over an even number of rounds A and B
    are each second as often as third, and follow each other server as often."""
    orders = round_orders(6)
    windows = [target for order in orders for target in order]
    assert all(sorted(order) == ["A", "B", "floor"] for order in orders)
    assert all(first != second for first, second in itertools.pairwise(windows))
    for bridge in ("A", "B"):
        places = [order.index(bridge) for order in orders]
        assert places.count(1) == places.count(2) == 3
        before = [windows[i - 1] for i, target in enumerate(windows) if target == bridge and i]
        other = "B" if bridge == "A" else "A"
        assert before.count("floor") == before.count(other) == 3
