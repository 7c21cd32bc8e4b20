"""The actions Omertà offers (as data: event, parameters, targets) and its world settings."""

from __future__ import annotations

from collections.abc import Mapping

from rules.model import t
from rules.omerta.attacks import MODES
from rules.omerta.gm import CONDITIONS
from rules.omerta.tables import (
    LOCATIONS,
    PRECISE_AREAS,
    PRECISE_LIMIT,
    ROUND_SECONDS_DEFAULT,
    SPRINT_MAX_M,
)
from rules.params import Param
from rules.system import ActionSpec

MODIFIER = Param("modifier", "int", t("param.modifier"), default=0, minimum=-200, maximum=200)
AUTOMATIC = Param(
    "automatic",
    "choice",
    t("param.automatic"),
    default="none",
    choices=("none", "success", "failure"),
)
COMBAT_ACTION = Param("combat_action", "bool", t("param.combat_action"), default=False)
MULTIPLIER = Param("multiplier", "int", t("param.multiplier"), minimum=1, maximum=10)
WEAPON = Param("weapon", "str", t("param.weapon"), required=True, max_length=40)
WOUND = Param("wound", "int", t("param.wound"), minimum=1, maximum=100_000)
RANGE = Param("range_m", "int", t("param.range_m"), minimum=0, maximum=5000)
PRECISE = Param("precise", "int", t("param.precise"), default=0, minimum=0, maximum=PRECISE_LIMIT)
PRECISE_AREA = Param(
    "precise_area", "choice", t("param.precise_area"), default="other", choices=PRECISE_AREAS
)
LOCATION = Param("location", "choice", t("param.location"), choices=LOCATIONS)
BLIND = Param("blind", "bool", t("param.blind"), default=False)
BLIND_IDEA = Param("blind_idea", "bool", t("param.blind_idea"), default=True)
TARGET_FAST = Param("target_fast", "bool", t("param.target_fast"), default=False)
UNAWARE = Param("unaware", "bool", t("param.unaware"), default=False)
GAPS = Param("gaps", "str", t("param.gaps"), max_length=200)
MODE = Param("mode", "choice", t("param.mode"), default="single", choices=MODES)
METRES = Param("metres", "int", t("param.metres"), required=True, minimum=0, maximum=SPRINT_MAX_M)
EXTRACTION_FLAGS = tuple(
    Param(name, "bool", t(f"mod.{name}"), default=False)
    for name in ("no_anaesthesia", "no_equipment", "poor_light", "moving")
)
GRADES = ("critical", "success", "failure", "fumble")

ATTACK_PARAMS: tuple[Param, ...] = (
    WEAPON,
    MODE,
    MODIFIER,
    RANGE,
    LOCATION,
    PRECISE,
    PRECISE_AREA,
    BLIND,
    BLIND_IDEA,
    TARGET_FAST,
    UNAWARE,
    GAPS,
)
ROLL_PARAMS: tuple[Param, ...] = (
    Param("skill", "str", t("param.skill"), max_length=40),
    Param("characteristic", "str", t("param.characteristic"), max_length=10),
    MULTIPLIER,
    MODIFIER,
    AUTOMATIC,
    COMBAT_ACTION,
)

