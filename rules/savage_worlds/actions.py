"""The actions Savage Worlds offers, declared as data (kind, event, parameters, targets, gm_only)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.model import t
from rules.params import Param
from rules.savage_worlds.act_turn import FREE_ACTIONS
from rules.savage_worlds.sheet import SIDES
from rules.savage_worlds.tables import COVER_MODIFIER, LIGHTING_MODIFIER, RANGE_MODIFIER
from rules.system import ActionSpec

MAX_TARGETS = 20

SITUATION: tuple[Param, ...] = (
    Param("range", "choice", t("param.range"), default="short", choices=tuple(RANGE_MODIFIER)),
    Param("cover", "choice", t("param.cover"), default="none", choices=tuple(COVER_MODIFIER)),
    Param(
        "lighting",
        "choice",
        t("param.lighting"),
        default="normal",
        choices=tuple(LIGHTING_MODIFIER),
    ),
    Param("blind", "bool", t("param.blind"), default=False),
    Param("distance", "int", t("param.distance"), default=0, minimum=0, maximum=10_000),
    Param("moved", "bool", t("param.moved"), default=False),
    Param("modifier", "int", t("param.modifier"), default=0, minimum=-20, maximum=20),
)
ATTACK_PARAMS: tuple[Param, ...] = (
    Param("weapon", "str", t("param.weapon"), default="unarmed", max_length=40),
    Param("rof", "int", t("param.rof"), default=1, minimum=1, maximum=6),
    *SITUATION,
    Param("spread", "str", t("param.spread"), max_length=40),
    Param("frenzy", "bool", t("param.frenzy"), default=False),
)
TRAIT_PARAMS: tuple[Param, ...] = (
    Param("trait", "str", t("param.trait"), required=True, max_length=40),
    Param("modifier", "int", t("param.modifier"), default=0, minimum=-20, maximum=20),
    Param("tn", "int", t("param.tn"), default=4, minimum=-20, maximum=40),
    Param("free", "bool", t("param.free"), default=False),
)
WEAPON = Param("weapon", "str", t("param.weapon"), required=True, max_length=40)


def _spec(
    kind: str, event: str, *params: Param, gm: bool = False, low: int = 0, high: int = 0
) -> ActionSpec:
    return ActionSpec(kind, event, t(f"action.{kind}"), tuple(params), gm, low, high)


ACTIONS: Mapping[str, ActionSpec] = {
    spec.kind: spec
    for spec in (
        _spec("trait", "roll", *TRAIT_PARAMS),
        _spec(
            "declare",
            "roll",
            Param("count", "int", t("param.count"), required=True, minimum=0, maximum=10),
        ),
        _spec(
            "free",
            "roll",
            Param("what", "choice", t("param.what"), required=True, choices=FREE_ACTIONS),
        ),
        _spec("start_turn", "roll"),
        _spec("unshake", "roll"),
        _spec("hold", "roll"),
        _spec("interrupt", "roll", low=1, high=1),
        _spec("attack", "attack", *ATTACK_PARAMS, low=1, high=MAX_TARGETS),
        _spec(
            "damage",
            "card_action",
            Param("attack", "str", required=True, max_length=40),
            Param("hit", "int", required=True, minimum=0, maximum=100),
        ),
        _spec("soak", "soak", Param("pending", "str", required=True, max_length=40)),
        _spec(
            "damage_apply", "damage_apply", Param("pending", "str", required=True, max_length=40)
        ),
        _spec(
            "hurt",
            "damage_apply",
            Param("damage", "int", t("param.damage"), required=True, minimum=0, maximum=1000),
            Param("ap", "int", t("param.ap"), default=0, minimum=0, maximum=100),
            gm=True,
        ),
        _spec("reload", "roll", WEAPON),
        _spec(
            "ready",
            "roll",
            WEAPON,
            Param(
                "source",
                "choice",
                t("param.source"),
                default="holster",
                choices=("holster", "ground"),
            ),
        ),
        _spec("bipod", "roll", WEAPON),
        _spec("stabilise", "heal", low=1, high=1),
        _spec(
            "treat",
            "heal",
            Param("modifier", "int", t("param.modifier"), default=0, minimum=-20, maximum=20),
            low=1,
            high=1,
        ),
        _spec(
            "gm_heal",
            "heal",
            Param("wounds", "int", t("param.wounds"), default=1, minimum=0, maximum=3),
            gm=True,
        ),
        _spec(
            "benny",
            "gm_action",
            Param("count", "int", t("param.count"), default=1, minimum=-100, maximum=100),
            Param("to_gm", "bool", t("param.to_gm"), default=False),
            gm=True,
        ),
        _spec(
            "combat_start",
            "gm_action",
            Param(
                "surprise", "choice", t("param.surprise"), default="none", choices=("none", *SIDES)
            ),
            gm=True,
            high=100,
        ),
        _spec("next_round", "gm_action", gm=True),
        _spec("combat_end", "gm_action", gm=True),
        _spec("overwatch", "roll", Param("weapon", "str", t("param.weapon"), max_length=40)),
        _spec("overwatch_fire", "attack", *SITUATION, gm=True, low=1, high=1),
        _spec("xcom_act", "roll", Param("stealth", "bool", t("param.stealth"), default=False)),
        _spec("xcom_rescue", "roll", low=1, high=1),
        _spec("xcom_aliens", "gm_action", gm=True),
        _spec("xcom_end_turn", "gm_action", gm=True, high=100),
        _spec("xcom_detect", "gm_action", gm=True, low=2, high=100),
        _spec("xcom_contact", "gm_action", gm=True),
    )
}
