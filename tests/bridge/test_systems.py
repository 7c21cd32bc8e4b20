"""Every registered system through the real server: every button of every sample actor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.registry import default_registry
from support.live import make_env, rid

SYSTEMS = sorted(default_registry().systems)


@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_every_sample_button_resolves_cleanly(
    system_id: str, tmp_path: Path, aiohttp_server: Any
) -> None:
    async for env in make_env(tmp_path, aiohttp_server, system_id):
        gm = await env.join()
        welcome = gm.welcome
        assert welcome is not None and welcome["world"]["system"] == system_id
        actors = welcome["actors"]
        assert len(actors) >= 2, "a demo world needs at least two characters"
        pressed = ok = 0
        for actor in actors:
            others = [a["id"] for a in actors if a["id"] != actor["id"]]
            for button in actor["buttons"]:
                count = max(button["min_targets"], min(1, button["max_targets"]))
                payload = {
                    "id": rid(),
                    "actor": actor["id"],
                    "action": button["action"],
                    "params": button["params"],
                    "targets": others[:count],
                }
                ack = await gm.call(button["event"], payload)
                pressed += 1
                if ack["ok"]:
                    ok += 1
                    for card in ack["cards"]:
                        assert card["html"].startswith('<div class="vtt-card')
                        assert card["title"] and card["locale"] == "es"
                else:
                    assert ack["error"]["code"] not in ("internal_error", "invalid_field"), (
                        button,
                        ack,
                    )
                    assert ack["error"]["message"]
        assert pressed > 0 and ok > 0
