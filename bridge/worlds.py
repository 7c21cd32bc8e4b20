"""Creating worlds and keeping the ones in use in memory, each behind its own lock."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bridge.auth import hash_token, new_token, new_world_id
from bridge.serialize import now, world_from_json, world_to_json
from bridge.store_api import Store
from rules.model import Actor, World
from rules.registry import Registry

__all__ = ["CreatedWorld", "WorldRuntime", "create_world", "now"]


@dataclass(frozen=True)
class CreatedWorld:
    world_id: str
    gm_token: str
    player_token: str

    def as_json(self) -> dict[str, str]:
        return {
            "world_id": self.world_id,
            "gm_token": self.gm_token,
            "player_token": self.player_token,
        }


def create_world(
    store: Store,
    registry: Registry,
    name: str,
    system_id: str,
    *,
    settings: dict[str, Any] | None = None,
    actors: tuple[Actor, ...] = (),
    locale: str = "es",
) -> CreatedWorld:
    """Validate settings and actors against the system and store a new world (seq 0)."""
    system = registry.get(system_id)
    checked = system.validate_settings(settings or {})
    checked["locale"] = locale
    world = World(new_world_id(), name, system_id, checked)
    for actor in actors:
        sheet = system.validate_sheet(actor.sheet)
        state = actor.state or system.initial_state(sheet)
        world = world.with_actor(
            Actor(actor.id, actor.name, actor.owner, sheet, state, actor.statuses, actor.token)
        )
    gm_token, player_token = new_token("gm"), new_token("player")
    store.create_world(
        world.id,
        name,
        system_id,
        hash_token(gm_token),
        hash_token(player_token),
        world_to_json(world),
        now(),
    )
    return CreatedWorld(world.id, gm_token, player_token)


@dataclass
class WorldRuntime:
    """A world in use: its state, its ``seq``, the lock that keeps its events in order,
    and how many connections of each (role, locale) listen to it."""

    world: World
    seq: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    members: Counter[tuple[str, str]] = field(default_factory=Counter)
    request_ids: set[int] | None = None
    """``hash()`` of every request id in the world's log and in flight, when the store
    can list them (one process on SQLite): a request whose id is not here is new, without
    a read of the store; one that is (a retry, or a hash collision) is looked up."""

    @classmethod
    def from_row(cls, state: dict[str, Any], seq: int) -> WorldRuntime:
        return cls(world_from_json(state), seq)
