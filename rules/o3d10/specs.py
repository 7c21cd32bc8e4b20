"""The o3d10 actions as data: the client event carrying each, its parameters and targets."""

from __future__ import annotations

from collections.abc import Mapping

from rules.model import t
from rules.o3d10.context import KEEP_CHOICES
from rules.o3d10.tables import COVER, LEVELS, MAX_MOVE_METRES, RANGES, SLEEP_HEALING
from rules.params import Param
from rules.system import ActionSpec

KEEP = Param("keep", "choice", t("param.keep"), default="auto", choices=KEEP_CHOICES)
GIVE_TOKEN = Param("give_token", "bool", t("param.give_token"), default=False)
SPLIT = Param("split", "bool", t("param.split"), default=False)
MODIFIER = Param("modifier", "int", t("param.modifier"), default=0, minimum=-100, maximum=100)
LEVEL = Param("level", "choice", t("param.level"), choices=LEVELS)

ROLL_PARAMS: tuple[Param, ...] = (
    LEVEL,
    Param("difficulty", "int", t("param.difficulty"), minimum=1, maximum=200),
    MODIFIER,
    KEEP,
    GIVE_TOKEN,
    SPLIT,
)
ROLL_ASK: tuple[Param, ...] = (LEVEL, MODIFIER, GIVE_TOKEN, SPLIT)
OPPOSED_PARAMS: tuple[Param, ...] = (
    Param("opposed_skill", "str", t("param.opposed_skill"), max_length=40),
    Param("opposed_attribute", "str", t("param.opposed_attribute"), max_length=40),
)

WEAPON = Param("weapon", "str", t("param.weapon"), required=True, max_length=40)
RANGE = Param("range", "choice", t("param.range"), default="corta", choices=RANGES)
COVER_PARAM = Param("cover", "choice", t("param.cover"), default="ninguna", choices=COVER)

MELEE_ASK: tuple[Param, ...] = (
    Param("behind", "bool", t("mod.behind"), default=False),
    Param("flanking", "bool", t("mod.flanking"), default=False),
)
RANGED_ASK: tuple[Param, ...] = (
    RANGE,
    Param("running", "bool", t("mod.running"), default=False),
    Param("prone", "bool", t("mod.prone"), default=False),
    COVER_PARAM,
    Param("crowd", "bool", t("mod.crowd"), default=False),
)
ATTACK_PARAMS: tuple[Param, ...] = (
    Param("weapon", "str", t("param.weapon"), default="unarmed", max_length=40),
    Param("offhand", "str", t("param.offhand"), max_length=40),
    Param("in_melee", "bool", t("param.in_melee"), default=False),
    *MELEE_ASK,
    *RANGED_ASK,
    MODIFIER,
    KEEP,
    GIVE_TOKEN,
    SPLIT,
)
AMOUNT = Param("amount", "int", t("param.amount"), required=True, minimum=0, maximum=10000)
METRES = Param(
    "metres",
    "int",
    t("param.metres"),
    default=MAX_MOVE_METRES,
    minimum=1,
    maximum=MAX_MOVE_METRES,
)
OPPOSE_ASK: tuple[Param, ...] = (MODIFIER, GIVE_TOKEN)
"""What the answering side chooses when it presses an ``oppose`` button."""
COMFORT = Param(
    "comfort", "choice", t("param.comfort"), default="normal", choices=tuple(SLEEP_HEALING)
)


def _spec(
    kind: str,
    event: str,
    *params: Param,
    gm_only: bool = False,
    min_targets: int = 0,
    max_targets: int = 0,
) -> ActionSpec:
    return ActionSpec(
        kind, event, t(f"action.{kind}"), tuple(params), gm_only, min_targets, max_targets
    )


ACTIONS: Mapping[str, ActionSpec] = {
    spec.kind: spec
    for spec in (
        _spec(
            "attribute",
            "roll",
            Param("attribute", "str", required=True, max_length=40),
            *ROLL_PARAMS,
            *OPPOSED_PARAMS,
            max_targets=1,
        ),
        _spec(
            "skill",
            "roll",
            Param("skill", "str", required=True, max_length=40),
            *ROLL_PARAMS,
            *OPPOSED_PARAMS,
            Param("ambush", "bool", t("param.ambush"), default=False),
            max_targets=1,
        ),
        _spec(
            "oppose",
            "card_action",
            Param("skill", "str", max_length=40),
            Param("attribute", "str", max_length=40),
            Param("against", "int", required=True, minimum=-1000, maximum=100000),
            Param("against_fumble", "bool", default=False),
            Param("ambush", "bool", default=False),
            MODIFIER,
            KEEP,
            GIVE_TOKEN,
            min_targets=1,
            max_targets=1,
        ),
        _spec("token_return", "roll", gm_only=True),
        _spec("initiative", "roll", MODIFIER, KEEP, GIVE_TOKEN),
        _spec("attack", "attack", *ATTACK_PARAMS, min_targets=1, max_targets=1),
        _spec(
            "damage",
            "card_action",
            WEAPON,
            Param("improvised", "bool", default=False),
            Param("extra", "int", default=0, minimum=0, maximum=20),
            min_targets=1,
            max_targets=1,
        ),
        _spec("damage_apply", "damage_apply", AMOUNT, gm_only=True),
        _spec("heal_wounds", "heal", AMOUNT, gm_only=True),
        _spec("catch_breath", "heal"),
        _spec("sleep", "heal", COMFORT),
        _spec("move", "roll", METRES, SPLIT),
        _spec("reload", "roll", WEAPON),
        _spec("clear_jam", "roll", WEAPON),
        _spec(
            "combat_start",
            "gm_action",
            Param("roll_all", "bool", t("param.roll_all"), default=True),
            gm_only=True,
        ),
        _spec("combat_end", "gm_action", gm_only=True),
        _spec("next_round", "gm_action", gm_only=True),
    )
}
