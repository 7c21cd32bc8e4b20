"""Per-actor state as typed records, read from and written back to plain JSON.

``wounds`` (each with its location, level, rest and treatment), ``timers`` (the death
clocks), ``round`` (what the actor did this round), ``aim``, ``ammo`` and ``losses``
(characteristic points lost when a wound healed badly).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.brp_d10.sheet import Sheet
from rules.memo import by_identity


@dataclass(frozen=True)
class Wound:
    id: int
    location: str
    level: int
    injury: str = "organ"
    ignored: bool = False
    """Light wound whose +1 a Resistencia roll put aside for the fight."""
    rest: int = 0
    """Seconds of rest (or calm, for a light wound) counted towards healing."""
    medicine: bool = False
    """A Medicine success shortened its recovery."""
    treat_day: int = -1
    """The world day of the last Medicine attempt on it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "location": self.location,
            "level": self.level,
            "injury": self.injury,
            "ignored": self.ignored,
            "rest": self.rest,
            "medicine": self.medicine,
            "treat_day": self.treat_day,
        }

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Wound:
        return Wound(
            int(raw.get("id", 0)),
            str(raw.get("location", "pecho")),
            int(raw.get("level", 1)),
            str(raw.get("injury", "organ")),
            bool(raw.get("ignored", False)),
            int(raw.get("rest", 0)),
            bool(raw.get("medicine", False)),
            int(raw.get("treat_day", -1)),
        )


@dataclass(frozen=True)
class Timer:
    """A death clock: dies when ``remaining`` seconds pass without a Medicine success."""

    kind: str
    remaining: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "remaining": self.remaining}


@dataclass(frozen=True)
class RoundUse:
    """What the actor has done in the current round."""

    actions: int = 0
    weapons: Mapping[str, int] = field(default_factory=dict)
    shots: int = 0
    """Single shots and sprays with automatic weapons (each lowers Agilidad by 1)."""
    bursts: int = 0
    sustained_target: str = ""
    busy: bool = False
    """The whole round is spent (reloading, aiming)."""
    planned: int = 0
    """Declared steps already done this round (when the actor declared a plan)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "actions": self.actions,
            "weapons": dict(self.weapons),
            "shots": self.shots,
            "bursts": self.bursts,
            "sustained_target": self.sustained_target,
            "busy": self.busy,
            "planned": self.planned,
        }

    @staticmethod
    def from_json(raw: Any) -> RoundUse:
        if not isinstance(raw, Mapping):
            return RoundUse()
        weapons = raw.get("weapons", {})
        return RoundUse(
            int(raw.get("actions", 0)),
            {str(k): int(v) for k, v in weapons.items()} if isinstance(weapons, Mapping) else {},
            int(raw.get("shots", 0)),
            int(raw.get("bursts", 0)),
            str(raw.get("sustained_target", "")),
            bool(raw.get("busy", False)),
            int(raw.get("planned", 0)),
        )

    def used(self, weapon: str, actions: int = 1, shots: int = 0) -> RoundUse:
        weapons = dict(self.weapons)
        if weapon:
            weapons[weapon] = weapons.get(weapon, 0) + 1
        return replace(
            self, actions=self.actions + actions, weapons=weapons, shots=self.shots + shots
        )


@dataclass(frozen=True)
class ActorState:
    wounds: tuple[Wound, ...] = ()
    next_wound: int = 1
    timers: tuple[Timer, ...] = ()
    round: RoundUse = RoundUse()
    aim_weapon: str = ""
    aim_rounds: int = 0
    ammo: Mapping[str, int] = field(default_factory=dict)
    losses: Mapping[str, int] = field(default_factory=dict)
    spares: Mapping[str, int] = field(default_factory=dict)
    """Spare magazines left, for weapons whose sheet counts them (``spare_magazines``)."""
    dropped: tuple[str, ...] = ()
    """Weapons the actor dropped (an arm incapacitated or severed) until picked up."""

    def to_json(self) -> dict[str, Any]:
        return {
            "wounds": [w.to_json() for w in self.wounds],
            "next_wound": self.next_wound,
            "timers": [timer.to_json() for timer in self.timers],
            "round": self.round.to_json(),
            "aim": {"weapon": self.aim_weapon, "rounds": self.aim_rounds},
            "ammo": dict(self.ammo),
            "losses": dict(self.losses),
            "spares": dict(self.spares),
            "dropped": list(self.dropped),
        }


@by_identity(1024)
def read_state(raw: Mapping[str, Any]) -> ActorState:
    """An actor's state, parsed; remembered by the mapping's identity (actor states are
    never changed in place: every change makes a new actor with a new state), so the same
    frozen record serves every roll of an unchanged actor. Callers copy its mappings
    before changing them."""
    wounds_raw = raw.get("wounds", [])
    timers_raw = raw.get("timers", [])
    aim = raw.get("aim", {})
    ammo = raw.get("ammo", {})
    losses = raw.get("losses", {})
    spares = raw.get("spares", {})
    dropped = raw.get("dropped", [])
    return ActorState(
        wounds=tuple(Wound.from_json(w) for w in wounds_raw if isinstance(w, Mapping))
        if isinstance(wounds_raw, list)
        else (),
        next_wound=int(raw.get("next_wound", 1)),
        timers=tuple(
            Timer(str(x.get("kind", "shock")), int(x.get("remaining", 0)))
            for x in timers_raw
            if isinstance(x, Mapping)
        )
        if isinstance(timers_raw, list)
        else (),
        round=RoundUse.from_json(raw.get("round")),
        aim_weapon=str(aim.get("weapon", "")) if isinstance(aim, Mapping) else "",
        aim_rounds=int(aim.get("rounds", 0)) if isinstance(aim, Mapping) else 0,
        ammo={str(k): int(v) for k, v in ammo.items()} if isinstance(ammo, Mapping) else {},
        losses={str(k): int(v) for k, v in losses.items()} if isinstance(losses, Mapping) else {},
        spares={str(k): int(v) for k, v in spares.items()} if isinstance(spares, Mapping) else {},
        dropped=tuple(str(k) for k in dropped) if isinstance(dropped, list) else (),
    )


def initial_state(sheet: Sheet) -> ActorState:
    return ActorState(
        ammo={key: w.magazine for key, w in sheet.weapons.items() if w.magazine},
        spares={
            key: w.spare_magazines
            for key, w in sheet.weapons.items()
            if w.magazine and w.spare_magazines is not None
        },
    )


def characteristic(sheet: Sheet, state: ActorState, name: str) -> int:
    """A characteristic after the points lost to badly healed wounds (never under 1)."""
    return max(1, sheet.characteristics[name] - state.losses.get(name, 0))
