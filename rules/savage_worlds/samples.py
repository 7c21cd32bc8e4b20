"""Demo characters: the seed's special agent and barbarian, the ogre, terrorists, an alien, a civilian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.model import Actor, JsonMap

AGENTE: dict[str, Any] = {
    "wild_card": True,
    "attributes": {"agilidad": 8, "astucia": 6, "espiritu": 6, "fuerza": 6, "vigor": 6},
    "skills": {"disparar": 8, "pelear": 6, "atletismo": 6, "notar": 8, "sigilo": 6, "sanar": 4},
    "armor": 2,
    "bennies": 3,
    "edges": ["temple"],
    "weapons": [
        {
            "id": "subfusil",
            "name": "Subfusil",
            "kind": "ranged",
            "damage": "2d6",
            "rof": 3,
            "shots": 30,
            "magazines": 3,
        },
        {
            "id": "ametralladora",
            "name": "Ametralladora ligera",
            "kind": "ranged",
            "damage": "2d8",
            "rof": 4,
            "shots": 100,
            "magazines": 1,
            "reload": "belt",
            "ap": 2,
            "heavy": True,
            "bipod": True,
            "pen_mov": True,
            "min_str": 8,
        },
        {"id": "cuchillo", "name": "Cuchillo", "kind": "melee", "damage": "d4"},
    ],
}
BARBARA: dict[str, Any] = {
    "wild_card": True,
    "attributes": {"agilidad": 8, "astucia": 4, "espiritu": 8, "fuerza": 12, "vigor": 10},
    "skills": {"pelear": 10, "lanzar": 6, "atletismo": 8, "notar": 6, "sanar": 6, "intimidar": 8},
    "armor": 1,
    "bennies": 3,
    "edges": ["frenesi", "rapido"],
    "weapons": [
        {"id": "espada_larga", "name": "Espada larga", "kind": "melee", "damage": "d8"},
        {
            "id": "granada",
            "name": "Granada",
            "kind": "thrown",
            "damage": "3d6",
            "shots": 2,
            "magazines": 0,
            "area": True,
        },
    ],
}
OGRO: dict[str, Any] = {
    "wild_card": True,
    "side": "villains",
    "attributes": {"agilidad": 6, "astucia": 4, "espiritu": 6, "fuerza": 12, "vigor": 12},
    "skills": {"pelear": 8, "notar": 4, "atletismo": 6},
    "toughness": 11,
    "bennies": 1,
    "weapons": [{"id": "garrote", "name": "Garrote", "kind": "melee", "damage": "d8"}],
}
TERRORISTA: dict[str, Any] = {
    "wild_card": False,
    "side": "villains",
    "group": "terroristas",
    "attributes": {"agilidad": 6, "astucia": 4, "espiritu": 6, "fuerza": 6, "vigor": 6},
    "skills": {"disparar": 6, "pelear": 6, "notar": 6, "sigilo": 4},
    "weapons": [
        {
            "id": "pistola",
            "name": "Pistola",
            "kind": "ranged",
            "damage": "2d6",
            "shots": 15,
            "magazines": 2,
        }
    ],
}
ALIEN: dict[str, Any] = {
    "wild_card": False,
    "side": "villains",
    "group": "sectoides",
    "attributes": {"agilidad": 8, "astucia": 8, "espiritu": 6, "fuerza": 4, "vigor": 6},
    "skills": {"disparar": 6, "notar": 8, "sigilo": 6},
    "weapons": [
        {
            "id": "pistola_plasma",
            "name": "Pistola de plasma",
            "kind": "ranged",
            "damage": "2d8",
            "shots": 20,
        }
    ],
}
CIVIL: dict[str, Any] = {
    "wild_card": False,
    "side": "civilians",
    "attributes": {"agilidad": 6, "astucia": 6, "espiritu": 4, "fuerza": 4, "vigor": 6},
    "skills": {"sigilo": 6, "notar": 4},
}

SAMPLES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("agente", "Agente Vega", AGENTE),
    ("barbara", "Brunhilda la Bárbara", BARBARA),
    ("ogro", "Ogro", OGRO),
    ("terrorista1", "Terrorista 1", TERRORISTA),
    ("terrorista2", "Terrorista 2", TERRORISTA),
    ("sectoide", "Sectoide", ALIEN),
    ("civil", "Civil", CIVIL),
)


def sample_actors(
    validate: Callable[[JsonMap], JsonMap], initial: Callable[[JsonMap], JsonMap]
) -> tuple[Actor, ...]:
    out = []
    for actor_id, name, raw in SAMPLES:
        sheet = validate(raw)
        out.append(Actor(actor_id, name, None, sheet, initial(sheet)))
    return tuple(out)
