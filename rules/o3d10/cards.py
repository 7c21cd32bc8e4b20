"""Card pieces every o3d10 action shares: the kept-die line, outcomes, labels."""

from __future__ import annotations

from rules.model import Line, Outcome, Text, t
from rules.o3d10.checks import CheckResult, Circumstances
from rules.o3d10.messages import MESSAGES


def attribute_label(key: str) -> Text:
    return t(f"attr.{key}") if f"attr.{key}" in MESSAGES["es"] else t("raw", text=key)


def kept_line(result: CheckResult, circumstances: Circumstances) -> Line:
    rank = t(f"rank.{result.roll.rank.value}")
    reasons = ["forced"] if circumstances.forced is not None else list(circumstances.reasons)
    if reasons:
        return Line(
            t("line.kept_because", rank=rank, reasons=tuple(t(f"reason.{r}") for r in reasons))
        )
    return Line(t("line.kept", rank=rank))


def die_lines(result: CheckResult) -> tuple[Line, ...]:
    """The ten that went on, and the modifier, when there are."""
    lines: list[Line] = []
    if result.roll.exploded:
        faces = " + ".join(str(f) for f in result.roll.kept_faces)
        lines.append(Line(t("line.exploded", faces=faces)))
    return tuple(lines)


def outcome_of(result: CheckResult) -> Outcome:
    key = result.outcome
    label = t("outcome.rolled") if key == "rolled" else t(f"outcome.{key}")
    margin = None if result.difficulty is None else result.total - result.difficulty
    return Outcome(key, label, result.success, margin)


def signed(value: int) -> str:
    return f"{value:+d}"