ACTIONS: Mapping[str, ActionSpec] = {
    "roll": ActionSpec(
        "roll",
        "roll",
        t("action.roll"),
        (
            *ROLL_PARAMS,
            Param("opposed_skill", "str", max_length=40),
            Param("opposed_characteristic", "str", max_length=10),
            Param("opposed_multiplier", "int", t("param.multiplier"), minimum=1, maximum=10),
        ),
        max_targets=1,
    ),
    "oppose": ActionSpec(
        "oppose",
        "card_action",
        t("action.oppose"),
        (
            *ROLL_PARAMS,
            Param("against_base", "int", required=True, minimum=-1000, maximum=1000),
            Param("against_modifier", "int", default=0, minimum=-1000, maximum=1000),
            Param("against_roll", "int", required=True, minimum=0, maximum=100),
            Param("against_grade", "choice", required=True, choices=GRADES),
        ),
        min_targets=1,
        max_targets=1,
    ),
    "initiative": ActionSpec("initiative", "roll", t("action.initiative"), (), max_targets=50),
    "attack": ActionSpec(
        "attack", "attack", t("action.attack"), ATTACK_PARAMS, min_targets=1, max_targets=8
    ),
    "defend": ActionSpec(
        "defend",
        "card_action",
        t("action.defend"),
        (
            Param("attacker_weapon", "str", required=True, max_length=40),
            Param("critical", "bool", default=False),
            Param("blow", "str", max_length=120),
            Param("defence", "choice", required=True, choices=("parry", "dodge", "none")),
            Param("parry_with", "str", t("param.parry_with"), default="unarmed", max_length=40),
            MODIFIER,
        ),
        min_targets=1,
        max_targets=1,
    ),
    "spread": ActionSpec(
        "spread",
        "card_action",
        t("action.spread"),
        (
            Param("total", "int", required=True, minimum=0, maximum=100_000),
            Param("bullets", "int", default=1, minimum=1, maximum=200),
            Param("weapon", "str", max_length=40),
            Param("split", "str", t("param.split"), required=True, max_length=200),
        ),
        min_targets=1,
        max_targets=8,
    ),
    "dodge": ActionSpec("dodge", "roll", t("action.dodge"), (MODIFIER,)),
    "move": ActionSpec("move", "roll", t("action.move"), (METRES,)),
    "aim": ActionSpec("aim", "attack", t("action.aim"), (WEAPON,), min_targets=1, max_targets=1),
    "reload": ActionSpec("reload", "roll", t("action.reload"), (WEAPON,)),
    "clear_jam": ActionSpec(
        "clear_jam",
        "roll",
        t("action.clear_jam"),
        (
            WEAPON,
            Param(
                "using",
                "choice",
                t("param.using"),
                default="weapon",
                choices=("weapon", "mecanica"),
            ),
            MODIFIER,
        ),
    ),
    "first_aid": ActionSpec(
        "first_aid", "heal", t("action.first_aid"), (WOUND, MODIFIER), min_targets=1, max_targets=1
    ),
    "extract_bullet": ActionSpec(
        "extract_bullet",
        "heal",
        t("action.extract_bullet"),
        (WOUND, MODIFIER, *EXTRACTION_FLAGS),
        min_targets=1,
        max_targets=1,
    ),
    "medical_care": ActionSpec(
        "medical_care", "heal", t("action.medical_care"), (MODIFIER,), min_targets=1, max_targets=1
    ),
    "gm_damage": ActionSpec(
        "gm_damage",
        "damage_apply",
        t("action.gm_damage"),
        (
            Param("amount", "int", t("param.amount"), required=True, minimum=0, maximum=1000),
            Param(
                "kind", "choice", t("param.kind"), default="lethal", choices=("lethal", "contusion")
            ),
            Param("bullet", "bool", t("param.bullet"), default=False),
            LOCATION,
            Param("attack", "bool", t("param.attack"), default=False),
        ),
        gm_only=True,
        min_targets=1,
        max_targets=20,
    ),
    "gm_heal": ActionSpec(
        "gm_heal",
        "heal",
        t("action.gm_heal"),
        (
            Param("amount", "int", t("param.amount"), required=True, minimum=0, maximum=1000),
            Param("contusion", "bool", default=False),
        ),
        gm_only=True,
        min_targets=1,
        max_targets=20,
    ),
    "gm_condition": ActionSpec(
        "gm_condition",
        "gm_action",
        t("action.gm_condition"),
        (Param("change", "choice", t("param.change"), required=True, choices=CONDITIONS),),
        gm_only=True,
        min_targets=1,
        max_targets=20,
    ),
    "combat_end": ActionSpec("combat_end", "gm_action", t("action.combat_end"), gm_only=True),
}

SETTINGS: tuple[Param, ...] = (
    Param("round_seconds", "int", default=ROUND_SECONDS_DEFAULT, minimum=6, maximum=60),
    Param("fumble_range", "choice", default="modified", choices=("modified", "base")),
    Param("characteristic_multiplier", "int", default=5, minimum=1, maximum=10),
    Param("npc_ties", "choice", default="simultaneous", choices=("simultaneous", "listed")),
    Param(
        "location_table", "choice", default="split", choices=("split", "brp_melee", "brp_missile")
    ),
    Param("critical_max_damage", "choice", default="firearms", choices=("firearms", "all")),
    Param("unconscious_attack", "choice", default="any", choices=("any", "hit")),
    Param("empty_hits", "choice", default="cap", choices=("cap", "category")),
    Param("contusion_wake", "choice", default="unchanged", choices=("unchanged", "one_hp")),
    Param("bleed_out_rounds", "int", default=15, minimum=5, maximum=1000),
)
