"""o3d10 tables as data, with the passage of 003_8d923c0264e4ee0a.txt they come from."""

from __future__ import annotations

from collections.abc import Mapping

LEVELS: tuple[str, ...] = ("facil", "normal", "dificil", "muy_dificil", "casi_imposible")

ATTRIBUTE_DIFFICULTY: Mapping[str, int] = {
    # "Tiradas de Atributo ... Fácil: 9 Normal: 12 Difícil: 15 Muy Difícil: 18 Casi imposible: 21"
    "facil": 9,
    "normal": 12,
    "dificil": 15,
    "muy_dificil": 18,
    "casi_imposible": 21,
}

SKILL_DIFFICULTY: Mapping[str, int] = {
    # "Tiradas de Habilidad ... Fácil: 10 Normal: 15 Difícil: 20 Muy Difícil: 25 Casi Imposible: 30"
    "facil": 10,
    "normal": 15,
    "dificil": 20,
    "muy_dificil": 25,
    "casi_imposible": 30,
}

CRITICAL_MARGIN = 10
"""'Una tirada de crítico ... es una que supera en 10 la dificultad' (ruled: total >= difficulty + 10)."""

FUMBLE_ABOVE_MAX = 5
"""'Una pifia es un 1 en el dado guardado, y <=5 en el dado inmediatamente anterior'."""

DEFAULT_ATTRIBUTES: tuple[str, ...] = (
    "fisico",
    "destreza",
    "percepcion",
    "inteligencia",
    "carisma",
)
"""Attributes a sample sheet uses; the text names Físico, Destreza, Percepción, Inteligencia."""
