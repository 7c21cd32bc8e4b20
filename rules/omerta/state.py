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

from rules.model import Actor, RulesError, World, t
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
        "ammo": {key: w.capacity for key, w in sheet.weapons.items() if w.counted},
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
        "open_blows": [],
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


# -- a state supplied from outside (the Don's actor_upsert) --------------------------------

_INT_LIMIT = 10**12
_INTS = ("hp", "contusion", "next_wound", "round_of", "actions", "parries", "sprint")
_OPTIONAL_INTS = (
    "dodge_penalty_until",
    "no_delicate_until",
    "unconscious_until",
    "bleeding_since",
    "medicine_day",
    "active_day",
)
_BOOLS = ("dodged", "dodging")
_TEXT_LISTS = ("dodged_attackers", "disabled", "open_blows")
_WOUND_KINDS = ("bullet", "lethal", "contusion")


def _bad(field: str, problem: str) -> RulesError:
    return RulesError("invalid_state", t("error.state", field=field, problem=problem), field)


def _is_int(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) <= _INT_LIMIT


def _want_int(raw: Any, field: str, optional: bool = False) -> None:
    if optional and raw is None:
        return
    if not _is_int(raw):
        raise _bad(field, "a whole number" + (" or null" if optional else ""))


def _want_texts(raw: Any, field: str) -> None:
    if not isinstance(raw, list) or not all(isinstance(x, str) and len(x) <= 200 for x in raw):
        raise _bad(field, "a list of texts")


def _check_wound(raw: Any, field: str) -> None:
    if not isinstance(raw, Mapping):
        raise _bad(field, "an object")
    _want_int(raw.get("id"), f"{field}.id")
    _want_int(raw.get("damage"), f"{field}.damage")
    _want_int(raw.get("at", 0), f"{field}.at")
    _want_int(raw.get("treated_day"), f"{field}.treated_day", optional=True)
    _want_int(raw.get("tried_day"), f"{field}.tried_day", optional=True)
    _want_texts(raw.get("tried_by", []), f"{field}.tried_by")
    if raw.get("kind") not in _WOUND_KINDS:
        raise _bad(f"{field}.kind", "bullet, lethal or contusion")
    if not isinstance(raw.get("extracted", True), bool):
        raise _bad(f"{field}.extracted", "true or false")
    location = raw.get("location")
    if location is not None and not isinstance(location, str):
        raise _bad(f"{field}.location", "a location or null")


def check_state(sheet: Sheet, state: dict[str, Any]) -> dict[str, Any]:
    """Refuse (``invalid_state``) any key of an actor's state this system would misread."""
    known = set(initial_state(sheet))
    for key in state:
        if key not in known:
            raise _bad(f"state.{key}", "a key of the Omertà state")
    for key in _INTS:
        _want_int(state[key], f"state.{key}")
    for key in _OPTIONAL_INTS:
        _want_int(state[key], f"state.{key}", optional=True)
    for key in _BOOLS:
        if not isinstance(state[key], bool):
            raise _bad(f"state.{key}", "true or false")
    for key in _TEXT_LISTS:
        _want_texts(state[key], f"state.{key}")
    if state["last_target"] is not None and not isinstance(state["last_target"], str):
        raise _bad("state.last_target", "an actor id or null")
    for key in ("ammo", "shots"):
        table = state[key]
        if not isinstance(table, Mapping):
            raise _bad(f"state.{key}", "an object")
        for weapon, count in table.items():
            if weapon not in sheet.weapons or not _is_int(count) or count < 0:
                raise _bad(f"state.{key}.{weapon}", "a weapon of the sheet and a count")
    for weapon, count in state["ammo"].items():
        if count > sheet.weapons[weapon].capacity:
            raise _bad(f"state.ammo.{weapon}", "no more than the weapon's capacity")
    if not isinstance(state["jams"], Mapping):
        raise _bad("state.jams", "an object")
    for weapon, jam in state["jams"].items():
        if weapon not in sheet.weapons or not isinstance(jam, Mapping):
            raise _bad(f"state.jams.{weapon}", "a weapon of the sheet and {ready_at}")
        _want_int(jam.get("ready_at"), f"state.jams.{weapon}.ready_at", optional=True)
    aim = state["aim"]
    if aim is not None:
        if not isinstance(aim, Mapping) or aim.get("weapon") not in sheet.weapons:
            raise _bad("state.aim", "null or {target, weapon, since}")
        if not isinstance(aim.get("target"), str):
            raise _bad("state.aim.target", "an actor id")
        _want_int(aim.get("since"), "state.aim.since")
    if not isinstance(state["wounds"], list):
        raise _bad("state.wounds", "a list")
    for index, wound in enumerate(state["wounds"]):
        _check_wound(wound, f"state.wounds.{index}")
    if not isinstance(state["first_aid_tries"], Mapping):
        raise _bad("state.first_aid_tries", "an object")
    return state
