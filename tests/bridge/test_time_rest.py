"""time_advance with rest or not: recovery that needs rest waits for a day of rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.live import make_env, rid


def lines(ack: dict[str, Any]) -> list[str]:
    return [line for c in ack["cards"] for s in c["sections"] for line in s["lines"]]


async def test_omerta_contusion_heals_only_after_a_day_of_rest(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    async for env in make_env(tmp_path, aiohttp_server, "omerta"):
        gm = await env.join()
        ack = await gm.call(
            "actor_state", {"id": rid(), "actor": "jimmy", "state": {"hp": 10, "contusion": 4}}
        )
        assert ack["ok"], ack
        busy = await gm.call("time_advance", {"id": rid(), "unit": "day", "rest": False})
        assert busy["ok"], busy
        assert lines(busy)[0] == "Pasan 1 días"
        assert not any("contusión" in line for line in lines(busy)), lines(busy)
        rested = await gm.call("time_advance", {"id": rid(), "unit": "day"})
        assert "Jimmy Brincos recupera 4 PV de contusión" in lines(rested), lines(rested)


async def test_brp_d10_light_wound_heals_only_while_resting(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    async for env in make_env(tmp_path, aiohttp_server, "brp_d10"):
        gm = await env.join()
        wound = await gm.call(
            "damage_apply",
            {
                "id": rid(),
                "actor": "frances",
                "action": "wound",
                "params": {"location": "pierna_derecha", "level": 1},
            },
        )
        assert wound["ok"], wound
        busy = await gm.call("time_advance", {"id": rid(), "unit": "hour", "rest": False})
        assert busy["ok"], busy
        assert not any(
            "curada" in line.lower() or "cura" in line.lower() for line in lines(busy)
        ), lines(busy)
        rested = await gm.call("time_advance", {"id": rid(), "unit": "hour"})
        assert rested["ok"], rested
        healed = [t for t in rested["tokens"] if t["actor"] == "frances"]
        assert healed and "wounded" in healed[0]["removed"], (lines(rested), rested["tokens"])
