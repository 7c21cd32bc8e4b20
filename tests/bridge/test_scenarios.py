"""Every scenario file under tests/scenarios replays with no divergence (the worked examples)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.replay import replay
from bridge.sessions import load_session
from rules.registry import default_registry

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").rglob("*.jsonl"))
REGISTRY = default_registry()


def test_there_are_scenarios_for_every_system() -> None:
    systems = {path.parent.name for path in SCENARIOS}
    assert systems >= set(REGISTRY.systems), systems


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scenario(path: Path) -> None:
    with path.open(encoding="utf-8") as handle:
        session = load_session(handle, REGISTRY)
    report = replay(session, REGISTRY)
    assert not report.divergences, "\n".join(d.describe() for d in report.divergences)
    assert report.events > 0
