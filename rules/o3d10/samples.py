"""Ready-to-play o3d10 characters and a foe for a demo world (sheets as plain JSON)."""

from __future__ import annotations

from typing import Any


def _skill(label: str, value: int, attribute: str) -> dict[str, Any]:
    return {"label": label, "value": value, "attribute": attribute}


ALDARA: dict[str, Any] = {
    "attributes": {"fisico": 8, "destreza": 6, "percepcion": 5, "inteligencia": 4, "carisma": 5},
    "skills": {
        "cuerpo_a_cuerpo": _skill("Cuerpo a Cuerpo", 4, "fisico"),
        "armas_a_distancia": _skill("Armas a Distancia", 3, "destreza"),
        "sigilo": _skill("Sigilo", 2, "destreza"),
        "advertir_notar": _skill("Advertir/Notar", 0, "percepcion"),
    },
    "weapons": {
        "espada": {"label": "Espada", "tipo": "cuerpo", "dano": "2d6"},
        "ballesta": {"label": "Ballesta", "tipo": "distancia", "dano": "1d10", "capacidad": 1},
    },
    "armour": {"label": "Cota de malla", "tipo": "media", "defensa": 2},
}

BRUNO: dict[str, Any] = {
    "attributes": {"fisico": 6, "destreza": 7, "percepcion": 6, "inteligencia": 5, "carisma": 3},
    "skills": {
        "cuerpo_a_cuerpo": _skill("Cuerpo a Cuerpo", 2, "fisico"),
        "sigilo": _skill("Sigilo", 4, "destreza"),
        "advertir_notar": _skill("Advertir/Notar", 3, "percepcion"),
    },
    "weapons": {
        "daga": {"label": "Daga", "tipo": "cuerpo", "dano": "1d6+1", "ligera": True},
        "espada_corta": {
            "label": "Espada corta",
            "tipo": "cuerpo",
            "dano": "1d6+3",
            "ligera": True,
        },
    },
    "armour": {"label": "Jubón de cuero", "tipo": "ligera"},
}

CASILDA: dict[str, Any] = {
    "attributes": {"fisico": 5, "destreza": 7, "percepcion": 7, "inteligencia": 6, "carisma": 4},
    "skills": {
        "cuerpo_a_cuerpo": _skill("Cuerpo a Cuerpo", 1, "fisico"),
        "armas_a_distancia": _skill("Armas a Distancia", 5, "destreza"),
        "advertir_notar": _skill("Advertir/Notar", 4, "percepcion"),
        "conjurar": {"label": "Conjurar", "value": 3, "attribute": "inteligencia", "conjuro": True},
    },
    "weapons": {
        "pistola": {
            "label": "Pistola de chispa",
            "tipo": "fuego",
            "dano": "2d6",
            "clase": "pistola_chispa",
            "capacidad": 1,
        },
    },
    "estorbo": 1,
}

BANDIDO: dict[str, Any] = {
    "attributes": {"fisico": 6, "destreza": 5, "percepcion": 4, "inteligencia": 3, "carisma": 3},
    "skills": {
        "cuerpo_a_cuerpo": _skill("Cuerpo a Cuerpo", 3, "fisico"),
        "advertir_notar": _skill("Advertir/Notar", 2, "percepcion"),
    },
    "weapons": {"hacha": {"label": "Hacha", "tipo": "cuerpo", "dano": "1d8+1"}},
    "armour": {"label": "Cuero", "tipo": "ligera", "defensa": 1},
}

SAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("aldara", "Aldara", ALDARA),
    ("bruno", "Bruno", BRUNO),
    ("casilda", "Casilda", CASILDA),
    ("bandido", "Bandido", BANDIDO),
)
