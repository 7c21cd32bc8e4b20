"""Small helpers to build cards and refusals with the catalogue's keys."""

from __future__ import annotations

from collections.abc import Iterable

from rules.dice import Die
from rules.model import Card, FollowUp, Line, Outcome, RulesError, Section, Text, Visibility, t
from rules.model import TextParam as TextParam


def card(
    kind: str,
    title: Text,
    speaker: str | None,
    lines: Iterable[Line],
    *,
    dice: Iterable[Die] = (),
    outcome: Outcome | None = None,
    actions: Iterable[FollowUp] = (),
    target: str | None = None,
    visibility: Visibility = "public",
) -> Card:
    return Card(
        kind=kind,
        title=title,
        speaker=speaker,
        dice=tuple(dice),
        outcome=outcome,
        sections=(Section(None, tuple(lines)),),
        actions=tuple(actions),
        visibility=visibility,
        target=target,
    )


def refuse(code: str, field: str | None = None, **params: TextParam) -> RulesError:
    """A refusal whose message key is ``error.<code>``."""
    return RulesError(code, t(f"error.{code}", **params), field)
