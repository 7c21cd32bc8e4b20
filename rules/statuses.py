"""The canonical token statuses every system maps its conditions onto (ARCHITECTURE.md)."""

from __future__ import annotations

CANONICAL_STATUSES: tuple[str, ...] = (
    "stunned",
    "bleeding",
    "incapacitated",
    "unconscious",
    "dead",
    "prone",
    "grappled",
    "impaired",
    "wounded",
    "on_hold",
    "joker",
    "aiming",
    "overwatch",
    "jammed",
    "dodging",
    "parrying",
)


def is_canonical(status: str) -> bool:
    return status in CANONICAL_STATUSES
