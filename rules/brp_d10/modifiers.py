"""Difficulty modifiers of combat, each with its key so a card can label it.

'Estos modificadores, como todos los modificadores de dificultad, son acumulables.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.brp_d10.sheet import Weapon
from rules.brp_d10.tables import (
    COVER_MODIFIER,
    MAX_AIM_ROUNDS,
    MELEE_MODIFIERS,
    RANGE_MODIFIER,
    RANGED_MODIFIERS,
    SCOPE_RANGE,
)

COVER_ORDER: tuple[str, ...] = ("none", "partial", "total")


@dataclass(frozen=True)
class Mod:
    key: str
    value: int


def total(mods: tuple[Mod, ...]) -> int:
    return sum(m.value for m in mods)


def common(penalty: int, accumulation: int, extra: int) -> tuple[Mod, ...]:
    mods = []
    if accumulation:
        mods.append(Mod("accumulation", accumulation))
    if penalty:
        mods.append(Mod("wounds", penalty))
    if extra:
        mods.append(Mod("gm", extra))
    return tuple(mods)


def melee(params: Mapping[str, Any]) -> tuple[Mod, ...]:
    mods = []
    if params.get("location"):
        mods.append(Mod("precision", MELEE_MODIFIERS["precision"]))
    for key in (
        "blind",
        "off_hand",
        "drawn",
        "target_prone",
        "mounted",
        "mounted_vs_foot",
        "ideal",
    ):
        if params.get(key):
            mods.append(Mod(key, MELEE_MODIFIERS[key]))
    return tuple(mods)


def effective_cover(params: Mapping[str, Any]) -> str:
    """'Un blanco tumbado en el suelo se considera con cobertura parcial, igual que uno que esté
    a una altura sobre el tirador. Si el blanco está a dos o más alturas ... cobertura total.'
    The worst cover counts; they do not add up (ruling)."""
    levels = [COVER_ORDER.index(str(params.get("cover", "none")))]
    if params.get("target_prone"):
        levels.append(1)
    height = int(params.get("target_height", 0))
    if height == 1:
        levels.append(1)
    elif height >= 2:
        levels.append(2)
    return COVER_ORDER[max(levels)]


def range_band(weapon: Weapon, band: str, use_scope: bool, sustained: bool) -> str:
    """The band the range modifier reads: a scope shifts it one closer, never on a pistol
    ('no supone ninguna ventaja') nor in sustained fire."""
    if use_scope and weapon.scope and not weapon.pistol and not sustained:
        return SCOPE_RANGE[band]
    return band


def ranged(
    params: Mapping[str, Any],
    weapon: Weapon,
    aim_rounds: int,
    *,
    sustained: bool,
    sustained_range: str,
) -> tuple[Mod, ...]:
    mods = []
    aim = min(MAX_AIM_ROUNDS, aim_rounds)
    if aim:
        mods.append(Mod("aim", RANGED_MODIFIERS["aim_per_round"] * aim))
    if params.get("location"):
        mods.append(Mod("precision", RANGED_MODIFIERS["precision"]))
    cover = effective_cover(params)
    if cover != "none":
        mods.append(Mod(f"cover_{cover}", COVER_MODIFIER[cover]))
    for key in ("off_hand", "target_moving", "shooter_moving", "drawn"):
        if params.get(key):
            mods.append(Mod(key, RANGED_MODIFIERS[key]))
    band = str(params.get("range", "medium"))
    if not (sustained and sustained_range == "replace"):
        read = range_band(weapon, band, bool(params.get("scope", True)), sustained)
        if RANGE_MODIFIER[read]:
            mods.append(Mod(f"range_{read}", RANGE_MODIFIER[read]))
        if read != band:
            mods.append(Mod("scope", 0))
    if params.get("laser", True) and weapon.laser and not sustained and band != "long":
        mods.append(Mod("laser", RANGED_MODIFIERS["laser"]))
    return tuple(mods)
