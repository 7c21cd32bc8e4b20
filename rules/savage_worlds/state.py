"""Per-actor state and world data of Savage Worlds, and a draft that gathers a resolution's effects.

Actor state keys: ``wounds`` (0-3), ``bennies``, ``ammo`` and ``magazines`` per
weapon, ``bipod`` (weapons set on their bipod), ``in_hand``, ``injuries``,
``declared``/``used`` actions this turn, ``full_round``, ``moved``, ``readied``,
``extras_out``. World data keys: ``gm_bennies``, ``deck``, ``sw_combat``,
``attacks``, ``pending``, ``xcom``, ``next_id``.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, Final

from rules.jsondata import copy_json
from rules.model import Actor, ActorChange, Effect, JsonMap, RulesError, World, WorldChange, t
from rules.savage_worlds.sheet import Sheet, parse_sheet

OUT: Final = frozenset({"incapacitated", "dead"})
_NONE: Final[frozenset[str]] = frozenset()
COMBAT: Final = "sw_combat"
"""World data key of this system's combat (cards, units, rounds); the shared tracker owns ``combat``."""


def holds_any(statuses: frozenset[str], these: frozenset[str]) -> bool:
    """``not these.isdisjoint(statuses)`` in a native loop when compiled (a frozenset's
    ``isdisjoint`` is a generic method call there; an actor holds none to a few statuses)."""
    return any(status in these for status in statuses)  # a loop when compiled


def initial_state(sheet: Sheet) -> dict[str, Any]:
    ammo = {w.id: w.shots for w in sheet.weapons if w.shots is not None}
    magazines = {w.id: w.magazines for w in sheet.weapons if w.magazines is not None}
    return {
        "wounds": 0,
        "bennies": sheet.bennies,
        "ammo": ammo,
        "magazines": magazines,
        "bipod": [],
        "in_hand": [],
        "injuries": [],
        "declared": 0,
        "used": 0,
        "full_round": False,
        "moved": False,
        "readied": 0,
    }


