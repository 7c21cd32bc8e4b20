"""Card pieces every o3d10 action shares: the kept-die line, outcomes, labels.

Texts and lines that take no figure from the roll (the rank kept, the reasons,
the outcome labels, attribute names) are built once and shared: they are
frozen records, so every card may hold the same one.
"""

from __future__ import annotations

from functools import lru_cache

from rules.model import Line, Outcome, Text, t
from rules.o3d10.checks import CheckResult, Circumstances
from rules.o3d10.messages import MESSAGES

_RANK = tuple(t(f"rank.{value}") for value in range(3))
_KEPT = tuple(Line(t("line.kept", rank=rank)) for rank in _RANK)
_OUTCOME = {
    key: t(f"outcome.{key}") for key in ("rolled", "fumble", "critical", "success", "failure")
}


@lru_cache(maxsize=256)
def attribute_label(key: str) -> Text:
    return t(f"attr.{key}") if f"attr.{key}" in MESSAGES["es"] else t("raw", text=key)


@lru_cache(maxsize=64)
def _kept_because(rank: int, reasons: tuple[str, ...]) -> Line:
    return Line(
        t("line.kept_because", rank=_RANK[rank], reasons=tuple(t(f"reason.{r}") for r in reasons))
    )


def kept_line(result: CheckResult, circumstances: Circumstances) -> Line:
    rank = result.roll.rank._value_  # as stored (``.value`` is a property)
    reasons = ("forced",) if circumstances.forced is not None else circumstances.reasons
    if reasons:
        return _kept_because(rank, reasons)
    return _KEPT[rank]


def die_lines(result: CheckResult) -> tuple[Line, ...]:
    """The ten that went on, and the modifier, when there are."""
    if result.roll.exploded:
        faces = " + ".join(str(f) for f in result.roll.kept_faces)
        return (Line(t("line.exploded", faces=faces)),)
    return ()


def outcome_of(result: CheckResult) -> Outcome:
    margin = None if result.difficulty is None else result.total - result.difficulty
    return _outcome(result.outcome, result.success, margin)


@lru_cache(maxsize=1024)
def _outcome(key: str, success: bool | None, margin: int | None) -> Outcome:
    """Outcomes are frozen values: equal ones are shared."""
    return Outcome(key, _OUTCOME[key], success, margin)


def signed(value: int) -> str:
    return f"{value:+d}"
