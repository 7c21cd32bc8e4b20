"""Shared helpers for the Savage Worlds tests: a demo world and a runner that checks every card."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.i18n import translate
from rules.model import Action, Actor, Resolution, World
from rules.savage_worlds import SYSTEM
from support.cards import texts_of


def check_cards(resolution: Resolution) -> list[str]:
    """Every text translates strictly in es and en; effects are plain JSON. Returns the es lines."""
    lines = []
    for card in resolution.cards:
        for text in texts_of(card):
            translate(text, "en", SYSTEM.messages, strict=True)
            lines.append(translate(text, "es", SYSTEM.messages, strict=True))
    for effect in resolution.effects:
        payload = effect.data if hasattr(effect, "data") else dict(effect.state)
        assert json.loads(json.dumps(payload)) == payload
    return lines


def make_world(settings: Mapping[str, Any] | None = None, **extra: Any) -> World:
    actors = {a.id: a for a in SYSTEM.sample_actors()}
    data = {"gm_bennies": 2, **extra.pop("data", {})}
    world = World(
        "w", "Demo", "savage_worlds", SYSTEM.validate_settings(settings or {}), actors, data
    )
    return world


def with_state(world: World, actor_id: str, statuses: Iterable[str] = (), **state: Any) -> World:
    actor = world.actors[actor_id]
    return world.with_actor(
        replace(actor, state={**actor.state, **state}, statuses=actor.statuses | set(statuses))
    )


def add_actor(
    world: World, actor_id: str, sheet: Mapping[str, Any], owner: str | None = None
) -> World:
    clean = SYSTEM.validate_sheet(sheet)
    return world.with_actor(
        Actor(actor_id, actor_id.title(), owner, clean, SYSTEM.initial_state(clean))
    )


Runner = Callable[..., tuple[World, Resolution]]


def run(
    world: World,
    kind: str,
    actor: str,
    params: Mapping[str, Any] | None = None,
    targets: Iterable[str] = (),
    dice: DiceSource | list[Any] | None = None,
) -> tuple[World, Resolution]:
    source: DiceSource
    if dice is None:
        source = SeededDice(7)
    elif isinstance(dice, list):
        source = ScriptedDice(dice)
    else:
        source = dice
    action = SYSTEM.check_action(
        world, Action(kind, actor, dict(params or {}), tuple(targets), True)
    )
    resolution = SYSTEM.resolve(world, action, source)
    check_cards(resolution)
    if isinstance(source, ScriptedDice):
        assert source.remaining == 0, f"{source.remaining} scripted dice left unused"
    return SYSTEM.apply(world, resolution), resolution
