"""Wounds, hit points, the mortal threshold, timed conditions and bleeding.

Per-actor state (plain JSON)::

    pv          current hit points (negative below 0)
    golpes      points lost to blows ('puntos de golpe'), part of the lost PV
    limite      negative PV the character survives, fixed when PV first go negative
    heridas     [{"loc", "damage", "severity", "bleeds", "age"}]
    timers      {"stunned": rounds, "incapacitated": rounds, "unconscious": rounds}
    dead, prone, knocked (incapacitated by a knockdown, for its mental modifier)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.damage import Hit, severity
from rules.cunchillos.settings import Rules
from rules.cunchillos.sheet import Sheet
from rules.cunchillos.tables import (
    ARM_OF_HAND,
    HEAD_LIGHT_STUN_ROUNDS,
    LOCATION_GROUP,
    WOUND_PENALTY,
)

TIMERS: tuple[str, ...] = ("stunned", "incapacitated", "unconscious")


@dataclass(frozen=True)
class WoundReport:
    """What one hit did: its severity and the conditions it brought (message keys)."""

    location: str
    amount: int
    severity: str
    blow: bool
    effects: tuple[str, ...]


def wounds_of(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    raw = state.get("heridas", [])
    return [dict(w) for w in raw if isinstance(w, Mapping)] if isinstance(raw, list) else []


def timers_of(state: Mapping[str, Any]) -> dict[str, int]:
    raw = state.get("timers", {})
    raw = raw if isinstance(raw, Mapping) else {}
    return {name: int(raw.get(name, 0) or 0) for name in TIMERS}


def _int(state: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = state.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def hit_points(state: Mapping[str, Any], sheet: Sheet) -> int:
    return _int(state, "pv", sheet.hit_points)


def wound_points(state: Mapping[str, Any], sheet: Sheet) -> int:
    """Lost PV that are not blows (wounds, bleeding, blows turned into wounds)."""
    return sheet.hit_points - hit_points(state, sheet) - _int(state, "golpes")


def apply_hits(
    state: Mapping[str, Any],
    sheet: Sheet,
    hits: Sequence[Hit],
    *,
    blunt: bool,
    low: int,
    rules: Rules,
) -> tuple[dict[str, Any], tuple[WoundReport, ...]]:
    """Fold hits into a state: PV, blows, wounds and their conditions; dead past the limit.

    ``low`` is the d- of the roll, added to the Umbral Mortal when PV first go negative.
    """
    pv = hit_points(state, sheet)
    golpes = _int(state, "golpes")
    wounds = wounds_of(state)
    timers = timers_of(state)
    hands = dict(state.get("hands", {}) or {})
    limit = state.get("limite")
    reports: list[WoundReport] = []
    for hit in hits:
        if hit.amount <= 0:
            continue
        if blunt and rules.blow_damage == "blows":
            as_blow = min(hit.amount, max(0, pv))
            golpes += as_blow
            pv -= hit.amount
            reports.append(WoundReport(hit.location, hit.amount, "blow", True, ()))
            continue
        grade = severity(hit.amount, sheet.res, rules.amputation)
        effects: list[str] = []
        group = LOCATION_GROUP[hit.location]
        serious = grade in ("serious", "amputation")
        if grade == "light" and group == "cabeza":
            timers["stunned"] = max(timers["stunned"], HEAD_LIGHT_STUN_ROUNDS)
            effects.append("stunned_head")
        elif serious and group == "cabeza":
            rounds = hit.amount * 60 * rules.rounds_per_minute
            timers["unconscious"] = max(timers["unconscious"], rounds)
            effects.append("unconscious_hours")
        elif serious and group == "brazo":
            effects.append("arm_useless")
            for hand, arm in ARM_OF_HAND.items():
                if arm == hit.location and hands.get(hand):
                    hands[hand] = None
                    effects.append("drops")
        elif serious and group in ("abdomen", "pierna"):
            effects.append("incapacitated")
        elif grade == "light" and group in ("abdomen", "pierna"):
            effects.append("impaired")
        elif grade == "light" and group == "brazo":
            effects.append("arm_penalty")
        elif group == "pecho" and grade != "minor":
            effects.append("chest_penalty")
        if grade == "amputation":
            effects.append("amputated")
        wounds.append(
            {
                "loc": hit.location,
                "damage": hit.amount,
                "severity": grade,
                "bleeds": grade != "minor",
                "age": 0,
            }
        )
        pv -= hit.amount
        reports.append(WoundReport(hit.location, hit.amount, grade, False, tuple(effects)))
    changes: dict[str, Any] = {
        "pv": pv,
        "golpes": golpes,
        "heridas": wounds,
        "timers": timers,
        "hands": hands,
    }
    if pv < 0 and limit is None:
        limit = sheet.mortal_threshold + low
        changes["limite"] = limit
    if pv < 0 and isinstance(limit, int) and pv < -limit:
        changes["dead"] = True
    return changes, tuple(reports)


def derived_statuses(state: Mapping[str, Any], sheet: Sheet) -> frozenset[str]:
    """The canonical statuses the state implies (without the GM's hand-set ones)."""
    if state.get("dead"):
        return frozenset({"dead"})
    out: set[str] = set()
    pv = hit_points(state, sheet)
    timers = timers_of(state)
    wounds = wounds_of(state)
    groups = {(w.get("severity"), LOCATION_GROUP.get(str(w.get("loc")), "")) for w in wounds}
    if pv <= 0 or timers["unconscious"] > 0:
        out.add("unconscious")
    if is_bleeding(state, sheet):
        out.add("bleeding")
    if timers["stunned"] > 0:
        out.add("stunned")
    incapacitating = {("serious", "abdomen"), ("serious", "pierna")}
    incapacitating |= {("amputation", "abdomen"), ("amputation", "pierna")}
    grapple = state.get("grapple")
    surrendered = isinstance(grapple, Mapping) and bool(grapple.get("surrendered"))
    if timers["incapacitated"] > 0 or groups & incapacitating or surrendered:
        out.add("incapacitated")
    if groups & {("light", "abdomen"), ("light", "pierna")}:
        out.add("impaired")
    if any(w.get("severity") not in ("minor", None) for w in wounds):
        out.add("wounded")
    if state.get("prone"):
        out.add("prone")
    if isinstance(grapple, Mapping):
        out.add("grappled")
    return frozenset(out)


def is_bleeding(state: Mapping[str, Any], sheet: Sheet) -> bool:
    if state.get("dead"):
        return False
    if any(w.get("bleeds") for w in wounds_of(state)):
        return True
    return hit_points(state, sheet) <= 0 and wound_points(state, sheet) > 0


def physical_penalty(state: Mapping[str, Any]) -> int:
    """'+5 TA físicas' (light chest, abdomen, legs), '+10' (serious chest); wounds stack."""
    total = 0
    for wound in wounds_of(state):
        grade = "serious" if wound.get("severity") == "amputation" else str(wound.get("severity"))
        total += WOUND_PENALTY.get((grade, LOCATION_GROUP.get(str(wound.get("loc")), "")), 0)
    return total


def arm_state(state: Mapping[str, Any], arm: str) -> tuple[int, bool]:
    """(light wounds on that arm, useless) for 'Brazos: +5 TA con ese brazo' / 'Miembro inútil'."""
    light = useless = 0
    for wound in wounds_of(state):
        if wound.get("loc") != arm:
            continue
        if wound.get("severity") == "light":
            light += 1
        elif wound.get("severity") in ("serious", "amputation"):
            useless += 1
    return light, useless > 0


def tick_round(state: Mapping[str, Any], sheet: Sheet, rules: Rules) -> dict[str, Any]:
    """One round passes: timers run down, wounds bleed ('cada minuto -1' / 'cada 5 asaltos -1'),
    and at 0 PV or below '-1 punto/asalto'."""
    if state.get("dead"):
        return dict(state)
    new = dict(state)
    timers = {name: max(0, value - 1) for name, value in timers_of(state).items()}
    new["timers"] = timers
    if not timers["stunned"] and not timers["incapacitated"]:
        new["knocked"] = False
    pv = hit_points(state, sheet)
    at_zero = pv <= 0 and wound_points(state, sheet) > 0
    loss = 1 if at_zero else 0
    wounds = wounds_of(state)
    for wound in wounds:
        if not wound.get("bleeds"):
            continue
        wound["age"] = int(wound.get("age", 0)) + 1
        if at_zero and rules.zero_hp_bleeding == "replace":
            continue
        every = (
            rules.rounds_per_minute
            if wound.get("severity") == "light"
            else rules.serious_bleed_rounds
        )
        if wound["age"] % every == 0:
            loss += 1
    new["heridas"] = wounds
    if loss:
        pv -= loss
        new["pv"] = pv
        limit = state.get("limite")
        if pv < 0 and limit is None:
            # Bleeding is not a wound: no d- to add (RULES.md).
            limit = sheet.mortal_threshold
            new["limite"] = limit
        if pv < 0 and isinstance(limit, int) and pv < -limit:
            new["dead"] = True
    return new


def pass_rounds(
    state: Mapping[str, Any], sheet: Sheet, rounds: int, rules: Rules
) -> dict[str, Any]:
    """``rounds`` rounds pass; with nothing bleeding the timers are run down at once."""
    current = dict(state)
    remaining = rounds
    while remaining > 0:
        if current.get("dead"):
            break
        if not is_bleeding(current, sheet):
            timers = {name: max(0, value - remaining) for name, value in timers_of(current).items()}
            current["timers"] = timers
            if not timers["stunned"] and not timers["incapacitated"]:
                current["knocked"] = False
            break
        current = tick_round(current, sheet, rules)
        remaining -= 1
    return current
