"""Omertà tables as data, each with the passage of 000_8a0a6b1f7ace6aa3.txt it comes from.

Tables the text names but does not print (hit locations, shotgun range/damage,
jam-clearing times, the modifiers of the CON roll for an unextracted bullet,
the recovery by CON) carry a default here and say where it comes from; see
RULES.md. A world overrides a choice through its settings.
"""

from __future__ import annotations

from collections.abc import Mapping

# -- checks ------------------------------------------------------------------------

CRITICAL_FRACTION = 10
"""'igual o inferior al 10% de la puntuación de la habilidad ... (teniendo en cuenta los
modificadores)': critical when roll <= modified skill // 10 (ruled: rounded down)."""

FUMBLE_BASE = 90
"""'90 + la decena del porcentaje de la habilidad': 85 % fumbles on 98-00, 05 % on 90-00."""

ALWAYS_CRITICAL = 1
ALWAYS_FUMBLE = 100
"""'consideraremos un 01 un crítico y un 00 una pifia' (00 reads 100 on the d100)."""

# -- combat ------------------------------------------------------------------------

EXTRA_ACTION_PENALTY = 20
"""'Cada acción posterior que deseen realizar tendrá un -20% acumulativo.'"""

PARRY_PENALTY = 20
"""'Cada parada en un mismo asalto después de la primera tendrá una penalización de -20%
acumulativo.'"""

DODGE_SHOOTOUT_PENALTY = 25
"""'En un tiroteo ... de tener éxito, todos los ataques tendrán un -25% contra el defensor.'"""

DODGE_NEXT_ACTION_PENALTY = 20
"""'el defensor tendrá un -20% a su siguiente acción'."""

FREE_MOVE_M = 5
SPRINT_MAX_M = 15
SPRINT_PENALTY = 20
FAST_TARGET_M = 15
FAST_TARGET_PENALTY = 15
"""'hasta 5 metros y realizar una acción sin ... penalización'; 'hasta 15 metros (un sprint) ...
-20% a sus acciones durante ese asalto'; 'contra un objetivo que alcance los 15 metros ... -15%'."""

AIM_BONUS: Mapping[int, int] = {2: 15, 3: 30}
"""'tras dos asaltos apuntando ... +15%; tras tres ... +30% ... jamás el +30%'."""

TARGET_CHANGE_PENALTY = 20
BLIND_FIRE_PENALTY = 40
PRECISE_MIN = 30
PRECISE_MAX = 50
PRECISE_LIMIT = 90
"""'Cambio de blanco ... -20%'; 'Disparo a ciegas ... -40%'; 'Disparo preciso ... desde un -30%
hasta un -50%, incluso más' (ruled: up to -90 when the Don says 'even more')."""

PRECISE_AREAS: tuple[str, ...] = ("knee", "hand", "head", "object", "other")
PRECISE_LOCATION: Mapping[str, str] = {
    "knee": "right_leg",
    "hand": "right_arm",
    "head": "head",
    "object": "right_arm",
    "other": "chest",
}
"""Where a precise shot lands on the body (ruling: knee -> leg, hand or held object -> arm)."""

THOMPSON_MODES: tuple[str, ...] = ("concentrated", "empty", "short_burst", "long_burst")
CONCENTRATED_DIE = 20
CATEGORY_PER_BULLET = 5
EMPTY_MIN_FRACTION = (1, 2)
EMPTY_BONUS_PER_BULLET = 5
CHAIN_MAX_M = 2
SHORT_BURST_BULLETS = 3
SHORT_BURST_HITS_DIE = 3
LONG_BURST_HITS_DIE = 3
LONG_BURST_LOST_PER_M = 2
"""'Concentrar fuego ... 1D20 ... por cada 5% de categoría de éxito ... una bala mas';
'Vaciar cargador ... como mínimo al 50% ... +5 por cada bala'; 'no hubiese mas de 2 metros';
'Ráfagas cortas de tres balas ... 1D3'; 'Ráfagas largas ... dos balas extras por metro ...
1D3 balas'."""

BURST_SPREAD: tuple[str, ...] = ("chest", "abdomen")
"""'las otras balas se repartirán entre pecho y abdomen' (ruled: alternating, chest first)."""

# -- hit location ------------------------------------------------------------------

LOCATIONS: tuple[str, ...] = (
    "right_leg",
    "left_leg",
    "abdomen",
    "chest",
    "right_arm",
    "left_arm",
    "head",
)

LOCATION_TABLES: Mapping[str, tuple[tuple[int, str], ...]] = {
    # The text's table ('la tabla de localización que aparece mas abajo') is missing.
    # Default: the d20 humanoid table of the BRP family (melee layout): 01-04 right leg,
    # 05-08 left leg, 09-11 abdomen, 12 chest, 13-15 right arm, 16-18 left arm, 19-20 head.
    "brp_melee": (
        (4, "right_leg"),
        (8, "left_leg"),
        (11, "abdomen"),
        (12, "chest"),
        (15, "right_arm"),
        (18, "left_arm"),
        (20, "head"),
    ),
    # The BRP-family missile layout: 01-03, 04-06, 07-10, 11-15, 16-17, 18-19, 20.
    "brp_missile": (
        (3, "right_leg"),
        (6, "left_leg"),
        (10, "abdomen"),
        (15, "chest"),
        (17, "right_arm"),
        (19, "left_arm"),
        (20, "head"),
    ),
}
LOCATION_DIE = 20


