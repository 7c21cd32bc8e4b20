"""Bots drive a live server; what they played replays with no divergence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridge.bots import run_bots
from bridge.replay import replay
from bridge.sessions import export_lines, load_session
from rules.registry import default_registry
from support.live import make_env


@pytest.mark.parametrize("system_id", sorted(default_registry().systems))
async def test_bots_play_and_the_log_replays(
    system_id: str, tmp_path: Path, aiohttp_server: Any
) -> None:
    async for env in make_env(tmp_path, aiohttp_server, system_id):
        result = await run_bots(
            env.url.rstrip("/"),
            env.world.gm_token,
            env.world.player_token,
            players=2,
            requests=60,
            seconds=30,
            seed=3,
        )
        assert result["requests"] >= 60
        assert "internal_error" not in result["refused"]
        assert "invalid_field" not in result["refused"], result["refused"]
        assert result["ok"] > 0
        registry = default_registry()
        session = load_session(list(export_lines(env.store, env.world.world_id)), registry)
        report = replay(session, registry)
        assert report.events == env.seq() and not report.divergences
