"""Damage types 0-V spread over locations, criticals, and the severity of a wound.

'Hay 2 clases de dados, el dado Exo (dE) ... y los 2 dados de daño (d+ o d-)'.
Every hit is computed from the TA's own dice: no die is rolled for damage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.cunchillos.tables import LOCATION_BY_FACE


@dataclass(frozen=True)
class Hit:
    """Damage points at one location (the face of the location die it came from)."""

    face: int
    amount: int
    where: str = ""
    """The location; empty: the default table's for ``face``."""

    @property
    def location(self) -> str:
        return self.where or LOCATION_BY_FACE[self.face]


MAX_FIRST: dict[str, int] = {"0": 10, "I": 10, "II": 20, "III": 40, "IV": 20, "V": 20}
"""The most a type can do at its first location (both dice at 10): a critical's 'máximo daño'."""


def ladder(start: int, count: int) -> tuple[int, ...]:
    """Faces from ``start`` alternating one up (lower face) and one down, skipping the ends.

    'el número de localizaciones afectadas es el d- empezando donde marque el dE, las
    heridas van alternando uno hacia arriba y otro hacia abajo'.
    """
    faces = [start]
    step = 1
    while len(faces) < min(count, 10):
        for face in (start - step, start + step):
            if 1 <= face <= 10 and len(faces) < count:
                faces.append(face)
        step += 1
    return tuple(faces)


def damage_hits(
    kind: str, high: int, low: int, face: int, table: Mapping[int, str] = LOCATION_BY_FACE
) -> tuple[Hit, ...]:
    """The hits of damage type ``kind`` for d+ ``high``, d- ``low`` and dE ``face``.

    Type V's 'tres localizaciones que indiquen los dados' are the dE, d+ and d- faces.
    ``table`` is the world's location die (faces 1-10).
    """
    return tuple(Hit(h.face, h.amount, table[h.face]) for h in _spread(kind, high, low, face))


def _spread(kind: str, high: int, low: int, face: int) -> tuple[Hit, ...]:
    if kind == "0":
        return (Hit(face, low),)
    if kind == "I":
        return (Hit(face, high),)
    if kind == "II":
        return (Hit(face, high + low),)
    if kind == "III":
        return (Hit(face, 2 * (high + low)),)
    if kind == "IV":
        amounts = []
        for index, where in enumerate(ladder(face, low)):
            amount = high + low if index == 0 else high if index <= 2 else low
            amounts.append(Hit(where, amount))
        return tuple(amounts)
    if kind == "V":
        return tuple(Hit(where, high + low) for where in (face, high, low))
    raise ValueError(f"unknown damage type {kind!r}")


def critical_hits(
    kind: str,
    high: int,
    low: int,
    face: int,
    choice: str,
    chosen: int | None,
    table: Mapping[int, str] = LOCATION_BY_FACE,
) -> tuple[Hit, ...]:
    """'Éxito alto (crítico): se puede elegir hacer el máximo daño en la localización
    acertada o hacer el daño indicado en la localización que se desee.'

    ``choice = "max"``: the type's maximum at the hit location, one location only;
    ``choice = "location"``: the normal damage starting at the ``chosen`` face.
    """
    if choice == "max":
        return (Hit(face, MAX_FIRST[kind], table[face]),)
    start = face if chosen is None else chosen
    return damage_hits(kind, high, low, start, table)


def severity(damage: int, res: int, amputation: bool) -> str:
    """'Si daño<Res: ... sin importancia' / 'HERIDA LEVE' / 'HERIDA GRAVE' / '(Opcional) >3Res AMPUTACIÓN'.

    The light band's garbled 'daño<=Res>2Res' is read Res <= daño < 2Res (RULES.md).
    """
    if damage < res:
        return "minor"
    if amputation and damage > 3 * res:
        return "amputation"
    if damage >= 2 * res:
        return "serious"
    return "light"


def knockdown_band(impact: int, res: int) -> str:
    """'Si Impacto<Res ... Si Impacto<2Res ... Si impacto>=2Res'."""
    if impact < res:
        return "under_res"
    if impact < 2 * res:
        return "under_2res"
    return "over_2res"


def parry_strength(stronger: int, weaker: int) -> tuple[int, int]:
    """'la Fue mayor hace la ½ de la diferencia ... a la localización ... y la otra ½ ... al arma'.

    Returns (points to the weaker's weapon arm, points to the weapon): the arm
    takes the half rounded down, the weapon the rest.
    """
    difference = max(0, stronger - weaker)
    return difference // 2, difference - difference // 2
