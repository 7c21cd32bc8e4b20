"""A store holding one o3d10 world with the system's sample actors (in-process tests)."""

from __future__ import annotations

from pathlib import Path

from bridge.store import SQLiteStore
from bridge.worlds import create_world
from rules.registry import Registry, default_registry


def one_o3d10_world(
    tmp_path: Path, registry: Registry | None = None
) -> tuple[SQLiteStore, str, Registry]:
    """The store (``bridge.sqlite3`` under ``tmp_path``), its world's id and the registry."""
    registry = registry or default_registry()
    store = SQLiteStore(tmp_path / "bridge.sqlite3")
    world = create_world(
        store, registry, "w", "o3d10", actors=registry.get("o3d10").sample_actors()
    )
    return store, world.world_id, registry