class Draft:
    """The changes one resolution makes, read back as the world would look after them."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._data: dict[str, Any] = {}
        self._states: dict[str, dict[str, Any]] = {}
        self._statuses: dict[str, set[str]] = {}
        self._sheets: dict[str, Sheet] = {}

    # -- world data -------------------------------------------------------------
    def data(self, key: str, default: Any = None) -> Any:
        if key in self._data:
            return self._data[key]
        return copy_json(self.world.data.get(key, default))

    def peek(self, key: str, default: Any = None) -> Any:
        """A world data value as this draft leaves it, to read only (not a copy)."""
        if key in self._data:
            return self._data[key]
        return self.world.data.get(key, default)

    def set_data(self, key: str, value: Any) -> None:
        self._data[key] = value

    def next_id(self, prefix: str) -> str:
        data = self._data
        number = int(data["next_id"] if "next_id" in data else self.world.data.get("next_id", 0))
        data["next_id"] = number + 1
        return f"{prefix}{number + 1}"

    # -- actors -----------------------------------------------------------------
    def actor(self, actor_id: str) -> Actor:
        actor = self.world.actors.get(actor_id)
        return actor if actor is not None else self.world.actor(actor_id)  # refused there

    def sheet(self, actor_id: str) -> Sheet:
        sheet = self._sheets.get(actor_id)
        if sheet is None:  # a draft never changes sheets: each is parsed (or found) once
            sheet = self._sheets[actor_id] = parse_sheet(self.actor(actor_id).sheet)
        return sheet

    def state(self, actor_id: str) -> Mapping[str, Any]:
        """The actor's state as this draft leaves it, to read (its values are not copies: use
        :meth:`get` for a value to change, and :meth:`put` to change it)."""
        changed = self._states.get(actor_id)
        state = self.actor(actor_id).state
        return {**state, **changed} if changed else state

    def get(self, actor_id: str, key: str, default: Any = None) -> Any:
        """A copy of one key of :meth:`state` (``default``, as it is, when absent)."""
        changed = self._states.get(actor_id)
        if changed is not None and key in changed:
            return copy_json(changed[key])
        state = self.actor(actor_id).state
        return copy_json(state[key]) if key in state else default

    def read(self, actor_id: str, key: str, default: Any = None) -> Any:
        """One key of :meth:`state`, to read only (not a copy)."""
        changed = self._states.get(actor_id)
        if changed is not None and key in changed:
            return changed[key]
        return self.actor(actor_id).state.get(key, default)

    def put(self, actor_id: str, **values: Any) -> None:
        self._states.setdefault(actor_id, {}).update(values)

    def statuses(self, actor_id: str) -> set[str]:
        if actor_id in self._statuses:
            return set(self._statuses[actor_id])
        return set(self.actor(actor_id).statuses)

    def _current(self, actor_id: str) -> Set[str]:
        """The statuses as this draft leaves them, to read only."""
        changed = self._statuses.get(actor_id)
        return changed if changed is not None else self.actor(actor_id).statuses

    def has(self, actor_id: str, status: str) -> bool:
        return status in self._current(actor_id)

    def add(self, actor_id: str, *statuses: str) -> None:
        current: Set[str] | None = self._statuses.get(actor_id)
        if current is None:
            current = self.actor(actor_id).statuses
        self._statuses[actor_id] = set(current).union(statuses)  # a new set: views stay as read

    def remove(self, actor_id: str, *statuses: str) -> None:
        current: Set[str] | None = self._statuses.get(actor_id)
        if current is None:
            current = self.actor(actor_id).statuses
        self._statuses[actor_id] = set(current).difference(statuses)

    def is_out(self, actor_id: str) -> bool:
        return not OUT.isdisjoint(self._current(actor_id))

    def effects(self) -> tuple[Effect, ...]:
        """One actor change per actor whose state or statuses changed (by id), then the world's
        data change; nothing for what ends as it began."""
        out: list[Effect] = []
        states, changed = self._states, self._statuses
        ids = sorted(states.keys() | changed.keys()) if changed else sorted(states)
        for actor_id in ids:
            state = states.get(actor_id, {})
            after = changed.get(actor_id)
            if after is None:
                if state:
                    out.append(ActorChange(actor_id, state, _NONE, _NONE))
                continue
            before = self.actor(actor_id).statuses
            add = frozenset(after.difference(before))
            remove = frozenset(before.difference(after))
            if state or add or remove:
                out.append(ActorChange(actor_id, state, add, remove))
        if self._data:
            out.append(WorldChange(dict(self._data)))
        return tuple(out)


# -- reading state -----------------------------------------------------------------
def wounds(state: JsonMap) -> int:
    return int(state.get("wounds", 0))


def wound_penalty(sheet: Sheet, state: JsonMap) -> int:
    """'-1 ... a todas sus tiradas de rasgo, hasta un máximo de las tres heridas' (Wild Cards)."""
    return -min(wounds(state), 3) if sheet.wild_card else 0


def current_pace(sheet: Sheet, state: JsonMap) -> int:
    """'-1 a su Paso (hasta un mínimo de 1)' per wound."""
    return max(1, sheet.pace - min(wounds(state), 3)) if sheet.wild_card else sheet.pace


def combat(draft: Draft) -> dict[str, Any]:
    value = draft.data(COMBAT, {})
    return value if isinstance(value, dict) else {}


def _combat_view(draft: Draft) -> Mapping[str, Any]:
    """The combat to read only (not a copy)."""
    value = draft.peek(COMBAT, {})
    return value if isinstance(value, Mapping) else {}


def in_combat(draft: Draft) -> bool:
    return bool(_combat_view(draft).get("active", False))


# -- the shared combat tracker (rules/tracker.py), read only ---------------------------
TRACKER: Final = "tracker"


def tracker_running(world: World) -> bool:
    """Whether the shared combat tracker runs a combat in this world."""
    return bool(world.data.get(TRACKER))


def refuse_in_tracker(world: World, field: str = "action") -> None:
    """This system's own round actions would double the tracker's timed rules: refused."""
    if tracker_running(world):
        raise RulesError("tracker_active", t("error.tracker_active"), field)


def tracker_held(world: World) -> list[str]:
    raw = world.data.get(TRACKER)
    return [str(a) for a in raw.get("held", [])] if isinstance(raw, Mapping) else []


def is_held(draft: Draft, actor_id: str) -> bool:
    """On hold: the status, or a tracker hold the system has not seen yet (``holding``)."""
    if draft.has(actor_id, "on_hold"):
        return True
    if not draft.world.data.get(TRACKER):
        return False  # no tracker: no tracker hold
    seen = _combat_view(draft).get("holding", [])
    return actor_id in tracker_held(draft.world) and actor_id not in seen


def drop_hold(draft: Draft, actor_id: str) -> None:
    """The actor is no longer on hold (Shaken, or acting): a tracker hold counts as seen."""
    draft.remove(actor_id, "on_hold", "overwatch")
    if actor_id in tracker_held(draft.world):
        fight = combat(draft)
        holding = list(fight.get("holding", []))
        if actor_id not in holding:
            fight["holding"] = [*holding, actor_id]
            draft.set_data(COMBAT, fight)


def benny_source(draft: Draft, actor_id: str) -> str | None:
    """Where a benny comes from: the actor's own, or the GM's pool for the GM's (non-hero) actors."""
    if int(draft.read(actor_id, "bennies", 0)) > 0:
        return "own"
    gm_side = draft.actor(actor_id).owner is None and draft.sheet(actor_id).side != "heroes"
    if gm_side and int(draft.peek("gm_bennies", 0)) > 0:
        return "gm"
    return None


def spend_benny(draft: Draft, actor_id: str, field: str = "actor") -> str:
    source = benny_source(draft, actor_id)
    if source is None:
        raise RulesError(
            "no_bennies", t("error.no_bennies", actor=draft.actor(actor_id).name), field
        )
    if source == "own":
        draft.put(actor_id, bennies=int(draft.get(actor_id, "bennies", 0)) - 1)
    else:
        draft.set_data("gm_bennies", int(draft.data("gm_bennies", 0)) - 1)
    return source


def require_active(draft: Draft, actor_id: str, field: str = "actor") -> None:
    if draft.is_out(actor_id):
        raise RulesError("actor_out", t("error.actor_out", actor=draft.actor(actor_id).name), field)


def mapping(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}
