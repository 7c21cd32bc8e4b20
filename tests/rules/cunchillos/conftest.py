"""World builders for the cunchillos tests."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from rules.cunchillos import SYSTEM
from rules.dice import ScriptedDice
from rules.i18n import translate
from rules.model import Action, Card, Resolution, Text, World


def world(settings: dict[str, Any] | None = None, **states: dict[str, Any]) -> World:
    actors = {actor.id: actor for actor in SYSTEM.sample_actors()}
    for actor_id, extra in states.items():
        actor = actors[actor_id]
        actors[actor_id] = replace(actor, state={**actor.state, **extra})
    return World("w", "Demo", "cunchillos", SYSTEM.validate_settings(settings or {}), actors)


def run(
    w: World,
    kind: str,
    actor: str,
    faces: Iterable[int] = (),
    targets: tuple[str, ...] = (),
    **params: Any,
) -> tuple[Resolution, World]:
    action = SYSTEM.check_action(w, Action(kind, actor, params, targets))
    resolution = SYSTEM.resolve(w, action, ScriptedDice(list(faces)))
    return resolution, SYSTEM.apply(w, resolution)


def texts(card: Card, locale: str = "es") -> list[str]:
    out = [translate(card.title, locale, SYSTEM.messages, strict=True)]
    for section in card.sections:
        for line in section.lines:
            out.append(translate(line.label, locale, SYSTEM.messages, strict=True))
            if isinstance(line.value, Text):
                out.append(translate(line.value, locale, SYSTEM.messages, strict=True))
    if card.outcome is not None:
        out.append(translate(card.outcome.label, locale, SYSTEM.messages, strict=True))
    for follow in card.actions:
        out.append(translate(follow.label, locale, SYSTEM.messages, strict=True))
    return out


def all_texts(resolution: Resolution) -> str:
    for card in resolution.cards:
        texts(card, "en")
    return "\n".join(line for card in resolution.cards for line in texts(card))


class Helpers:
    world = staticmethod(world)
    run = staticmethod(run)
    texts = staticmethod(texts)
    all_texts = staticmethod(all_texts)


@pytest.fixture
def h() -> Helpers:
    return Helpers()
