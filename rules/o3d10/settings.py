"""o3d10 world settings: every ruling a table could decide otherwise, and the 'primera' preset.

``version = "primera"`` fills every setting the text's first half decides differently
(unarmed 1d4, range 15/18/20/25, two weapons at -2/-4, hit points); settings given
explicitly still win over the preset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.model import JsonMap, t
from rules.o3d10.tables import DEFENSE_BASE, VERSIONS
from rules.params import Param, validate_params

SETTINGS: tuple[Param, ...] = (
    Param("version", "choice", t("setting.version"), default="completa", choices=VERSIONS),
    Param(
        "health_model",
        "choice",
        t("setting.health_model"),
        default="bands",
        choices=("bands", "hit_points"),
    ),
    Param(
        "unarmed_damage",
        "choice",
        t("setting.unarmed_damage"),
        default="completa",
        choices=VERSIONS,
    ),
    Param("range_table", "choice", t("setting.range_table"), default="completa", choices=VERSIONS),
    Param(
        "two_weapons",
        "choice",
        t("setting.two_weapons"),
        default="bonus",
        choices=("bonus", "penalty"),
    ),
    Param(
        "rank_stacking",
        "choice",
        t("setting.rank_stacking"),
        default="steps",
        choices=("steps", "lowest_wins"),
    ),
    Param(
        "opposed_tie",
        "choice",
        t("setting.opposed_tie"),
        default="repeat",
        choices=("repeat", "defender"),
    ),
    Param(
        "defense_base",
        "int",
        t("setting.defense_base"),
        default=DEFENSE_BASE,
        minimum=0,
        maximum=30,
    ),
    Param("margin_dice_ranged", "bool", t("setting.margin_dice_ranged"), default=False),
    Param("firearm_reliability", "bool", t("setting.firearm_reliability"), default=True),
    Param("enforce_actions", "bool", t("setting.enforce_actions"), default=True),
    Param("auto_apply_damage", "bool", t("setting.auto_apply_damage"), default=False),
    Param("natural_one_attribute", "bool", t("setting.natural_one_attribute"), default=False),
)

PRESETS: Mapping[str, Mapping[str, Any]] = {
    "completa": {},
    "primera": {
        "health_model": "hit_points",
        "unarmed_damage": "primera",
        "range_table": "primera",
        "two_weapons": "penalty",
    },
}


def default_settings() -> dict[str, Any]:
    return {param.name: param.default for param in SETTINGS}


def validate_settings(raw: JsonMap) -> dict[str, Any]:
    """Defaults, then the chosen version's preset, then what the world sets explicitly."""
    given = validate_params(SETTINGS, raw, "settings")
    version = str(given.get("version", "completa"))
    explicit = {key: value for key, value in given.items() if key in raw}
    return {**default_settings(), **PRESETS[version], **explicit}
