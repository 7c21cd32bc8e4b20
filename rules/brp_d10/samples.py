"""Ready-to-play characters for a demo world, taken from the seed's worked examples."""

from __future__ import annotations

from typing import Any

_BROADSWORD = {
    "label": "Espada ancha",
    "kind": "melee",
    "skill": "espadas",
    "damage": "1d8+1",
    "actions": 2,
    "injury": "organ",
}

FRENCH_KNIGHT: dict[str, Any] = {
    # 'El francés tiene una Agilidad de 7 y una habilidad de Espadas largas a 1 mano de 3'
    "characteristics": {"fuerza": 5, "agilidad": 7, "resistencia": 5, "tamano": 5},
    "skills": {
        "espadas": {"label": "Espadas largas a 1 mano", "value": 3, "base": ["fuerza"]},
        "esquivar": {"label": "Esquivar", "value": 3, "base": ["agilidad"]},
        "medicina": {"label": "Medicina", "value": 0, "kind": "knowledge"},
    },
    "weapons": {"espada": _BROADSWORD},
}

SPANISH_KNIGHT: dict[str, Any] = {
    # 'el español tiene una Agilidad de 5 y una habilidad de 5'
    "characteristics": {"fuerza": 7, "agilidad": 5, "resistencia": 5, "tamano": 6},
    "skills": {
        "espadas": {"label": "Espadas largas a 1 mano", "value": 5, "base": ["fuerza"]},
        "escudo": {"label": "Escudo", "value": 4},
        "esquivar": {"label": "Esquivar", "value": 2},
        "medicina": {"label": "Medicina", "value": 3, "kind": "knowledge"},
    },
    "weapons": {
        "espada": _BROADSWORD,
        "rodela": {
            "label": "Rodela",
            "kind": "shield",
            "skill": "escudo",
            "damage": "1d3",
            "actions": 2,
        },
    },
}

SPECIAL_AGENT: dict[str, Any] = {
    # 'El agente tiene un 5 en Fusiles automáticos, y su arma dispara tres balas por ráfaga'
    "characteristics": {"fuerza": 6, "agilidad": 6, "resistencia": 6, "tamano": 6},
    "skills": {
        "fusiles_automaticos": {"label": "Fusiles automáticos", "value": 5},
        "cuchillos": {"label": "Cuchillos", "value": 4},
        "esquivar": {"label": "Esquivar", "value": 3},
        "medicina": {"label": "Medicina", "value": 4, "kind": "knowledge"},
    },
    "weapons": {
        "subfusil": {
            "label": "Subfusil táctico",
            "kind": "ranged",
            "skill": "fusiles_automaticos",
            "damage": "1d8",
            "automatic": True,
            "modes": ["single", "burst", "sustained"],
            "burst": 3,
            "sustained": 10,
            "rate": 6,
            "magazine": 30,
        },
        "cuchillo": {
            "label": "Cuchillo de combate",
            "kind": "melee",
            "skill": "cuchillos",
            "damage": "1d4+1",
            "actions": 3,
        },
    },
    "armour": {"pecho": 3, "abdomen": 3},
}

BODYGUARD: dict[str, Any] = {
    # 'El guardaespaldas tiene una Agilidad de 5 ... su habilidad de Pistolas semiautomáticas es
    # de 4'
    "characteristics": {"fuerza": 6, "agilidad": 5, "resistencia": 5, "tamano": 6},
    "skills": {
        "pistolas": {"label": "Pistolas semiautomáticas", "value": 4},
        "pelea": {"label": "Pelea", "value": 3},
        "esquivar": {"label": "Esquivar", "value": 2},
    },
    "weapons": {
        "pistola": {
            "label": "Pistola semiautomática",
            "kind": "ranged",
            "skill": "pistolas",
            "damage": "1d8",
            "automatic": True,
            "modes": ["single"],
            "rate": 5,
            "magazine": 15,
            "pistol": True,
        },
        "punos": {
            "label": "Puños",
            "kind": "melee",
            "skill": "pelea",
            "damage": "1d3",
            "actions": 2,
        },
    },
}

SAMPLE_SHEETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("frances", "Caballero francés", FRENCH_KNIGHT),
    ("espanol", "Caballero español", SPANISH_KNIGHT),
    ("agente", "Agente de las Fuerzas Especiales", SPECIAL_AGENT),
    ("guardaespaldas", "Guardaespaldas", BODYGUARD),
)
