"""An in-process bridge with chosen limits (the shared ``env`` fixture switches limits off)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.limits import DEFAULT_AUTH, DEFAULT_WORLD, AuthLimit, RateLimit, WorldLimit
from bridge.server import create_app
from bridge.store import AsyncStore, SQLiteStore
from bridge.worlds import CreatedWorld, create_world
from rules.dice import SeededDice
from rules.registry import default_registry

FAST = RateLimit(10_000, 10_000)


@dataclass
class Limited:
    url: str
    store: SQLiteStore
    worlds: list[CreatedWorld]
    app: Any

    def auth(self, index: int = 0, role: str = "gm", user: str = "dm") -> dict[str, Any]:
        world = self.worlds[index]
        token = world.gm_token if role == "gm" else world.player_token
        return {"token": token, "user": user, "name": user, "protocol": 1}


async def limited_app(
    tmp_path: Path,
    aiohttp_server: Any,
    *,
    worlds: int = 1,
    rate: RateLimit = FAST,
    world: WorldLimit = DEFAULT_WORLD,
    auth: AuthLimit = DEFAULT_AUTH,
    system: str = "o3d10",
    trusted_proxies: frozenset[str] = frozenset(),
) -> Limited:
    registry = default_registry()
    store = SQLiteStore(tmp_path / "bridge.sqlite3", synchronous="NORMAL")
    sample = registry.get(system).sample_actors()
    created = [
        create_world(store, registry, f"Mesa {n}", system, actors=sample) for n in range(worlds)
    ]
    seeds = iter(range(1, 10**9))
    app = create_app(
        AsyncStore(store),
        registry,
        dice_factory=lambda: SeededDice(next(seeds)),
        rate_limit=rate,
        world_limit=world,
        auth_limit=auth,
        trusted_proxies=trusted_proxies,
    )
    server = await aiohttp_server(app, host="127.0.0.1")
    return Limited(str(server.make_url("/")), store, created, app)