def location_for(table: str, face: int) -> str:
    for top, location in LOCATION_TABLES[table]:
        if face <= top:
            return location
    return LOCATION_TABLES[table][-1][1]


# -- shotguns ----------------------------------------------------------------------

SHOTGUN_DAMAGE: Mapping[str, tuple[tuple[int, str], ...]] = {
    # 'En la tabla que tenéis en la sección notas' (missing). Default: a 1920s 12-gauge,
    # 4D6/2D6/1D6 at 10/20/50 yards (9/18/46 m); a sawed-off (lupara) 4D6/1D6 at 5/10 yards
    # (5/9 m). Beyond the last band the shot does not reach (refused: out_of_range).
    "shotgun": ((9, "4d6"), (18, "2d6"), (46, "1d6")),
    "lupara": ((5, "4d6"), (9, "1d6")),
}

# -- jams --------------------------------------------------------------------------

JAM_REPAIR_ROUNDS: Mapping[str, int] = {
    # 'habrá que consultar la siguiente tabla para ver el tiempo de reparación' (missing).
    # Default in the spirit of BRP malfunction clearing: a revolver's chamber turns in a
    # round, an automatic's slide needs two, a long gun two, the Thompson three.
    "revolver": 1,
    "pistol": 2,
    "rifle": 2,
    "shotgun": 1,
    "lupara": 1,
    "thompson": 3,
}

FIREARM_TYPES: tuple[str, ...] = tuple(JAM_REPAIR_ROUNDS)
WEAPON_KINDS: tuple[str, ...] = ("firearm", "melee", "natural", "thrown")
MELEE_SKILLS: tuple[str, ...] = ("arma_blanca", "pelea")
"""'Parar ... sólo es posible cuando ... se ha empleado la habilidad de Arma blanca o Pelea.'"""

# -- damage and recovery ---------------------------------------------------------------

BLEED_GRACE_ROUNDS = 5
BLEED_PENALTY_PER_ROUND = 10
"""'antes de 5 asaltos. Esta tirada tendrá un -10% por cada asalto posterior'."""

FIRST_AID_DIE = 4
FIRST_AID_CRITICAL = 4
"""'recuperen 1D4 ... Un crítico recuperará 4 ... una pifia conllevará perder 1D4'."""

EXTRACTION_FAIL_LOSS = 1
EXTRACTION_FUMBLE_DIE = 4
"""'cada fallo conllevará que el herido pierda 1 punto de vida'; pifia: '1D4 puntos de vida'."""

EXTRACTION_MODIFIERS: Mapping[str, int] = {
    # 'Operar sin anestesia, equipo adecuado, con poca luz o en movimiento daría modificadores
    # negativos' (amounts not given). Default of this implementation.
    "no_anaesthesia": -10,
    "no_equipment": -20,
    "poor_light": -10,
    "moving": -20,
}

BULLET_FIRST_CHECK_H = 2
BULLET_CHECK_EVERY_H = 2
BULLET_HOURLY_FROM_H = 6
"""'tirar cada dos horas por CON ... A partir de la sexta hora, deberá tirarse cada hora.'
Ruled: checks at hours 2, 4, 6, then 7, 8, 9... after the first unextracted bullet."""

BULLET_CHECK_MULTIPLIER = 5
BULLET_CHECK_MODIFIERS: Mapping[str, int] = {
    # 'con los modificadores que se explican en la siguiente tabla' (missing). Default:
    "per_extra_bullet": -10,  # each unextracted bullet after the first
    "at_zero_hp": -10,  # at 0 HP or fewer (stabilized but not recovered)
    "after_sixth_hour": -10,  # from the hourly checks on
}

CON_RECOVERY: tuple[tuple[int, int], ...] = (
    # 'se recuperen uno o dos puntos de vida según el valor de CON' (the table is missing).
    # Default: CON up to 14 recovers 1, CON 15 or more recovers 2.
    (14, 1),
    (1000, 2),
)
LOW_CON_MAX = 5
LOW_CON_MULTIPLIER = 5
NO_REST_MULTIPLIER = 3
"""'CON entre 2 y 5 ... una tirada de CONx5 ... se perderá un punto'; 'sin reposo ... CONx3:
+1 ... si falla, perderá 1'."""


def con_recovery(con: int) -> int:
    for top, amount in CON_RECOVERY:
        if con <= top:
            return amount
    return CON_RECOVERY[-1][1]


ROUND_SECONDS_DEFAULT = 12
"""'1 minuto (5-6 asaltos)': a round is ruled 12 seconds, five to a minute (a setting)."""
