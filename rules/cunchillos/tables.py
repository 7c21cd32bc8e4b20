"""cunchillos tables as data, each with the passage of 002_8baaf1d4570df142.txt it comes from.

Tables the text names but does not print (the hit-location die, the fumble
outcome) carry a default marked ``DEFAULT`` with the reasoning in RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping

LOCATION_KEYS: tuple[str, ...] = (
    "cabeza",
    "brazo_derecho",
    "brazo_izquierdo",
    "pecho",
    "abdomen",
    "pierna_derecha",
    "pierna_izquierda",
)

LOCATION_BY_FACE: Mapping[int, str] = {
    # DEFAULT: 'en la localización (dE)' names a d10 location die but prints no table.
    # Faces run from the head down, so "uno hacia arriba y otro hacia abajo" (Tipo IV)
    # walks the faces: up is a lower face, down a higher one.
    1: "cabeza",
    2: "brazo_derecho",
    3: "brazo_izquierdo",
    4: "pecho",
    5: "pecho",
    6: "pecho",
    7: "abdomen",
    8: "abdomen",
    9: "pierna_derecha",
    10: "pierna_izquierda",
}

LOCATION_GROUP: Mapping[str, str] = {
    # 'Cabeza / Pecho / Brazos / Abdomen / Piernas' (Gravedad de las heridas)
    "cabeza": "cabeza",
    "pecho": "pecho",
    "brazo_derecho": "brazo",
    "brazo_izquierdo": "brazo",
    "abdomen": "abdomen",
    "pierna_derecha": "pierna",
    "pierna_izquierda": "pierna",
}

ARM_OF_HAND: Mapping[str, str] = {"derecha": "brazo_derecho", "izquierda": "brazo_izquierdo"}
HANDS: tuple[str, ...] = ("derecha", "izquierda")

DAMAGE_TYPES: tuple[str, ...] = ("0", "I", "II", "III", "IV", "V")
"""'Daño Tipo 0 ... Tipo V' (Tipos de daño)."""

LEVELS: tuple[str, ...] = (
    "critical",
    "success",
    "low_success",
    "low_failure",
    "failure",
    "fumble",
)
"""'Éxito alto (crítico) / Éxito / Éxito bajo / Fallo bajo / Fallo / Fallo alto (pifia)', best first."""

SUCCESS_LEVELS: frozenset[str] = frozenset({"critical", "success", "low_success"})


def unconscious_dodge(level: int) -> int:
    """'Esquiva inconsciente ... según nivel de defensor: 0=-10; 1-10=-5; 11-20=0; 21+=+5'."""
    if level <= 0:
        return -10
    if level <= 10:
        return -5
    if level <= 20:
        return 0
    return 5


MULTI_ACTION_STEP = 5
"""'Hacer más de una acción: (+5/acción)-Coo Pj, (mínimo +1)'."""

INITIATIVE_STEP = 5
"""'La 1ª acción se realizará en su Iniciativa, la segunda en su Inic -5, la tercera en Inic -10'."""

RAISE_INITIATIVE: Mapping[int, int] = {0: 0, 5: 5, 10: 10}
"""'aumentar en 5 puntos el valor de la Iniciativa penaliza con +5 ...; en 10 puntos con +10'."""

CHANGE_ACTION_TA = 5
CHANGE_ACTION_INITIATIVE = -5
"""'Cambiar de acción ANTES de realizar ninguna TA: +5 a todas las acciones del asalto y -5 a la Iniciativa'."""

OFF_HAND = 5  # 'Mano Torpe: +5 TA con esa mano.'
PISTOL_IN_MELEE = 10  # 'Pistolas en C/C: ... tienen un +10 a la TA.'
EXTRA_ATTACKER = (
    -5
)  # 'Más de un atacante (máximo 4): -5 a las TA de los atacantes excepto el primero'
MAX_ATTACKERS = 4
HIGHER_GROUND = -5  # 'El personaje que esté más alto recibe -5 TA'
LOWER_GROUND = 5  # 'y el más bajo +5 a la TA de ataque (no aplicable en parada ni esquivar)'
VISIBILITY: tuple[int, ...] = (0, 5, 10)  # 'Visibilidad: 0, +5 o +10.'
AMBUSH_INITIATIVE = -5  # 'Emboscada: ... en caso de fallo: -5 Iniciativa en el 1º turno'
BLOCKED_RETREAT_DODGE = -5  # 'Si no lo puede hacer, tiene -5 a TA esquivar en el próximo asalto.'
WITHDRAW_TA = 5  # 'Retirarse del combate: ... tendrá un +5 a su TA de golpear'
GRAPPLE_FAILED_RIVAL = -5  # 'Apresar ... Si falla, el rival tendrá un -5 en la próxima TA.'
HOLD_TA = 10  # 'Sujetar ...: TA Pelea +10.'
KNOCKDOWN_HELD = -5  # 'Si el defensor ya tiene una localización sujeta, el atacante tiene -5'
AIMED_BLOW = 10  # 'Golpe dirigido (se apunta a una localización): +10 TA atacante'
UNARMED_PARRY = 10  # 'Si defensor sin arma y atacante con arma: +10 TA defensor.'
STUNNED_INITIATIVE = -5  # 'aturdido (-5 Iniciativa, +5 TA)'
STUNNED_TA = 5

ESCAPE_STEPS: Mapping[str, tuple[int, int, int]] = {
    # 'Apresar ... Si pierde ... +5 a la siguiente TA Fue. Si vuelve a perder tiene +10 ...'
    "grapple": (0, 5, 10),
    # 'Sujetar ... Si pierde ... -5 a la siguiente TA Fue. Si vuelve a perder tiene -10 ...'
    "hold": (0, -5, -10),
}
ESCAPE_FAILURES_TO_SURRENDER = 3  # 'Si falla una tercera vez se rinde agotado.'

KNOCKDOWN_BANDS: tuple[tuple[str, int, int], ...] = (
    # 'Si Impacto<Res: 1 asalto aturdido' / 'Si Impacto<2Res: 3 asaltos aturdido ... y retrocede'
    # / 'Si impacto>=2Res: cae al suelo y 5 asaltos Incapacitado'
    # (band key, stunned rounds, incapacitated rounds)
    ("under_res", 1, 0),
    ("under_2res", 3, 0),
    ("over_2res", 0, 5),
)

WOUND_PENALTY: Mapping[tuple[str, str], int] = {
    # 'HERIDA LEVE ... Pecho: +5 TA físicas' / 'HERIDA GRAVE ... Pecho: +10 TA físicas'
    ("light", "pecho"): 5,
    ("serious", "pecho"): 10,
    # 'Abdomen / Piernas: Impedido (+5 TA físicas y 1/2 movimiento)'
    ("light", "abdomen"): 5,
    ("light", "pierna"): 5,
}
ARM_LIGHT = 5  # 'Brazos: +5 TA con ese brazo.'
INCAPACITATED_MENTAL = 10  # 'Incapacitado, no puede hacer acciones físicas y +10 a TA mentales.'
HEAD_LIGHT_STUN_ROUNDS = 2  # 'Cabeza: 2 asaltos aturdido (-5 Iniciativa, +5 TA).'

FUMBLE_TABLE: tuple[tuple[int, int, str], ...] = (
    # DEFAULT: 'Fallo alto (pifia): arma rota, caída o daño autoinfringido' lists three
    # outcomes without a die: a d10 picks one (faces low, high, outcome).
    (1, 3, "broken"),
    (4, 6, "fall"),
    (7, 10, "self"),
)


def fumble_outcome(face: int) -> str:
    for low, high, outcome in FUMBLE_TABLE:
        if low <= face <= high:
            return outcome
    raise ValueError(f"no fumble outcome for {face}")
