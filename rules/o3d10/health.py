"""o3d10 health: the wound bands of 'Estados de Salud' and the older hit-point reading.

The text holds two versions (see RULES.md): by default wounds (damage taken)
are compared with Físico x3 / x4 / x6; the ``health_model = "hit_points"``
setting reads 'Malherido: Si los PVs ... son iguales a su físico, o inferior'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.o3d10.sheet import Sheet

# 'Normal: Heridas de 0 a Físico x3 (no inclusive). Malherido: de Físico x3 a Físico x4 ...
#  Inconsciente: de Físico x4 a Físico x6 ... Muerto: Heridas Físico x6 o superior.'
BANDS: tuple[tuple[str, int], ...] = (("malherido", 3), ("inconsciente", 4), ("muerto", 6))


def physique(sheet: Sheet) -> int:
    return sheet.attributes.get("fisico", 0)


def health_band(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
    """normal, malherido, inconsciente or muerto."""
    fisico = physique(sheet)
    if settings.get("health_model") == "hit_points":
        hp = int(state.get("pv", fisico * 6))
        if hp <= 0:
            return "inconsciente"
        return "malherido" if hp <= fisico else "normal"
    wounds = int(state.get("heridas", 0))
    band = "normal"
    for name, multiple in BANDS:
        if wounds >= fisico * multiple:
            band = name
    return band


def is_badly_hurt(sheet: Sheet, state: Mapping[str, Any], settings: Mapping[str, Any]) -> bool:
    return health_band(sheet, state, settings) != "normal"
