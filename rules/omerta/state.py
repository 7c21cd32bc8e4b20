"""Per-actor state and the world clock, read from and written to plain JSON.

World data holds ``{"omerta": {"time": seconds, "initiative": {...}, "order": [[ids]]}}``;
the round number is ``time // round_seconds``. Per-round counters in an actor's state carry
the round they belong to (``round_of``) and read as zero in any later round, so ending a
round touches no actor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.model import Actor, World
from rules.omerta.sheet import Sheet
from rules.omerta.tables import ROUND_SECONDS_DEFAULT

DATA_KEY = "omerta"
SECONDS_PER_DAY = 86_400


@dataclass(frozen=True)
class Clock:
    time: int
    round_seconds: int

    @property
    def round(self) -> int:
        return self.time // self.round_seconds

    @property
    def day(self) -> int:
        return self.time // SECONDS_PER_DAY


def world_data(world: World) -> dict[str, Any]:
    raw = world.data.get(DATA_KEY, {})
    return dict(raw) if isinstance(raw, Mapping) else {}


def clock(world: World) -> Clock:
    data = world_data(world)
    seconds = int(world.settings.get("round_seconds", ROUND_SECONDS_DEFAULT))
    return Clock(int(data.get("time", 0)), max(1, seconds))


def initial_state(sheet: Sheet) -> dict[str, Any]:
    return {
        "hp": sheet.hp,
        "contusion": 0,
        "wounds": [],
        "next_wound": 1,
        "ammo": {key: w.capacity for key, w in sheet.weapons.items() if w.firearm},
        "jams": {},
        "round_of": -1,
        "actions": 0,
        "parries": 0,
        "dodged": False,
        "dodging": False,
        "dodged_attackers": [],
        "last_target": None,
        "shots": {},
        "sprint": 0,
        "dodge_penalty_until": None,
        "no_delicate_until": None,
        "aim": None,
        "unconscious_until": None,
        "bleeding_since": None,
        "disabled": [],
        "medicine_day": None,
        "active_day": None,
        "first_aid_tries": {},
    }


@dataclass(frozen=True)
class RoundCounters:
    """What an actor has done in the current round."""

    actions: int = 0
    parries: int = 0
    dodged: bool = False
    dodging: bool = False
    dodged_attackers: tuple[str, ...] = ()
    last_target: str | None = None
    shots: Mapping[str, int] = field(default_factory=dict)
    sprint: int = 0

    def shots_of(self, weapon: str) -> int:
        return int(self.shots.get(weapon, 0))


def counters(actor: Actor, now: Clock) -> RoundCounters:
    state = actor.state
    if int(state.get("round_of", -1)) != now.round:
        return RoundCounters()
    return RoundCounters(
        int(state.get("actions", 0)),
        int(state.get("parries", 0)),
        bool(state.get("dodged", False)),
        bool(state.get("dodging", False)),
        tuple(str(a) for a in state.get("dodged_attackers", [])),
        state.get("last_target"),
        dict(state.get("shots", {})),
        int(state.get("sprint", 0)),
    )


def counters_json(found: RoundCounters, now: Clock) -> dict[str, Any]:
    return {
        "round_of": now.round,
        "actions": found.actions,
        "parries": found.parries,
        "dodged": found.dodged,
        "dodging": found.dodging,
        "dodged_attackers": list(found.dodged_attackers),
        "last_target": found.last_target,
        "shots": dict(found.shots),
        "sprint": found.sprint,
    }


def dodge_penalty_due(actor: Actor, now: Clock) -> bool:
    until = actor.state.get("dodge_penalty_until")
    return until is not None and now.round <= int(until)


def hp(actor: Actor) -> int:
    return int(actor.state.get("hp", 0))


def wounds(actor: Actor) -> list[dict[str, Any]]:
    return [dict(w) for w in actor.state.get("wounds", [])]


def unextracted(actor: Actor) -> list[dict[str, Any]]:
    return [w for w in wounds(actor) if w.get("kind") == "bullet" and not w.get("extracted")]


def is_dead(actor: Actor) -> bool:
    return "dead" in actor.statuses


def is_down(actor: Actor) -> bool:
    return "unconscious" in actor.statuses or "dead" in actor.statuses


def wounded(actor: Actor) -> bool:
    """The canonical ``wounded`` status: alive with hit points below the sheet's maximum."""
    if is_dead(actor):
        return False
    maximum = actor.sheet.get("hp")
    return isinstance(maximum, int) and hp(actor) < maximum
