"""World settings: every ruling a table could decide otherwise (see RULES.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.tables import LOCATION_BY_FACE, LOCATION_KEYS
from rules.memo import by_identity
from rules.model import t
from rules.params import Param

SETTINGS: tuple[Param, ...] = (
    Param(
        "critical_rule",
        "choice",
        t("setting.critical_rule"),
        default="doubles",
        choices=("doubles", "margin"),
    ),
    Param(
        "critical_margin", "int", t("setting.critical_margin"), default=10, minimum=1, maximum=50
    ),
    Param("fumble_margin", "int", t("setting.fumble_margin"), default=10, minimum=1, maximum=50),
    Param("low_band", "int", t("setting.low_band"), default=2, minimum=0, maximum=20),
    Param(
        "multi_action_count",
        "choice",
        t("setting.multi_action_count"),
        default="extra",
        choices=("extra", "all"),
    ),
    Param(
        "rounds_per_minute",
        "int",
        t("setting.rounds_per_minute"),
        default=10,
        minimum=1,
        maximum=60,
    ),
    Param(
        "serious_bleed_rounds",
        "int",
        t("setting.serious_bleed_rounds"),
        default=5,
        minimum=1,
        maximum=100,
    ),
    Param("amputation", "bool", t("setting.amputation"), default=False),
    Param(
        "zero_hp_bleeding",
        "choice",
        t("setting.zero_hp_bleeding"),
        default="replace",
        choices=("replace", "add"),
    ),
    Param(
        "blow_damage",
        "choice",
        t("setting.blow_damage"),
        default="blows",
        choices=("blows", "wounds"),
    ),
    Param("literal_signs", "bool", t("setting.literal_signs"), default=False),
    Param(
        "knockdown_damage_type",
        "choice",
        t("setting.knockdown_damage_type"),
        default="II",
        choices=("0", "I", "II", "III"),
    ),
    Param("knockdown_hurts", "bool", t("setting.knockdown_hurts"), default=False),
    Param(
        "parry_strength_on",
        "choice",
        t("setting.parry_strength_on"),
        default="defender_wins",
        choices=("defender_wins", "always"),
    ),
    Param(
        "forced_move_step", "int", t("setting.forced_move_step"), default=5, minimum=1, maximum=100
    ),
    Param(
        "dodge_level_source",
        "choice",
        t("setting.dodge_level_source"),
        default="skill",
        choices=("skill", "nivel"),
    ),
    Param(
        "fumble_table", "choice", t("setting.fumble_table"), default="roll", choices=("roll", "gm")
    ),
    Param("max_attackers", "int", t("setting.max_attackers"), default=4, minimum=1, maximum=20),
    Param("enforce_order", "bool", t("setting.enforce_order"), default=True),
    Param(
        "weapon_breaks_at", "int", t("setting.weapon_breaks_at"), default=0, minimum=0, maximum=1000
    ),
    Param("location_table", "str", t("setting.location_table"), default="", max_length=400),
    Param(
        "opposed_compare",
        "choice",
        t("setting.opposed_compare"),
        default="level",
        choices=("level", "margin"),
    ),
)


@dataclass(frozen=True)
class Rules:
    """The settings of one world, typed (missing keys take their defaults)."""

    critical_rule: str = "doubles"
    critical_margin: int = 10
    fumble_margin: int = 10
    low_band: int = 2
    multi_action_count: str = "extra"
    rounds_per_minute: int = 10
    serious_bleed_rounds: int = 5
    amputation: bool = False
    zero_hp_bleeding: str = "replace"
    blow_damage: str = "blows"
    literal_signs: bool = False
    knockdown_damage_type: str = "II"
    knockdown_hurts: bool = False
    parry_strength_on: str = "defender_wins"
    forced_move_step: int = 5
    dodge_level_source: str = "skill"
    fumble_table: str = "roll"
    max_attackers: int = 4
    opposed_compare: str = "level"
    enforce_order: bool = True
    weapon_breaks_at: int = 0
    location_table: str = ""

    @property
    def locations(self) -> Mapping[int, str]:
        """The location die (face -> location): the world's table, or the default one."""
        return parse_location_table(self.location_table) or LOCATION_BY_FACE


def parse_location_table(raw: str) -> dict[int, str] | None:
    """'cabeza, brazo_derecho, ...': ten location keys for faces 1-10, each location at
    least once. None when ``raw`` is empty or not such a table."""
    keys = [part.strip() for part in raw.split(",")] if raw.strip() else []
    if len(keys) != 10 or set(keys) != set(LOCATION_KEYS):
        return None
    return {face: key for face, key in enumerate(keys, start=1)}


@by_identity()
def rules_of(settings: Mapping[str, Any]) -> Rules:
    """The world's rule options, read once per settings object (a world's settings are never
    changed in place: a new world gets new settings)."""
    defaults = Rules()
    values: dict[str, Any] = {}
    for param in SETTINGS:
        value = settings.get(param.name, getattr(defaults, param.name))
        expected = type(getattr(defaults, param.name))
        if isinstance(value, bool) != (expected is bool) or not isinstance(value, expected):
            value = getattr(defaults, param.name)
        values[param.name] = value
    return Rules(**values)
