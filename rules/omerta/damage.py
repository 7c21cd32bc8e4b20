"""Damage to hit points: contusion and lethal, unconsciousness, bleeding, death.

'Daño de Contusión ... cuando se llega a 0 o menos PV, cae inconsciente durante 1 minuto ...
por cada punto de daño ... más allá del 0, con un mínimo de 1.' 'Daño Letal ... cae
inconsciente y tiene peligro de morir desangrado.' 'Siempre que un PJ este inconsciente ...
si este recibe un nuevo ataque morirá automáticamente.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.model import Actor, ActorChange, Line, t
from rules.omerta.sheet import Sheet
from rules.omerta.state import Clock, hp, wounds

DamageKind = Literal["lethal", "contusion"]


@dataclass(frozen=True)
class Hit:
    """One wound dealt: its points, its kind, where it landed, whether a bullet stays in."""

    amount: int
    kind: DamageKind = "lethal"
    location: str | None = None
    bullet: bool = False
    record: bool = True
    """False for hit points lost without a new wound (a failed extraction, a fumbled cure)."""


@dataclass(frozen=True)
class DamageOutcome:
    actor_id: str
    before: int
    after: int
    dealt: tuple[int, ...]
    state: Mapping[str, Any]
    add: frozenset[str]
    remove: frozenset[str]
    lines: tuple[Line, ...]
    killed: bool = False
    knocked_out: bool = False

    @property
    def change(self) -> ActorChange:
        return ActorChange(self.actor_id, dict(self.state), self.add, self.remove)


def location_text(location: str | None) -> Any:
    return t(f"location.{location}") if location else t("location.body")


def take_hits(
    actor: Actor,
    sheet: Sheet,
    hits: tuple[Hit, ...],
    now: Clock,
    *,
    is_attack: bool = False,
    armour: bool = True,
) -> DamageOutcome:
    """Fold ``hits`` into ``actor``: hit points, wounds, and the statuses that follow.

    ``is_attack`` marks a new attack: one on an unconscious character kills it.
    """
    before = hp(actor)
    if "dead" in actor.statuses:
        return DamageOutcome(
            actor.id,
            before,
            before,
            (),
            {},
            frozenset(),
            frozenset(),
            (Line(t("line.already_dead", actor=actor.name)),),
        )
    if is_attack and "unconscious" in actor.statuses:
        line = Line(t("line.killed_unconscious", actor=actor.name))
        return DamageOutcome(
            actor.id,
            before,
            before,
            (),
            {"bleeding_since": None, "unconscious_until": None},
            frozenset({"dead"}),
            frozenset({"unconscious", "bleeding", "dodging", "aiming"}),
            (line,),
            killed=True,
        )
    current = before
    contusion = int(actor.state.get("contusion", 0))
    found = wounds(actor)
    next_id = int(actor.state.get("next_wound", len(found) + 1))
    lines: list[Line] = []
    dealt: list[int] = []
    last_kind: DamageKind = "lethal"
    for hit in hits:
        amount = max(0, hit.amount - (sheet.armour if armour and hit.record else 0))
        dealt.append(amount)
        current -= amount
        last_kind = hit.kind if amount else last_kind
        if hit.kind == "contusion":
            contusion += amount
        if hit.record and amount:
            found.append(
                {
                    "id": next_id,
                    "kind": "bullet" if hit.bullet else hit.kind,
                    "damage": amount,
                    "location": hit.location,
                    "at": now.time,
                    "extracted": not hit.bullet,
                    "treated_day": None,
                }
            )
            next_id += 1
        key = "line.damage_bullet" if hit.bullet else f"line.damage_{hit.kind}"
        lines.append(Line(t(key, amount=amount, location=location_text(hit.location))))
    state: dict[str, Any] = {
        "hp": current,
        "contusion": contusion,
        "wounds": found,
        "next_wound": next_id,
    }
    add: set[str] = set()
    remove: set[str] = set()
    knocked = False
    if current <= 0 and sum(dealt) > 0:
        already_out = "unconscious" in actor.statuses
        if last_kind == "contusion" and not already_out:
            minutes = max(1, -current)
            state["unconscious_until"] = now.time + minutes * 60
            add.add("unconscious")
            lines.append(Line(t("line.knocked_out", actor=actor.name, minutes=minutes)))
            knocked = True
        elif last_kind == "lethal" and "bleeding" not in actor.statuses:
            state["unconscious_until"] = None
            state["bleeding_since"] = now.time
            add.update({"unconscious", "bleeding"})
            lines.append(Line(t("line.bleeding_out", actor=actor.name)))
            knocked = True
    if knocked:
        remove.update({"dodging", "aiming"})
        state["aim"] = None
    lines.append(Line(t("line.hp", actor=actor.name, before=before, after=current, max=sheet.hp)))
    return DamageOutcome(
        actor.id,
        before,
        current,
        tuple(dealt),
        state,
        frozenset(add),
        frozenset(remove),
        tuple(lines),
        knocked_out=knocked,
    )


def heal_to(actor: Actor, sheet: Sheet, amount: int) -> int:
    """Hit points after healing ``amount`` (never above the sheet's maximum)."""
    return min(sheet.hp, hp(actor) + amount)
