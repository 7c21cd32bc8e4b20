"""Rendered actors are remembered by (actor, world settings, world data, locale): the
remembered view is exactly what rendering again gives, and a changed input renders again."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from bridge.render import _ACTOR_VIEWS, Renderer
from bridge.serialize import actor_to_json
from rules.model import Actor, World
from rules.registry import default_registry


def _world(system_id: str, **changes: Any) -> World:
    system = default_registry().get(system_id)
    actors = {a.id: a for a in system.sample_actors()}
    world = World("w1", "Mesa", system_id, system.default_settings(), actors, {})
    return dataclasses.replace(world, **changes)


def _text(view: Any) -> str:
    return json.dumps(view, ensure_ascii=False, sort_keys=False)


@pytest.mark.parametrize("system_id", sorted(default_registry().systems))
@pytest.mark.parametrize("role", ["gm", "player"])
@pytest.mark.parametrize("locale", ["es", "en"])
def test_remembered_views_are_byte_identical_to_a_fresh_rendering(
    system_id: str, role: str, locale: str
) -> None:
    world = _world(system_id)
    hidden = next(iter(world.actors.values()))
    world = dataclasses.replace(
        world,
        actors={**world.actors, "ghost": dataclasses.replace(hidden, id="ghost", hidden=True)},
    )
    renderer = Renderer(default_registry().get(system_id))
    for actor in world.actors.values():
        fresh = Renderer(renderer.system)._render_actor(world, actor, locale, role)
        first = renderer.actor(world, actor, locale, role)
        again = renderer.actor(world, actor, locale, role)
        push = {"actor": actor_to_json(actor)}
        update = renderer.actor_update(world, 3, push, locale, role)["actor"]
        assert _text(first) == _text(again) == _text(update) == _text(fresh)
        assert fresh["buttons"] or (actor.hidden and role != "gm")


def test_a_view_is_reused_while_its_inputs_are_equal() -> None:
    world = _world("savage_worlds")
    renderer = Renderer(default_registry().get("savage_worlds"))
    actor = next(iter(world.actors.values()))
    view = renderer.actor(world, actor, "es")
    # The same actor as another object (an actor_update's JSON), another role: same view.
    assert (
        renderer.actor_update(world, 9, {"actor": actor_to_json(actor)}, "es", "player")["actor"]
        is view
    )
    assert renderer.actor(world, dataclasses.replace(actor), "es", "gm") is view
    assert renderer.actor(world, actor, "en") is not view


def test_changed_settings_render_the_buttons_again() -> None:
    world = _world("savage_worlds")
    renderer = Renderer(default_registry().get("savage_worlds"))
    actor = next(iter(world.actors.values()))
    core = renderer.actor(world, actor, "en")
    xcom_world = dataclasses.replace(world, settings={**world.settings, "variant": "xcom"})
    xcom = renderer.actor(xcom_world, actor, "en")
    assert len(xcom["buttons"]) > len(core["buttons"])
    assert _text(xcom) == _text(
        Renderer(renderer.system)._render_actor(xcom_world, actor, "en", "gm")
    )
    assert renderer.actor(world, actor, "en") is core


def test_changed_world_data_renders_the_buttons_again() -> None:
    world = _world("omerta")
    renderer = Renderer(default_registry().get("omerta"))
    actor = next(iter(world.actors.values()))
    events = {b["event"] + b["action"] for b in renderer.actor(world, actor, "es")["buttons"]}
    fighting = dataclasses.replace(world, data={"tracker": {"round": 1}})
    during = {b["event"] + b["action"] for b in renderer.actor(fighting, actor, "es")["buttons"]}
    assert "rollinitiative" in events
    assert "rollinitiative" not in during


def test_a_changed_actor_renders_again() -> None:
    world = _world("savage_worlds")
    renderer = Renderer(default_registry().get("savage_worlds"))
    actor = next(iter(world.actors.values()))
    before = renderer.actor(world, actor, "es")
    renamed = dataclasses.replace(actor, name="<i>Otra</i>", statuses=frozenset({"shaken"}))
    after = renderer.actor(world, renamed, "es")
    assert after["name"] == "<i>Otra</i>" and after["statuses"] == ["shaken"]
    assert before["name"] == actor.name and before["statuses"] == sorted(actor.statuses)
    hidden = renderer.actor(world, dataclasses.replace(actor, hidden=True), "es", "player")
    assert hidden["buttons"] == [] and hidden["sheet"] == {}


def test_the_remembered_views_are_bounded() -> None:
    world = _world("cunchillos")
    renderer = Renderer(default_registry().get("cunchillos"))
    actor: Actor = next(iter(world.actors.values()))
    for i in range(_ACTOR_VIEWS + 50):
        renderer.actor(world, dataclasses.replace(actor, name=f"n{i}"), "es")
    assert len(renderer._actor_views) == _ACTOR_VIEWS


SOME_DATA: tuple[dict[str, Any], ...] = (
    {"tracker": {"round": 1}},
    {"combat": {"active": True, "round": 2}},
    {"pending": {"h1": {"victim": "x", "wounds": 1}}, "gm_bennies": 2},
    {"deck": {"draw": [1, 2, 3], "discard": []}, "next_id": 41},
)
"""World data of the kinds the systems keep (a tracker, a fight, pending hits, a deck, ids)."""


DATA_BLIND = sorted(
    system_id
    for system_id, system in default_registry().systems.items()
    if not system.buttons_read_data
)


@pytest.mark.parametrize("system_id", DATA_BLIND)
def test_a_system_whose_buttons_do_not_read_the_world_data_keeps_its_views(
    system_id: str,
) -> None:
    """``buttons_read_data = False`` is a promise: the buttons are the same whatever the
    world's data holds; the renderer then keeps an actor's view while the data changes."""
    system = default_registry().get(system_id)
    world = _world(system_id)
    renderer = Renderer(system)
    for actor in world.actors.values():
        view = renderer.actor(world, actor, "es")
        for data in SOME_DATA:
            changed = dataclasses.replace(world, data=data)
            assert system.buttons(changed, actor) == system.buttons(world, actor)
            assert renderer.actor(changed, actor, "es") is view
            fresh = Renderer(system)._render_actor(changed, actor, "es", "gm")
            assert _text(fresh) == _text(view)


def test_savage_worlds_buttons_do_not_read_the_world_data() -> None:
    assert "savage_worlds" in DATA_BLIND
