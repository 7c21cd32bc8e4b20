"""Ready-to-play characters for a demo world: the seed's Jimmy Brincos, Frank and Dr. Sanderson,
and a rival family's gunman (a PNJ)."""

from __future__ import annotations

from typing import Any

COLT = {
    "label": "Colt M1911",
    "kind": "firearm",
    "type": "pistol",
    "skill": "arma_corta",
    "damage": "1d10+2",
    "capacity": 7,
    "shots": 3,
}
KNIFE = {"label": "Navaja", "kind": "melee", "skill": "arma_blanca", "damage": "1d4+2"}
FISTS = {"label": "Puños", "kind": "natural", "skill": "pelea", "damage": "1d3"}

SAMPLE_SHEETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "jimmy",
        "Jimmy Brincos",
        {
            "pc": True,
            "hp": 18,
            "characteristics": {
                "fue": 12,
                "con": 13,
                "des": 15,
                "agi": 14,
                "int": 11,
                "pod": 10,
                "car": 12,
            },
            "skills": {
                "arma_corta": {"label": "Arma corta", "value": 60},
                "arma_blanca": {"label": "Arma blanca", "value": 45},
                "pelea": {"label": "Pelea", "value": 50},
                "esquivar": {"label": "Esquivar", "value": 45},
                "lanzar": {"label": "Lanzar", "value": 40},
                "primeros_auxilios": {"label": "Primeros auxilios", "value": 35},
            },
            "weapons": {
                "colt": COLT,
                "navaja": KNIFE,
                "punos": FISTS,
                "cuchillo_arrojadizo": {
                    "label": "Cuchillo arrojadizo",
                    "kind": "thrown",
                    "skill": "lanzar",
                    "damage": "1d4",
                    "capacity": 3,
                },
            },
        },
    ),
    (
        "frank",
        "Frank",
        {
            "pc": True,
            "hp": 15,
            "characteristics": {
                "fue": 14,
                "con": 14,
                "des": 13,
                "agi": 12,
                "int": 10,
                "pod": 11,
                "car": 9,
            },
            "skills": {
                "metralleta": {"label": "Metralleta", "value": 55},
                "escopeta": {"label": "Escopeta", "value": 50},
                "pelea": {"label": "Pelea", "value": 55},
                "esquivar": {"label": "Esquivar", "value": 35},
                "mecanica": {"label": "Mecánica", "value": 40},
            },
            "weapons": {
                "thompson": {
                    "label": "Thompson M1928",
                    "kind": "firearm",
                    "type": "thompson",
                    "skill": "metralleta",
                    "damage": "1d10+2",
                    "capacity": 50,
                    "shots": 3,
                },
                "lupara": {
                    "label": "Lupara",
                    "kind": "firearm",
                    "type": "lupara",
                    "skill": "escopeta",
                    "capacity": 2,
                    "shots": 2,
                },
                "bate": {
                    "label": "Bate de béisbol",
                    "kind": "melee",
                    "skill": "pelea",
                    "damage": "1d8",
                    "damage_type": "contusion",
                },
                "punos": FISTS,
            },
        },
    ),
    (
        "sanderson",
        "Dr. Sanderson",
        {
            "pc": True,
            "hp": 12,
            "characteristics": {
                "fue": 9,
                "con": 11,
                "des": 13,
                "agi": 10,
                "int": 16,
                "pod": 13,
                "car": 12,
            },
            "skills": {
                "medicina": {"label": "Medicina", "value": 80},
                "primeros_auxilios": {"label": "Primeros auxilios", "value": 70},
                "arma_corta": {"label": "Arma corta", "value": 30},
                "esquivar": {"label": "Esquivar", "value": 30},
                "pelea": {"label": "Pelea", "value": 20},
            },
            "weapons": {
                "revolver": {
                    "label": "Revólver .38",
                    "kind": "firearm",
                    "type": "revolver",
                    "skill": "arma_corta",
                    "damage": "1d10",
                    "capacity": 6,
                    "shots": 2,
                },
            },
        },
    ),
    (
        "tony",
        "Tony el Sordo",
        {
            "pc": False,
            "hp": 14,
            "characteristics": {
                "fue": 13,
                "con": 12,
                "des": 14,
                "agi": 13,
                "int": 9,
                "pod": 9,
                "car": 8,
            },
            "skills": {
                "fusil": {"label": "Fusil", "value": 55},
                "escopeta": {"label": "Escopeta", "value": 45},
                "arma_blanca": {"label": "Arma blanca", "value": 50},
                "pelea": {"label": "Pelea", "value": 45},
                "esquivar": {"label": "Esquivar", "value": 30},
                "mecanica": {"label": "Mecánica", "value": 25},
            },
            "weapons": {
                "springfield": {
                    "label": "Rifle Springfield",
                    "kind": "firearm",
                    "type": "rifle",
                    "skill": "fusil",
                    "damage": "2d6+4",
                    "capacity": 5,
                    "shots": 1,
                },
                "escopeta": {
                    "label": "Escopeta del 12",
                    "kind": "firearm",
                    "type": "shotgun",
                    "skill": "escopeta",
                    "capacity": 2,
                    "shots": 2,
                },
                "navaja": KNIFE,
                "punos": FISTS,
            },
        },
    ),
)
