"""Shared helpers for the Omertà tests: a demo world, percentile scripts, a runner through
check/resolve/apply, and strict translation of every card text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules.dice import DiceSource, ScriptedDice
from rules.i18n import translate
from rules.model import Action, Actor, Card, Resolution, TimeStep, World
from rules.omerta import SYSTEM
from support.cards import texts_of


def pct(value: int) -> list[int]:
    """The two d10 faces (tens, units; a 10 reads 0) that make ``value`` on a d100."""
    tens, units = divmod(value % 100, 10)
    return [tens or 10, units or 10]


def make_world(
    actors: Iterable[Actor] | None = None,
    settings: Mapping[str, Any] | None = None,
    data: Mapping[str, Any] | None = None,
) -> World:
    chosen = tuple(actors) if actors is not None else SYSTEM.sample_actors()
    return World(
        "w1",
        "Chicago",
        "omerta",
        SYSTEM.validate_settings(dict(settings or {})),
        {actor.id: actor for actor in chosen},
        dict(data or {}),
    )


def with_state(world: World, actor_id: str, **state: Any) -> World:
    actor = world.actors[actor_id]
    return world.with_actor(replace(actor, state={**actor.state, **state}))


def with_statuses(world: World, actor_id: str, *statuses: str) -> World:
    actor = world.actors[actor_id]
    return world.with_actor(replace(actor, statuses=frozenset(statuses)))


def run(
    world: World,
    kind: str,
    actor_id: str,
    params: Mapping[str, Any] | None = None,
    targets: tuple[str, ...] = (),
    dice: DiceSource | Iterable[int] = (),
    *,
    by_gm: bool = False,
) -> tuple[Resolution, World]:
    source: Any = dice if hasattr(dice, "roll") else ScriptedDice(dice)  # type: ignore[arg-type]
    action = SYSTEM.check_action(
        world, Action(kind, actor_id, dict(params or {}), targets, by_gm=by_gm)
    )
    resolution = SYSTEM.resolve(world, action, source)
    check_translates(resolution)
    return resolution, SYSTEM.apply(world, resolution)


def render(card: Card, locale: str = "es") -> str:
    return "\n".join(
        translate(text, locale, SYSTEM.messages, strict=True) for text in texts_of(card)
    )


def check_translates(resolution: Resolution) -> None:
    for card in resolution.cards:
        for locale in ("es", "en"):
            render(card, locale)


def advance_res(world: World, unit: str, count: int, faces: Iterable[int] = ()) -> Resolution:
    resolution = SYSTEM.advance_time(world, TimeStep(unit, count), ScriptedDice(faces))  # type: ignore[arg-type]
    assert resolution is not None
    check_translates(resolution)
    return resolution


def fold(world: World, resolution: Resolution) -> World:
    return SYSTEM.apply(world, resolution)


def advance(world: World, unit: str, count: int, faces: Iterable[int] = ()) -> World:
    return fold(world, advance_res(world, unit, count, faces))


def edit_sheet(world: World, actor_id: str, **changes: Any) -> World:
    actor = world.actors[actor_id]
    sheet = SYSTEM.validate_sheet({**actor.sheet, **changes})
    return world.with_actor(replace(actor, sheet=sheet))


class Kit:
    """The helpers above, handed to tests as the ``kit`` fixture (importlib mode)."""

    system = SYSTEM
    pct = staticmethod(pct)
    make_world = staticmethod(make_world)
    with_state = staticmethod(with_state)
    with_statuses = staticmethod(with_statuses)
    edit_sheet = staticmethod(edit_sheet)
    run = staticmethod(run)
    advance = staticmethod(advance)
    advance_res = staticmethod(advance_res)
    fold = staticmethod(fold)
    render = staticmethod(render)
    texts_of = staticmethod(texts_of)
    check_translates = staticmethod(check_translates)


@pytest.fixture
def kit() -> Kit:
    return Kit()
