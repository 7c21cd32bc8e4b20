"""The world's state text, re-encoding only changed actors, is the state's JSON value."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bridge.serialize import dumps, world_json_text, world_to_json
from rules.model import World
from rules.registry import default_registry


@pytest.mark.parametrize("system_id", sorted(default_registry().systems))
def test_world_json_text_is_world_to_json(system_id: str) -> None:
    system = default_registry().get(system_id)
    world = World("w-1", 'Mesa "<1>"', system_id, {**system.default_settings(), "locale": "es"})
    for actor in system.sample_actors():
        world = world.with_actor(actor)
    text = world_json_text(world)
    assert json.loads(text) == world_to_json(world)
    assert text == dumps(world_to_json(world))
    # A changed actor is a new object: its new JSON is written, not the remembered one.
    first = next(iter(world.actors.values()))
    changed = world.with_actor(replace(first, name="Otro nombre ñ", statuses=frozenset({"prone"})))
    assert json.loads(world_json_text(changed)) == world_to_json(changed)
    assert json.loads(world_json_text(world)) == world_to_json(world)
