"""Savage Worlds tables as data, each with the passage of 004_bafd3d4b8a0f1c8d.txt it comes from.

A table the text names but does not include (the Injury Table) carries a
default with its provenance stated; RULES.md lists it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

ATTRIBUTES: tuple[str, ...] = ("agilidad", "astucia", "espiritu", "fuerza", "vigor")
"""The five attributes (Agilidad, Astucia, Espíritu, Fuerza, Vigor)."""

TRAIT_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
WILD_DIE: Final = 6
TARGET_NUMBER: Final = 4
"""'El VO base ... es 4, como siempre'."""
RAISE: Final = 4
"""A raise is every 4 points over the target number (also over Toughness)."""

MAX_WOUNDS: Final = 3
"""'Los personajes Comodín pueden recibir hasta tres heridas'; '-1 ... hasta un máximo de las tres'."""

JOKER_BONUS: Final = 2
"""'añade +2 a todas las tiradas de rasgo y daño que realice durante el turno'."""

MULTI_ACTION_PENALTY: Final = 2
MAX_ACTIONS: Final = 3
"""'hasta un máximo de tres acciones ... penalización acumulativa de -2'."""

UNSKILLED_DIE: Final = 4
UNSKILLED_MODIFIER: Final = -2
"""Unskilled d4-2: named by the issue 'as in the core rules' (not in the seed text)."""

SKILL_LABELS: Mapping[str, str] = {
    "pelear": "Pelear",
    "disparar": "Disparar",
    "lanzar": "Lanzar",
    "atletismo": "Atletismo",
    "notar": "Notar",
    "sigilo": "Sigilo",
    "sanar": "Sanar",
    "provocar": "Provocar",
    "intimidar": "Intimidar",
}

ROF_AMMO: Mapping[int, int] = {1: 1, 2: 5, 3: 10, 4: 20, 5: 40, 6: 50}
"""'CDF / Balas Consumidas: 1 1, 2 5, 3 10, 4 20, 5 40, 6 50' (given twice, identical)."""

RECOIL_PENALTY: Final = 2
"""'cuando se dispara con esa cadencia tienen un -2 a impactar, salvo que ... bípode'."""

RANGE_MODIFIER: Mapping[str, int] = {"short": 0, "medium": -2, "long": -4}
"""'Los disparos a distancia media restan 2 ... larga 4'."""

COVER_MODIFIER: Mapping[str, int] = {
    "none": 0,
    "light": -1,
    "medium": -2,
    "heavy": -4,
    "near_total": -6,
}
"""Cobertura ligera -1, media -2, pesada -4, casi total -6."""

PRONE_COVER: Final = "medium"
"""'Normalmente esta misma penalización [media] se aplica también ... cuerpo a tierra'."""

LIGHTING_MODIFIER: Mapping[str, int] = {"normal": 0, "dim": -1, "dark": -2, "pitch": -4}
"""Penumbra -1, Oscuridad -2 (nada visible a más de 10 pasos), Oscuridad total -4."""

DARK_SIGHT_LIMIT: Final = 10
BLIND_FIRE_PENALTY: Final = -4
BLIND_STEALTH_PENALTY: Final = -2
BLIND_STEALTH_ROF: Final = 3
"""'Disparar a ciegas ... a -4 ... Sigilo ... -2 cuando ... CdF de 3 o más'."""

MOVING_FIRE_PENALTY: Final = -2
"""XCOM 'Pen.Mov: Si mueves y disparas este arma en un mismo asalto ... -2'."""

MIN_STRENGTH_STEP_PENALTY: Final = -1
"""Ruling (the text only says a bipod removes the minimum Strength): -1 per die step short."""

HOLSTER_READY_FREE: Final = 2
"""XCOM: 'Puedes "preparar" hasta dos armas de fundas por turno' (free)."""

# -- action deck --------------------------------------------------------------
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""'Primero van las picas, luego los corazones, diamantes y finalmente los tréboles'."""
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKERS: tuple[str, ...] = ("JK1", "JK2")
"""'una baraja de cartas francesa (con dos comodines)': 52 + 2 = 54 cards."""
QUICK_REDRAW_AT_MOST: Final = 5
"""Rápido (Quick, named by the text, not described): redraw a card of 5 or lower (core rules)."""

# -- incapacitation -----------------------------------------------------------
DEATH_AT_MOST: Final = 1
"""'Total de 1 o inferior: El personaje muere'."""
TEMPORARY_INJURY_HOURS: Final = 24
"""'Aumento: los efectos desaparecerán a las 24 horas o cuando se curen todas las heridas'."""
TREATMENT_HOURS: Final = 24
"""Ruling (core rules, not the seed): one Healing treatment per patient a day."""
BLEEDING_MAX_MINUTES: Final = 600
"""How many minute checks one time advance runs before stopping (a guard, not a rule)."""

INJURY_TABLE: tuple[tuple[int, int, str], ...] = (
    (2, 2, "unmentionables"),
    (3, 4, "arm"),
    (5, 9, "guts"),
    (10, 10, "leg"),
    (11, 12, "head"),
)
"""'Tabla de Heridas Críticas' is named but not included in the seed text.

Default (provenance: the Savage Worlds Adventure Edition Injury Table, 2d6, facts
only): 2 unmentionables, 3-4 arm, 5-9 guts, 10 leg, 11-12 head; guts and head
roll a d6 for the detail below. A world replaces it with the setting
``injury_table`` (see :func:`parse_injury_table`).
"""

INJURY_DETAIL: Mapping[str, tuple[tuple[int, int, str], ...]] = {
    "guts": ((1, 2, "guts_broken"), (3, 4, "guts_battered"), (5, 6, "guts_busted")),
    "head": ((1, 2, "head_scar"), (3, 4, "head_blinded"), (5, 6, "head_brain")),
}

INJURY_ATTRIBUTE: Mapping[str, str] = {
    "guts_broken": "agilidad",
    "guts_battered": "vigor",
    "guts_busted": "fuerza",
    "head_brain": "astucia",
}
"""Injuries that lower an attribute one die step (minimum d4) while they last."""


INJURY_KEYS: tuple[str, ...] = (
    "unmentionables",
    "arm",
    "guts",
    "leg",
    "head",
    *(key for rows in INJURY_DETAIL.values() for _, _, key in rows),
)
"""What a world's own table may name (each has its label; guts/head roll their detail)."""


def parse_injury_table(text: str) -> tuple[tuple[int, int, str], ...] | None:
    """A world's Injury Table: ``"2:unmentionables;3-4:arm;5-9:guts;10:leg;11-12:head"``.

    Every total of 2d6 (2-12) once, each entry a known key. None when malformed.
    """
    rows: list[tuple[int, int, str]] = []
    for part in text.split(";"):
        span, sep, key = part.strip().partition(":")
        low_text, dash, high_text = span.strip().partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if dash else low
        except ValueError:
            return None
        if not sep or key.strip() not in INJURY_KEYS or low > high:
            return None
        rows.append((low, high, key.strip()))
    covered = sorted(v for low, high, _ in rows for v in range(low, high + 1))
    if covered != list(range(2, 13)):
        return None
    return tuple(sorted(rows))


def injury_from(table: tuple[tuple[int, int, str], ...], value: int) -> str:
    for low, high, key in table:
        if low <= value <= high:
            return key
    raise ValueError(f"no injury for {value}")
