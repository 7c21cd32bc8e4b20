"""Pieces of brp_d10 cards: labelled modifiers, check lines, outcomes, and reading the world."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.brp_d10.checks import Check
from rules.brp_d10.modifiers import Mod
from rules.brp_d10.sheet import Sheet, parse_sheet
from rules.brp_d10.state import ActorState, read_state
from rules.model import Actor, Line, Outcome, RulesError, Text, t

BLOCKING = frozenset({"dead", "unconscious"})


def mod_line(mod: Mod) -> Line:
    return Line(t(f"mod.{mod.key}"), f"{mod.value:+d}")


def mod_lines(mods: tuple[Mod, ...]) -> tuple[Line, ...]:
    return tuple(mod_line(m) for m in mods)


def check_line(label: Text, check: Check) -> Line:
    """'1d10 + dificultad <= habilidad', spelled out."""
    if check.die is None:
        return Line(
            label, t("line.automatic", value=check.value, difficulty=f"{check.difficulty:+d}")
        )
    verdict = t("outcome.success") if check.success else t("outcome.failure")
    return Line(
        label,
        t(
            "line.check",
            die=check.die.first,
            difficulty=f"{check.difficulty:+d}",
            total=check.die.first + check.difficulty,
            value=check.value,
            verdict=verdict,
        ),
    )


def level_line(check: Check) -> Line | None:
    if check.level is None:
        return None
    return Line(t("line.success_level"), check.level)


def check_outcome(check: Check) -> Outcome:
    if check.success:
        return Outcome("success", t("outcome.success"), True, check.level)
    return Outcome("failure", t("outcome.failure"), False, None)


def location_text(location: str) -> Text:
    return t(f"loc.{location}")


def wound_text(level: int) -> Text:
    return t(f"wound.level.{level}")


def read_actor(actor: Actor) -> tuple[Sheet, ActorState]:
    return parse_sheet(actor.sheet), read_state(actor.state)


def can_act(actor: Actor, field: str = "actor") -> None:
    blocked = sorted(actor.statuses & (BLOCKING | {"incapacitated"}))
    if blocked:
        raise RulesError(
            "cannot_act",
            t("error.cannot_act", actor=actor.name, status=t(f"status.{blocked[0]}")),
            field,
        )


def setting(settings: Mapping[str, Any], key: str, default: Any) -> Any:
    return settings.get(key, default)
