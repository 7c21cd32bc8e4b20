"""Demo worlds for ``make run``: one per registered system, created once.

Tokens are stored hashed, so the demo's tokens are also kept in
``<data>/demo-worlds.json`` to be shown on every start. That file opens the
demo worlds only; never keep real worlds' tokens in plain text.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from bridge.store_api import Store
from bridge.worlds import create_world
from rules.registry import default_registry

DEMO_USERS = ("ana", "beto")


def ensure_demo_worlds(store: Store, data: Path) -> dict[str, Any]:
    registry = default_registry()
    path = data / "demo-worlds.json"
    known: dict[str, Any] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    existing = {row.id for row in store.list_worlds()}
    for system_id, system in registry.systems.items():
        entry = known.get(system_id)
        if entry and entry["world_id"] in existing:
            continue
        actors = tuple(
            replace(actor, owner=DEMO_USERS[i] if i < len(DEMO_USERS) else None)
            for i, actor in enumerate(system.sample_actors())
        )
        created = create_world(
            store,
            registry,
            f"Demo {system.names.get('es', system_id)}",
            system_id,
            actors=actors,
        )
        known[system_id] = {
            **created.as_json(),
            "system": system_id,
            "players": {actor.owner: actor.name for actor in actors if actor.owner is not None},
        }
    data.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, ensure_ascii=False, indent=2), "utf-8")
    return known
