"""Wounds by location: the level a blow leaves, what each level does, the summed difficulty
and hypovolemic shock.

The text never says how much damage makes which wound level: the ruling (RULES.md) is a
step against Resistencia, set by the world setting ``wound_step``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.brp_d10.state import ActorState, Timer, Wound
from rules.brp_d10.tables import (
    ARMS,
    DEATH_CLOCK_UNIT,
    LEGS,
    LIMBS,
    RECOVERY,
    SECONDS,
    VITAL,
    WOUND_DIFFICULTY,
)


def wound_step(resistencia: int, settings: Mapping[str, Any]) -> int:
    mode = str(settings.get("wound_step", "resistencia"))
    if mode == "half_resistencia":
        return max(1, -(-resistencia // 2))
    if mode == "fixed":
        return max(1, int(settings.get("wound_step_fixed", 3)))
    return max(1, resistencia)


def wound_level(damage: int, resistencia: int, settings: Mapping[str, Any]) -> int:
    """0 (no wound) to 4: under one step light, one step serious, two incapacitated, three or
    more destroyed."""
    if damage <= 0:
        return 0
    return min(4, 1 + damage // wound_step(resistencia, settings))


def wound_penalty(wound: Wound) -> int:
    """The difficulty a wound adds now (0 when ignored for the fight or past its +2 weeks)."""
    if wound.level == 1 and wound.ignored:
        return 0
    if wound.level == 2:
        key = "grave_medicine" if wound.medicine else "grave"
        if wound.rest >= RECOVERY[key]["penalty"]:
            return 0
    return WOUND_DIFFICULTY[wound.level]


def total_penalty(state: ActorState) -> int:
    return sum(wound_penalty(w) for w in state.wounds)


def shock_sum(state: ActorState, count_ignored: bool) -> int:
    """'la dificultad acumulada de todas las heridas': blood lost counts even when the pain of a
    light wound is ignored, unless ``count_ignored`` is off."""
    total = 0
    for w in state.wounds:
        if w.level == 1 and w.ignored and not count_ignored:
            continue
        if w.level == 2 and wound_penalty(w) == 0:
            continue
        total += WOUND_DIFFICULTY[w.level]
    return total


@dataclass(frozen=True)
class Consequence:
    """What a new wound does: statuses, a death clock, and the text's own words (line keys)."""

    add: frozenset[str]
    clock: str | None
    lines: tuple[str, ...]
    dead: bool = False


def consequence(location: str, level: int) -> Consequence:
    if level == 1:
        return Consequence(frozenset({"wounded"}), None, ("wound.effect.leve",))
    if level == 2:
        return Consequence(frozenset({"wounded"}), None, ("wound.effect.grave",))
    if level == 3:
        if location in VITAL:
            return Consequence(
                frozenset({"wounded", "dead"}), None, ("wound.effect.vital_death",), True
            )
        if location in ARMS:
            return Consequence(frozenset({"wounded"}), None, ("wound.effect.arm",))
        if location in LEGS:
            return Consequence(
                frozenset({"wounded", "prone", "impaired"}),
                None,
                ("wound.effect.leg",),
            )
        return Consequence(
            frozenset({"wounded", "prone", "incapacitated", "bleeding"}),
            "abdomen",
            ("wound.effect.abdomen",),
        )
    if location in LIMBS:
        return Consequence(
            frozenset({"wounded", "prone", "unconscious", "bleeding"}),
            "amputation",
            ("wound.effect.severed",),
        )
    return Consequence(
        frozenset({"wounded", "dead"}), None, ("wound.effect.destroyed_death",), True
    )


def clock_seconds(kind: str, resistencia: int) -> int:
    return resistencia * SECONDS[DEATH_CLOCK_UNIT[kind]]


@dataclass(frozen=True)
class Received:
    """The state after new wounds, the statuses they add and the lines for the card."""

    state: ActorState
    add: frozenset[str]
    lines: tuple[tuple[str, str, int], ...]
    """(line key, location, level) in order."""
    shock: bool
    dead: bool


def receive(
    state: ActorState,
    hits: tuple[tuple[str, int, str], ...],
    resistencia: int,
    settings: Mapping[str, Any],
) -> Received:
    """Add wounds ``(location, level, injury)``; level 0 hits are skipped.

    ``wound_stacking`` 'sum' (default): each wound is its own; 'escalate': a wound at a
    location already wounded raises that wound one level, at least to the new level.
    """
    wounds = list(state.wounds)
    timers = list(state.timers)
    next_id = state.next_wound
    add: set[str] = set()
    lines: list[tuple[str, str, int]] = []
    dead = False
    escalate = str(settings.get("wound_stacking", "sum")) == "escalate"
    for location, level, injury in hits:
        if level <= 0:
            continue
        existing = [i for i, w in enumerate(wounds) if w.location == location]
        if escalate and existing:
            index = max(existing, key=lambda i: wounds[i].level)
            old = wounds[index]
            new_level = min(4, max(level, old.level + 1))
            wounds[index] = replace(old, level=new_level, ignored=False, rest=0, injury=injury)
            level = new_level
        else:
            wounds.append(Wound(next_id, location, level, injury))
            next_id += 1
        result = consequence(location, level)
        add |= result.add
        dead = dead or result.dead
        if result.clock is not None and not any(x.kind == result.clock for x in timers):
            timers.append(Timer(result.clock, clock_seconds(result.clock, resistencia)))
        lines.extend((key, location, level) for key in result.lines)
    new_state = replace(state, wounds=tuple(wounds), timers=tuple(timers), next_wound=next_id)
    count_ignored = bool(settings.get("shock_counts_ignored", True))
    shock = not dead and shock_sum(new_state, count_ignored) > resistencia
    if shock and not any(x.kind == "shock" for x in timers):
        timers.append(Timer("shock", clock_seconds("shock", resistencia)))
        new_state = replace(new_state, timers=tuple(timers))
    if shock:
        add |= {"unconscious", "bleeding"}
    if dead:
        add -= {"bleeding"}
        new_state = replace(new_state, timers=())
    return Received(new_state, frozenset(add), tuple(lines), shock, dead)


HAND_OF_ARM: Mapping[str, str] = {"brazo_derecho": "right", "brazo_izquierdo": "left"}


def dropped_weapons(
    hands: Mapping[str, str], received: Received, already: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """What new wounds make the actor let go of, from ``hands`` (weapon -> 'right', 'left' or
    'both'): 'un brazo dejaría caer lo que llevase' (an arm incapacitated or severed drops what
    its hand holds, and two-handed weapons); the abdomen: 'el personaje suelta todo lo que
    llevara'; fainting (a severed limb, shock) lets go of everything too."""
    everything = "unconscious" in received.add or any(
        location == "abdomen" and level >= 3 for _, location, level in received.lines
    )
    lost = {
        HAND_OF_ARM[location]
        for _, location, level in received.lines
        if level >= 3 and location in HAND_OF_ARM
    }
    drop = [
        key
        for key, hand in hands.items()
        if key not in already and (everything or hand in lost or (lost and hand == "both"))
    ]
    return (*already, *drop)


def useless_hands(state: ActorState) -> frozenset[str]:
    """Hands whose arm is incapacitated or severed."""
    return frozenset(
        HAND_OF_ARM[w.location] for w in state.wounds if w.level >= 3 and w.location in HAND_OF_ARM
    )
