"""brp_d10 tables as data, each with the passage of 001_375c3d4f1c0cc1cc.txt it comes from.

Tables the text names but does not print (hit locations, the damage bonus by
Fuerza) carry a default of ours; RULES.md states their provenance.
"""

from __future__ import annotations

from collections.abc import Mapping

CHARACTERISTICS: tuple[str, ...] = ("fuerza", "agilidad", "resistencia", "tamano")
"""'Sí hay cuatro características físicas, cuyo valor va del 1 al 10': Fuerza, Agilidad,
Resistencia, Tamaño."""

MAX_VALUE = 10
"""'siendo 10 el tope máximo para un ser humano' (characteristics and skills)."""

LOCATIONS: tuple[str, ...] = (
    "pierna_derecha",
    "pierna_izquierda",
    "brazo_derecho",
    "brazo_izquierdo",
    "abdomen",
    "pecho",
    "cabeza",
)
"""'siete localizaciones, a saber: pierna derecha, pierna izquierda, brazo derecho, brazo
izquierdo, abdomen, pecho y cabeza'."""

LIMBS: frozenset[str] = frozenset(
    {"pierna_derecha", "pierna_izquierda", "brazo_derecho", "brazo_izquierdo"}
)
LEGS: frozenset[str] = frozenset({"pierna_derecha", "pierna_izquierda"})
ARMS: frozenset[str] = frozenset({"brazo_derecho", "brazo_izquierdo"})
VITAL: frozenset[str] = frozenset({"cabeza", "pecho"})

HIT_LOCATION_D10: Mapping[int, str] = {
    # 'se determinará al azar tirando 1d10 en la siguiente tabla:' -- the table is missing from
    # the text. Default of ours, in the text's order of listing: legs 40 %, abdomen 10 %,
    # chest 20 %, arms 20 %, head 10 %.
    1: "pierna_derecha",
    2: "pierna_derecha",
    3: "pierna_izquierda",
    4: "pierna_izquierda",
    5: "abdomen",
    6: "pecho",
    7: "pecho",
    8: "brazo_derecho",
    9: "brazo_izquierdo",
    10: "cabeza",
}

DAMAGE_BONUS_BY_FUERZA: Mapping[int, int] = {
    # 'La Fuerza proporciona ... un leve modificador al daño:' -- the table is missing. Default of
    # ours: a slight modifier, 0 for the human average of 5.
    1: -2,
    2: -1,
    3: -1,
    4: 0,
    5: 0,
    6: 0,
    7: 1,
    8: 1,
    9: 2,
    10: 2,
}

ACTION_SPLIT: Mapping[int, Mapping[int, tuple[int, ...] | None]] = {
    # 'Si un arma permite más de una acción por asalto, hay que dividir la Agilidad ...' and the
    # table under it, copied whole ('/' = not possible). Agilidad 4 with 3 A/A reads 4-2-1 in
    # the table although the formula gives 4-2-0: the table wins (RULES.md).
    1: {a: (a,) for a in range(1, MAX_VALUE + 1)},
    2: {
        1: None,
        2: (2, 1),
        3: (3, 1),
        4: (4, 2),
        5: (5, 2),
        6: (6, 3),
        7: (7, 3),
        8: (8, 4),
        9: (9, 4),
        10: (10, 5),
    },
    3: {
        1: None,
        2: None,
        3: (3, 2, 1),
        4: (4, 2, 1),
        5: (5, 3, 1),
        6: (6, 4, 2),
        7: (7, 4, 1),
        8: (8, 5, 2),
        9: (9, 6, 3),
        10: (10, 6, 2),
    },
}

TENTHS_IN_ROUND = 10
"""'en un segundo dividido en diez décimas': Agilidad 7 acts in the fourth tenth, 5 in the
sixth, 3 in the eighth, 2 in the ninth, 10 in the first: tenth = 11 - Agilidad."""

WOUND_LEVELS: tuple[str, ...] = ("leve", "grave", "incapacitada", "destruida")
"""'1) Herida leve ... 2) Herida grave ... 3) Localización incapacitada ... 4) Localización
amputada/destruida'. Level numbers 1-4 index this tuple from 1."""

WOUND_DIFFICULTY: Mapping[int, int] = {
    1: 1,  # 'un +1 a la dificultad a todas sus acciones hasta que se cure'
    2: 2,  # 'un +2 a la dificultad a todas sus acciones hasta que se cure'
    3: 4,  # 'entraría un +4 a la dificultad hasta que se cure'
    4: 4,  # the text gives no number for a destroyed location: ruled as +4 (RULES.md)
}

SPRAY_SIZE = 5
"""'se dividen los disparos en rociadas de cinco balas o fracción de cinco'."""

