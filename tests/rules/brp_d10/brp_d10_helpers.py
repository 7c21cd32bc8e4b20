"""Helpers for the brp_d10 tests: worlds, running actions and follow-ups, translating cards."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rules.brp_d10 import SYSTEM
from rules.brp_d10.samples import SAMPLE_SHEETS
from rules.dice import ScriptedDice
from rules.i18n import translate
from rules.model import Action, Actor, Card, FollowUp, Line, Resolution, Section, Text, World

SAMPLES = {actor_id: sheet for actor_id, _, sheet in SAMPLE_SHEETS}


def make_actor(
    actor_id: str, sheet: Mapping[str, Any], name: str | None = None, owner: str | None = None
) -> Actor:
    normal = SYSTEM.validate_sheet(sheet)
    return Actor(
        actor_id, name or actor_id.capitalize(), owner, normal, SYSTEM.initial_state(normal)
    )


def make_world(*actors: Actor, settings: Mapping[str, Any] | None = None) -> World:
    return World(
        "w1",
        "Mesa",
        "brp_d10",
        SYSTEM.validate_settings(settings or {}),
        {a.id: a for a in actors},
    )


def sample_world(settings: Mapping[str, Any] | None = None, *extra: Actor) -> World:
    return make_world(*SYSTEM.sample_actors(), *extra, settings=settings)


def run(
    world: World,
    kind: str,
    actor: str,
    faces: Iterable[int] = (),
    targets: tuple[str, ...] = (),
    by_gm: bool = False,
    **params: Any,
) -> tuple[Resolution, World]:
    """Check, resolve with scripted dice (all of them used) and apply; translate every card."""
    action = SYSTEM.check_action(world, Action(kind, actor, params, targets, by_gm))
    dice = ScriptedDice(list(faces))
    resolution = SYSTEM.resolve(world, action, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice left unused"
    new_world = SYSTEM.apply(world, resolution)
    for card in resolution.cards:
        render(card)
    assert_plain(new_world)
    return resolution, new_world


def follow(
    world: World, resolution: Resolution, follow_id: str, faces: Iterable[int] = (), **ask: Any
) -> tuple[Resolution, World]:
    button = find_follow(resolution, follow_id)
    params = {**button.params, **ask}
    return run(world, button.action, button.actor_id, faces, button.targets, **params)


def find_follow(resolution: Resolution, follow_id: str) -> FollowUp:
    for card in resolution.cards:
        for button in card.actions:
            if button.id == follow_id:
                return button
    raise AssertionError(
        f"no follow-up {follow_id!r} in {[b.id for c in resolution.cards for b in c.actions]}"
    )


def follow_ids(resolution: Resolution) -> list[str]:
    return [b.id for c in resolution.cards for b in c.actions]


def _text(value: Any, locale: str) -> str:
    if isinstance(value, Text):
        return translate(value, locale, SYSTEM.messages, strict=True)
    return "" if value is None else str(value)


def render(card: Card, locale: str = "es") -> str:
    """The card's words in ``locale`` (strict: a missing key fails); checks 'en' too."""
    out: list[str] = []
    for loc in ("en", locale):
        out = [_text(card.title, loc)]
        if card.outcome is not None:
            out.append(_text(card.outcome.label, loc))
        for section in card.sections:
            out.extend(_section(section, loc))
        for button in card.actions:
            out.append(_text(button.label, loc))
            for param in button.ask:
                if param.label is not None:
                    out.append(_text(param.label, loc))
    return "\n".join(out)


def _section(section: Section, locale: str) -> list[str]:
    lines = [_text(section.title, locale)] if section.title is not None else []
    lines.extend(_line(line, locale) for line in section.lines)
    return lines


def _line(line: Line, locale: str) -> str:
    value = _text(line.value, locale)
    return f"{_text(line.label, locale)}: {value}" if value else _text(line.label, locale)


def assert_plain(world: World) -> None:
    """State and data are plain JSON with safe integers."""
    for actor in world.actors.values():
        _plain(actor.state)
    _plain(world.data)


def _plain(value: Any) -> None:
    json.dumps(value)
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return
    if isinstance(value, int):
        assert abs(value) <= 2**53
        return
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            _plain(item)
        return
    assert isinstance(value, list), f"not plain JSON: {type(value)}"
    for item in value:
        _plain(item)


def state(world: World, actor: str) -> Mapping[str, Any]:
    return world.actors[actor].state


def wounds(world: World, actor: str) -> list[tuple[str, int]]:
    return [(w["location"], w["level"]) for w in world.actors[actor].state["wounds"]]


def next_round(world: World) -> World:
    from rules.dice import ScriptedDice as _Dice
    from rules.model import TimeStep

    resolution = SYSTEM.advance_time(world, TimeStep("round", 1), _Dice([]))
    assert resolution is not None
    return SYSTEM.apply(world, resolution)
