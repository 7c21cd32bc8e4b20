"""Shared fixtures for the o3d10 tests: a demo world and a runner that goes through check/resolve/apply."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules.dice import DiceSource, ScriptedDice
from rules.i18n import translate
from rules.model import Action, Actor, Card, Resolution, RulesError, World
from rules.o3d10 import SYSTEM
from rules.o3d10.system import O3d10
from support.cards import texts_of

Runner = Callable[..., tuple[Resolution, World]]


def make_world(
    actors: Iterable[Actor] | None = None, settings: Mapping[str, Any] | None = None
) -> World:
    chosen = tuple(actors) if actors is not None else SYSTEM.sample_actors()
    return World(
        "w1",
        "Mesa",
        "o3d10",
        SYSTEM.validate_settings(dict(settings or {})),
        {actor.id: actor for actor in chosen},
    )


def actor(
    actor_id: str,
    attributes: Mapping[str, int],
    skills: Mapping[str, tuple[int, str]] | None = None,
    **extra: Any,
) -> Actor:
    sheet: dict[str, Any] = {
        "attributes": dict(attributes),
        "skills": {
            key: {"value": value, "attribute": attribute}
            for key, (value, attribute) in (skills or {}).items()
        },
        **extra,
    }
    normalized = SYSTEM.validate_sheet(sheet)
    return Actor(
        actor_id,
        actor_id.capitalize(),
        "u-" + actor_id,
        normalized,
        SYSTEM.initial_state(normalized),
    )


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
    source = dice if hasattr(dice, "roll") else ScriptedDice(dice)  # type: ignore[arg-type]
    action = SYSTEM.check_action(
        world, Action(kind, actor_id, dict(params or {}), targets, by_gm=by_gm)
    )
    resolution = SYSTEM.resolve(world, action, source)  # type: ignore[arg-type]
    return resolution, SYSTEM.apply(world, resolution)


def render(card: Card, locale: str = "es") -> str:
    """Every text of a card, translated strictly (a missing key or field raises)."""
    return "\n".join(
        translate(text, locale, SYSTEM.messages, strict=True) for text in texts_of(card)
    )


def check_translates(resolution: Resolution) -> None:
    for card in resolution.cards:
        for locale in ("es", "en"):
            render(card, locale)


def with_state(world: World, actor_id: str, **state: Any) -> World:
    current = world.actors[actor_id]
    return world.with_actor(replace(current, state={**current.state, **state}))


def refused(
    world: World,
    kind: str,
    actor_id: str,
    params: Mapping[str, Any] | None = None,
    targets: tuple[str, ...] = (),
    dice: Iterable[int] = (5, 5, 5) * 4,
    *,
    by_gm: bool = False,
) -> str:
    """The error code of an action the rules refuse; its message translates in es and en."""
    try:
        run(world, kind, actor_id, params, targets, dice, by_gm=by_gm)
    except RulesError as error:
        for locale in ("es", "en"):
            translate(error.message, locale, SYSTEM.messages, strict=True)
        return error.code
    raise AssertionError(f"{kind} was not refused")


class Kit:
    """The helpers above, handed to tests as the ``kit`` fixture."""

    system: O3d10 = SYSTEM
    make_world = staticmethod(make_world)
    actor = staticmethod(actor)
    run = staticmethod(run)
    render = staticmethod(render)
    texts_of = staticmethod(texts_of)
    check_translates = staticmethod(check_translates)
    with_state = staticmethod(with_state)
    refused = staticmethod(refused)


@pytest.fixture
def kit() -> Kit:
    return Kit()
