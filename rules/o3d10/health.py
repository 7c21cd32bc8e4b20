"""o3d10 health: wounds, hit points, the four health states and the token statuses they give.

'Recordad que las heridas, son el daño recibido': the state keeps ``heridas`` (damage
taken); PV (hit points) are derived as PV max - heridas. Two models (settings.py):

- ``bands`` (default, 'Estados de Salud'): normal below Físico x3, malherido from x3,
  inconsciente from x4, muerto from x6 wounds.
- ``hit_points`` (the first version, 'Muerte e inconsciencia', and 'Malherido: Si los PVs ...
  son iguales a su físico, o inferior'): malherido at PV <= Físico, inconsciente at PV <= 0,
  muerto at Físico x6 wounds; PV max comes from the sheet (``combat.pv``) when it sets one.

With the default PV max of Físico x4 both models give the same states (RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.o3d10.sheet import Sheet
from rules.o3d10.tables import HIT_POINTS_PER_PHYSIQUE

# 'Normal: Heridas de 0 a Físico x3 (no inclusive). Malherido: de Físico x3 a Físico x4 ...
#  Inconsciente: de Físico x4 a Físico x6 ... Muerto: Heridas Físico x6 o superior.'
BANDS: tuple[tuple[str, int], ...] = (("malherido", 3), ("inconsciente", 4), ("muerto", 6))
STATES: tuple[str, ...] = ("normal", "malherido", "inconsciente", "muerto")

STATE_STATUS: Mapping[str, str] = {
    "malherido": "wounded",
    "inconsciente": "unconscious",
    "muerto": "dead",
}
"""Canonical token status of each health state ('normal' has none)."""
HEALTH_STATUSES = frozenset(STATE_STATUS.values())


def physique(sheet: Sheet) -> int:
    """Físico for health; a sheet without it (or with 0) counts as 1 so bands stay ordered."""
    return max(1, sheet.attributes.get("fisico", 0))


def max_hit_points(sheet: Sheet, settings: Mapping[str, Any]) -> int:
    if settings.get("health_model") == "hit_points" and "pv" in sheet.combat:
        return sheet.combat["pv"]
    return physique(sheet) * HIT_POINTS_PER_PHYSIQUE


def wounds(state: Mapping[str, Any]) -> int:
    return int(state.get("heridas", 0))


def hit_points(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> int:
    return max_hit_points(sheet, settings) - wounds(state)


def thresholds(sheet: Sheet, settings: Mapping[str, Any]) -> tuple[int, int, int]:
    """The wounds at which malherido, inconsciente and muerto begin, by the health model."""
    fisico = physique(sheet)
    if settings.get("health_model") == "hit_points":
        pv_max = max_hit_points(sheet, settings)
        return max(0, pv_max - fisico), pv_max, fisico * 6
    return fisico * 3, fisico * 4, fisico * 6


def state_for_wounds(sheet: Sheet, taken: int, settings: Mapping[str, Any]) -> str:
    """normal, malherido, inconsciente or muerto for ``taken`` wounds."""
    fisico = physique(sheet)
    if settings.get("health_model") == "hit_points":
        left = max_hit_points(sheet, settings) - taken
        if taken >= fisico * 6:
            return "muerto"
        if left <= 0:
            return "inconsciente"
        return "malherido" if left <= fisico else "normal"
    band = "normal"
    for name, multiple in BANDS:
        if taken >= fisico * multiple:
            band = name
    return band


def health_band(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
    return state_for_wounds(sheet, wounds(state), settings)


def is_badly_hurt(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return health_band(sheet, state, settings) != "normal"


def is_down(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    """Unconscious or dead: such an actor does not act."""
    return health_band(sheet, state, settings) in ("inconsciente", "muerto")


@dataclass(frozen=True)
class HealthChange:
    """Wounds before and after, the states they mean and the statuses to add and remove."""

    before: int
    after: int
    state_before: str
    state_after: str

    @property
    def add(self) -> frozenset[str]:
        status = STATE_STATUS.get(self.state_after)
        return frozenset({status}) if status else frozenset()

    @property
    def remove(self) -> frozenset[str]:
        return HEALTH_STATUSES - self.add


def change_wounds(
    sheet: Sheet, state: Mapping[str, Any], delta: int, settings: Mapping[str, Any]
) -> HealthChange:
    """Wounds move by ``delta`` (damage > 0, healing < 0), never below 0."""
    before = wounds(state)
    after = max(0, before + delta)
    return HealthChange(
        before,
        after,
        state_for_wounds(sheet, before, settings),
        state_for_wounds(sheet, after, settings),
    )
