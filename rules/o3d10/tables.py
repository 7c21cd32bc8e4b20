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

# -- the two versions of the text ---------------------------------------------------------
# The seed text holds an older, shorter set of rules (its first half, from 'Tiradas' to
# 'Curación natural') and a fuller one (its second half, from the second 'Tiradas').
# 'completa' (the second half) is the default; 'primera' is a world preset (settings.py).
VERSIONS: tuple[str, ...] = ("completa", "primera")

RANGES: tuple[str, ...] = ("bocajarro", "corta", "media", "larga")

RANGE_DIFFICULTY: Mapping[str, Mapping[str, int]] = {
    # Second half, 'Ataque a Distancia': 'Bocajarro 10 Corta 15 Media 20 Larga 25'.
    "completa": {"bocajarro": 10, "corta": 15, "media": 20, "larga": 25},
    # First half, 'Distancia Dificultad': 'Bocajarro 15 Corta 18 Media 20 Larga 25'.
    "primera": {"bocajarro": 15, "corta": 18, "media": 20, "larga": 25},
}

COVER: tuple[str, ...] = ("ninguna", "ligera", "media", "grande")

RANGED_MODIFIERS: Mapping[str, int] = {
    # 'Corriendo +3 Tumbado +5 Cobertura Ligera (un arbolito) +2 Cobertura Media (una carroza)
    #  +4 Cobertura Grande (una almena) +6 Entre otra gente +2' (added to the difficulty).
    "running": 3,
    "prone": 5,
    "cover.ligera": 2,
    "cover.media": 4,
    "cover.grande": 6,
    "crowd": 2,
}

MELEE_MODIFIERS: Mapping[str, int] = {
    # 'Por la espalda: +4 al ataque  Flanqueando: +2 al ataque' (added to the attack roll).
    "behind": 4,
    "flanking": 2,
}

TWO_WEAPONS_BONUS = 3
"""'dos armas ligeras a la vez ... obtenga un +3 a la tirada de ataque' (second half)."""

TWO_WEAPONS_PENALTY: Mapping[str, int] = {"main": -2, "off": -4}
"""'un penalizador de -2 puntos de habilidad en la mano hábil y -4 puntos en la otra' (first half)."""

TWO_WEAPONS_ARMOUR: tuple[str, ...] = ("ninguna", "ligera")
"""'con armadura de cuero (o sin armadura)': leather is ruled the 'ligera' armour type."""

UNARMED_DAMAGE: Mapping[str, str] = {
    # Second half: 'El combate sin armas ... hace un daño de 1d6'; first half: 'el daño es 1d4'.
    "completa": "1d6",
    "primera": "1d4",
}

IMPROVISED_DAMAGE = "1d6+1"
"""'Armas a distancia en cuerpo a cuerpo ... un daño de arma improvisada 1d6+1'."""

MARGIN_DIE = 6
MARGIN_STEP = 10
"""'Por cada 10 que se supere la defensa se suma 1d6 al daño realizado'."""

LIGHT_WEAPON_DAMAGE: Mapping[str, str] = {
    # 'El daño causado es el mayor de las armas usadas (1d6+1 si es la daga, 1d6+3 si es la
    #  espada corta)': used by the sample sheets; any weapon may be marked light on a sheet.
    "daga": "1d6+1",
    "espada_corta": "1d6+3",
}

RELIABILITY_DIE = 20
FIREARM_RELIABILITY: Mapping[str, int] = {
    # 'deberá pasar una tirada de 1d20. Los rangos son individualizados por cada tipo de arma
    #  de fuego' -- the text gives no ranges. OUR DEFAULT: the weapon fails on a d20 at or
    #  below this number (a natural 1 jams it); a sheet's weapon may set 'fiabilidad' itself.
    "arcabuz": 4,
    "mosquete": 3,
    "pistola_chispa": 3,
    "revolver": 2,
    "pistola": 2,
    "escopeta": 2,
    "fusil": 1,
    "ametralladora": 3,
}
DEFAULT_RELIABILITY = 2
"""A firearm whose type is not in :data:`FIREARM_RELIABILITY` and sets no 'fiabilidad'."""

# -- derived combat values (the text's formula table is missing) -------------------------
# 'El combate tiene unos valores muy importantes que se sacan de atributos y habilidades.
#  Las fórmulas para obtener estos valores se hallan en la tabla de abajo.' The table is
# not in the text. OUR DEFAULTS (a sheet's 'combat' block overrides each one):
DEFENSE_ATTRIBUTE = "destreza"
DEFENSE_SKILL = "cuerpo_a_cuerpo"
DEFENSE_BASE = 5
"""Defensa = 5 + Destreza + Cuerpo a Cuerpo + armour bonus (5: about the median of 3d10)."""
INITIATIVE_ATTRIBUTES: tuple[str, ...] = ("destreza", "percepcion")
"""Iniciativa = Destreza + Percepción (then + 1o3d10 - estorbo)."""
HIT_POINTS_PER_PHYSIQUE = 4
"""PV = Físico x4: 0 PV is 'inconsciente' (first half) exactly at wounds Físico x4 (second half),
and 'PVs ... iguales a su físico, o inferior' (malherido) exactly at wounds Físico x3."""

MELEE_SKILL = "cuerpo_a_cuerpo"
MELEE_ATTRIBUTE = "fisico"
RANGED_SKILL = "armas_a_distancia"
RANGED_ATTRIBUTE = "destreza"

# -- initiative ----------------------------------------------------------------------------
ACTIONS_STEP = 10
"""'Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 acciones, 40 o más, 4 acciones'."""
ROUND_SECONDS = 3
MAX_MOVE_METRES = 9

# -- healing ---------------------------------------------------------------------------------
CATCH_BREATH_DIE = 6
"""'Recuperar el aliento ... descansar durante 5 minutos ... Ésto recupera 1d6 puntos de vida'."""
CATCH_BREATH_MINUTES = 5
SLEEP_HEALING: Mapping[str, int] = {
    # 'Si se duermen unas 6-8 horas en un lugar medianamente cómodo ... 1 PV por noche. Si el
    #  lugar tiene absolutamente todas las comodidades ... 2 PV por noche.'
    "normal": 1,
    "total": 2,
}