SPRAY_RANGE_MODIFIER: Mapping[str, int] = {
    # 'añadiendo un -2 a la dificultad después de la primera rociada si el blanco está a
    # distancia corta, un +2 si está a distancia media y un +4 si está a distancia larga'
    "short": -2,
    "medium": 2,
    "long": 4,
}

RANGE_MODIFIER: Mapping[str, int] = {
    # 'Blanco a distancia corta -3', 'Blanco a distancia larga +3', 'Cuando el blanco está a
    # distancia media no hay modificadores'
    "short": -3,
    "medium": 0,
    "long": 3,
}

SCOPE_RANGE: Mapping[str, str] = {
    # 'Una mira telescópica acerca el blanco una distancia, de forma que permite aplicar el
    # bonificador positivo por distancia corta a la distancia media, y anula el bonificador
    # negativo por distancia larga': medium counts as short, long as medium.
    "short": "short",
    "medium": "short",
    "long": "medium",
}

COVER_MODIFIER: Mapping[str, int] = {
    "none": 0,
    "partial": 2,  # 'Blanco con cobertura parcial +2'
    "total": 4,  # 'Blanco con cobertura total +4'
}

MELEE_MODIFIERS: Mapping[str, int] = {
    # 'Cuerpo a cuerpo' list, one entry per line
    "precision": 1,  # 'Golpe de precisión +1'
    "blind": 2,  # 'Luchar a ciegas +2'
    "off_hand": 4,  # 'Mano inhábil +4'
    "drawn": 2,  # 'Se ha desenvainado en ese asalto +2'
    "target_prone": -4,  # 'Adversario derribado -4'
    "mounted": 2,  # 'Ir montado +2'
    "mounted_vs_foot": -2,  # 'Atacar montado/adversario a pie -2 (... sólo en el ataque)'
    "ideal": -5,  # 'Atacar en condiciones ideales de combate -5'
}

RANGED_MODIFIERS: Mapping[str, int] = {
    # 'A distancia' list, one entry per line (range and cover above)
    "aim_per_round": -1,  # 'Apuntar -1/asalto (máximo dos asaltos)'
    "precision": 1,  # 'Disparo de precisión +1'
    "off_hand": 4,  # 'Mano inhábil +4'
    "target_moving": 2,  # 'Blanco en movimiento +2'
    "shooter_moving": 2,  # 'Tirador en movimiento +2'
    "laser": -2,  # 'Guía láser -2 (sólo hasta distancia media)'
    "drawn": 2,  # 'Se ha desenfundado en ese asalto +2'
}

MAX_AIM_ROUNDS = 2
"""'no se puede acumular más de un -2 a la dificultad'."""

ACCUMULATION_PER_ACTION = 1
"""'Acumulación de acciones +1/acción' ('cada acción después de la primera tiene un +1')."""

SECONDS: Mapping[str, int] = {
    # 'lo asaltos de combate tienen una duración de un segundo'
    "round": 1,
    "minute": 60,
    "hour": 3600,
    "day": 86400,
}

DAY = SECONDS["day"]
WEEK = 7 * DAY

RECOVERY: Mapping[str, Mapping[str, int]] = {
    # 'Una Herida Grave requerirá tres semanas de reposo, durante las dos primeras ... +2 ...
    # Una tirada exitosa de Medicina supone que sólo sean necesarias dos semanas de reposo y sólo
    # se tenga el +2 a la dificultad durante la primera.'
    "grave": {"rest": 3 * WEEK, "penalty": 2 * WEEK},
    "grave_medicine": {"rest": 2 * WEEK, "penalty": 1 * WEEK},
    # 'Una Localización Incapacitada requiere dos meses de reposo con el +4 ... Una tirada
    # exitosa de Medicina supone que sólo sea necesario un mes' (a month ruled as 30 days)
    "incapacitada": {"rest": 60 * DAY, "penalty": 60 * DAY},
    "incapacitada_medicine": {"rest": 30 * DAY, "penalty": 30 * DAY},
}

DEATH_CLOCK_UNIT: Mapping[str, str] = {
    # abdomen incapacitated: 'en un número de horas igual a su característica de Resistencia'
    "abdomen": "hour",
    # severed limb: 'en un número de asaltos (ya no de horas) igual a su Resistencia'
    "amputation": "round",
    # hypovolemic shock: 'en un número de minutos (ya no de horas, ni de asaltos) igual a su
    # Resistencia'
    "shock": "minute",
}

INJURY_LOSS: Mapping[str, str] = {
    # 'el hueso habrá soldado mal, perdiendo ... Agilidad, o bien el órgano ... Resistencia'
    "bone": "agilidad",
    "organ": "resistencia",
}

FIRE_MODES: tuple[str, ...] = ("single", "burst", "sustained")
"""'tiro a tiro, por ráfagas o fuego sostenido'."""

WEAPON_KINDS: tuple[str, ...] = ("melee", "ranged", "thrown", "shield")
