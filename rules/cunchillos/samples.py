"""Ready-to-play characters for a demo world: a swordswoman, a brawler with a pistol, a thug."""

from __future__ import annotations

from typing import Any

SAMPLE_SHEETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "ines",
        "Inés",
        {
            "caracteristicas": {"fue": 10, "coo": 6, "res": 6, "per": 12},
            "pv": 30,
            "umbral_mortal": 10,
            "movimiento": 10,
            "nivel": 12,
            "iniciativa": {"primaria": 16, "secundaria": 8},
            "mano_habil": "derecha",
            "habilidades": {
                "espada": {"label": "Espada", "value": 16},
                "esquivar": {"label": "Esquivar", "value": 12},
                "pelea": {"label": "Pelea", "value": 10},
                "alerta": {"label": "Alerta", "value": 12, "tipo": "mental"},
            },
            "armas": {
                "espada": {
                    "label": "Espada",
                    "skill": "espada",
                    "damage": "II",
                    "fue_min": 9,
                    "parada": 3,
                },
                "daga": {
                    "label": "Daga",
                    "skill": "espada",
                    "damage": "I",
                    "fue_min": 4,
                    "parada": 1,
                },
            },
            "en_mano": {"derecha": "espada"},
        },
    ),
    (
        "bruno",
        "Bruno",
        {
            "caracteristicas": {"fue": 14, "coo": 4, "res": 7, "per": 8},
            "pv": 36,
            "umbral_mortal": 12,
            "movimiento": 9,
            "nivel": 8,
            "iniciativa": {"primaria": 12, "secundaria": 10},
            "mano_habil": "derecha",
            "habilidades": {
                "pelea": {"label": "Pelea", "value": 15},
                "pistola": {"label": "Pistola", "value": 13},
                "esquivar": {"label": "Esquivar", "value": 8},
                "alerta": {"label": "Alerta", "value": 9, "tipo": "mental"},
            },
            "armas": {
                "pistola": {
                    "label": "Pistola",
                    "skill": "pistola",
                    "damage": "III",
                    "pistola": True,
                },
                "porra": {
                    "label": "Porra",
                    "skill": "pelea",
                    "damage": "I",
                    "fue_min": 8,
                    "golpe": True,
                    "parada": 1,
                },
            },
            "en_mano": {"derecha": "porra", "izquierda": "pistola"},
        },
    ),
    (
        "maton",
        "Matón",
        {
            "caracteristicas": {"fue": 12, "coo": 3, "res": 5},
            "pv": 24,
            "umbral_mortal": 6,
            "movimiento": 10,
            "iniciativa": {"primaria": 10, "secundaria": 5},
            "habilidades": {
                "hacha": {"label": "Hacha", "value": 12},
                "pelea": {"label": "Pelea", "value": 11},
                "esquivar": {"label": "Esquivar", "value": 5},
            },
            "armas": {
                "hacha": {
                    "label": "Hacha",
                    "skill": "hacha",
                    "damage": "IV",
                    "fue_min": 13,
                    "parada": 2,
                }
            },
            "en_mano": {"derecha": "hacha"},
        },
    ),
)
