"""The brp_d10 sheet: four characteristics, skills, weapons and armour by location.

A raw sheet is JSON; :func:`parse_sheet` checks it and returns typed records,
:func:`sheet_to_json` the normalized JSON the world stores.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.brp_d10.tables import CHARACTERISTICS, FIRE_MODES, LOCATIONS, MAX_VALUE, WEAPON_KINDS
from rules.dice import DiceError
from rules.memo import by_identity
from rules.model import JsonMap, RulesError, t
from rules.rolls import DiceExpression, parse_expression

_SLUG = re.compile(r"^[a-z0-9_]{1,40}$")
MAX_MAGAZINE = 500
MAX_RATE = 100


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    value: int
    innate: bool
    base: tuple[str, ...] = ()
    base_mode: str = "half"
    """How ``base`` characteristics give a base score: 'half' (of one, rounded down) or 'average'."""


@dataclass(frozen=True)
class Weapon:
    key: str
    label: str
    kind: str
    skill: str
    damage: DiceExpression
    actions: int = 1
    """Actions a round the weapon allows when it is not automatic or semiautomatic (1-3)."""
    automatic: bool = False
    """Automatic or semiautomatic: each shot or spray lowers Agilidad by 1 for timing."""
    gun: bool = False
    """A firearm: it cannot be parried or dodged, not even with a shield."""
    modes: tuple[str, ...] = ()
    burst: int = 0
    sustained: int = 0
    """Bullets a round in sustained fire."""
    rate: int = 0
    """Most single shots a round the weapon allows (0: limited by Agilidad only)."""
    magazine: int = 0
    """Rounds a magazine, cylinder or quiver holds (0: no ammunition tracked)."""
    pistol: bool = False
    scope: bool = False
    laser: bool = False
    draw_and_use: bool = True
    """False for bows and slings: 'nunca se podrán sacar y usar en el mismo asalto'."""
    injury: str = "organ"
    """What an incapacitating wound from this weapon leaves: 'bone' or 'organ'."""
    spare_magazines: int | None = None
    """Spare magazines carried (None: not counted, a spare is always at hand)."""
    hand: str = "right"
    """The hand that holds it: 'right', 'left' or 'both'; an arm incapacitated or severed drops
    what it holds."""

    @property
    def ranged(self) -> bool:
        return self.kind in ("ranged", "thrown")


@dataclass(frozen=True)
class Sheet:
    characteristics: Mapping[str, int]
    skills: Mapping[str, Skill]
    weapons: Mapping[str, Weapon]
    armour: Mapping[str, int]


def problem(text: str, field: str) -> RulesError:
    return RulesError("invalid_sheet", t("error.sheet", problem=text), field)


def _int(raw: Any, field: str, minimum: int, maximum: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not minimum <= raw <= maximum:
        raise problem(f"{field} must be a whole number from {minimum} to {maximum}", field)
    return raw


def _bool(raw: Any, field: str) -> bool:
    if not isinstance(raw, bool):
        raise problem(f"{field} must be true or false", field)
    return raw


def _label(raw: Any, field: str) -> str:
    if not isinstance(raw, str) or not 1 <= len(raw) <= 60:
        raise problem(f"{field} must be text of 1 to 60 characters", field)
    return raw


def _choice(raw: Any, field: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise problem(f"{field} must be one of {', '.join(choices)}", field)
    return str(raw)


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise problem(f"{field} must be an object", field)
    for key in raw:
        if not isinstance(key, str) or not _SLUG.match(key):
            raise problem(f"{field} keys are lower-case slugs (a-z, 0-9, _)", f"{field}.{key}")
    return raw


def skill_base(characteristics: Mapping[str, int], base: tuple[str, ...], mode: str) -> int:
    """'una puntuación base igual a la mitad de una característica redondeando hacia abajo' or
    'una media entre varias características' (the average rounded down)."""
    if not base:
        return 0
    values = [characteristics[name] for name in base]
    if mode == "half":
        return values[0] // 2
    return sum(values) // len(values)


def _skill(key: str, raw: Any, characteristics: Mapping[str, int]) -> Skill:
    field = f"sheet.skills.{key}"
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = {"value": raw}
    spec = _mapping(raw, field)
    innate = _choice(spec.get("kind", "innate"), f"{field}.kind", ("innate", "knowledge"))
    base_raw = spec.get("base", [])
    if isinstance(base_raw, str):
        base_raw = [base_raw]
    if not isinstance(base_raw, list) or len(base_raw) > len(CHARACTERISTICS):
        raise problem(f"{field}.base must list characteristics", f"{field}.base")
    base = tuple(_choice(name, f"{field}.base", CHARACTERISTICS) for name in base_raw)
    mode = _choice(
        spec.get("base_mode", "half" if len(base) <= 1 else "average"),
        f"{field}.base_mode",
        ("half", "average"),
    )
    if "value" in spec:
        value = _int(spec["value"], f"{field}.value", 0, MAX_VALUE)
    else:
        points = _int(spec.get("points", 0), f"{field}.points", 0, MAX_VALUE)
        value = min(MAX_VALUE, skill_base(characteristics, base, mode) + points)
    if innate == "innate" and value < 1:
        raise problem(
            f"{field} is innate: everyone has at least 1 ('todo el mundo tiene al menos un valor "
            "de 1')",
            f"{field}.value",
        )
    label = _label(spec.get("label", key), f"{field}.label")
    return Skill(key, label, value, innate == "innate", base, mode)


def _default_hand(kind: str, pistol: bool) -> str:
    """A shield on the left arm, long guns and bows in both hands, the rest in the right."""
    if kind == "shield":
        return "left"
    return "both" if kind == "ranged" and not pistol else "right"


def _weapon(key: str, raw: Any, skills: Mapping[str, Skill]) -> Weapon:
    field = f"sheet.weapons.{key}"
    spec = _mapping(raw, field)
    kind = _choice(spec.get("kind", "melee"), f"{field}.kind", WEAPON_KINDS)
    skill = spec.get("skill")
    if skill not in skills:
        raise problem(f"{field}.skill must name one of the sheet's skills", f"{field}.skill")
    damage_raw = spec.get("damage", "1d3")
    if not isinstance(damage_raw, str):
        raise problem(f"{field}.damage must be a dice expression like 1d8+1", f"{field}.damage")
    try:
        damage = parse_expression(damage_raw)
    except DiceError:
        raise problem(
            f"{field}.damage must be a dice expression like 1d8+1", f"{field}.damage"
        ) from None
    if damage.count > 10 or damage.sides > 100:
        raise problem(f"{field}.damage rolls at most 10 dice of 100 sides", f"{field}.damage")
    automatic = _bool(spec.get("automatic", False), f"{field}.automatic")
    modes_raw = spec.get("modes", ["single"] if kind == "ranged" else [])
    if not isinstance(modes_raw, list):
        raise problem(f"{field}.modes must list fire modes", f"{field}.modes")
    modes = tuple(_choice(mode, f"{field}.modes", FIRE_MODES) for mode in modes_raw)
    if kind != "ranged" and modes:
        raise problem(f"{field}.modes are for ranged weapons only", f"{field}.modes")
    if ("burst" in modes or "sustained" in modes) and not automatic:
        raise problem(f"{field}: bursts and sustained fire need an automatic weapon", field)
    burst = _int(spec.get("burst", 3 if "burst" in modes else 0), f"{field}.burst", 0, 10)
    if "burst" in modes and burst < 2:
        raise problem(f"{field}.burst must be 2 or more bullets", f"{field}.burst")
    sustained = _int(
        spec.get("sustained", 10 if "sustained" in modes else 0),
        f"{field}.sustained",
        0,
        MAX_RATE,
    )
    if "sustained" in modes and sustained < 1:
        raise problem(f"{field}.sustained must be 1 or more bullets", f"{field}.sustained")
    injury_default = "bone" if kind in ("melee", "shield") and damage.sides <= 6 else "organ"
    return Weapon(
        key=key,
        label=_label(spec.get("label", key), f"{field}.label"),
        kind=kind,
        skill=str(skill),
        damage=damage,
        actions=_int(spec.get("actions", 1), f"{field}.actions", 1, 3),
        automatic=automatic,
        gun=_bool(spec.get("gun", automatic), f"{field}.gun"),
        modes=modes,
        burst=burst,
        sustained=sustained,
        rate=_int(spec.get("rate", 0), f"{field}.rate", 0, MAX_RATE),
        magazine=_int(spec.get("magazine", 0), f"{field}.magazine", 0, MAX_MAGAZINE),
        pistol=_bool(spec.get("pistol", False), f"{field}.pistol"),
        scope=_bool(spec.get("scope", False), f"{field}.scope"),
        laser=_bool(spec.get("laser", False), f"{field}.laser"),
        draw_and_use=_bool(spec.get("draw_and_use", True), f"{field}.draw_and_use"),
        injury=_choice(spec.get("injury", injury_default), f"{field}.injury", ("bone", "organ")),
        spare_magazines=None
        if spec.get("spare_magazines") is None
        else _int(spec["spare_magazines"], f"{field}.spare_magazines", 0, 100),
        hand=_choice(
            spec.get("hand", _default_hand(kind, spec.get("pistol") is True)),
            f"{field}.hand",
            ("right", "left", "both"),
        ),
    )


@by_identity()
def parse_sheet(raw: JsonMap) -> Sheet:
    if not isinstance(raw, Mapping):
        raise problem("a sheet must be an object", "sheet")
    for key in raw:
        if key not in ("characteristics", "skills", "weapons", "armour"):
            raise problem(f"unknown sheet field {str(key)[:40]}", f"sheet.{str(key)[:40]}")
    chars_raw = _mapping(raw.get("characteristics", {}), "sheet.characteristics")
    characteristics: dict[str, int] = {}
    for name in CHARACTERISTICS:
        field = f"sheet.characteristics.{name}"
        if name not in chars_raw:
            raise problem(f"{field} is missing", field)
        characteristics[name] = _int(chars_raw[name], field, 1, MAX_VALUE)
    for name in chars_raw:
        if name not in CHARACTERISTICS:
            raise problem(
                f"there are only four characteristics ({', '.join(CHARACTERISTICS)})",
                f"sheet.characteristics.{name}",
            )
    skills_raw = _mapping(raw.get("skills", {}), "sheet.skills")
    skills = {key: _skill(key, value, characteristics) for key, value in skills_raw.items()}
    weapons_raw = _mapping(raw.get("weapons", {}), "sheet.weapons")
    weapons = {key: _weapon(key, value, skills) for key, value in weapons_raw.items()}
    armour_raw = _mapping(raw.get("armour", {}), "sheet.armour")
    armour: dict[str, int] = {}
    for location, value in armour_raw.items():
        field = f"sheet.armour.{location}"
        _choice(location, field, LOCATIONS)
        armour[location] = _int(value, field, 0, 20)
    return Sheet(characteristics, skills, weapons, armour)


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    skills: dict[str, Any] = {}
    for key, skill in sheet.skills.items():
        entry: dict[str, Any] = {
            "label": skill.label,
            "value": skill.value,
            "kind": "innate" if skill.innate else "knowledge",
        }
        if skill.base:
            entry["base"] = list(skill.base)
            entry["base_mode"] = skill.base_mode
        skills[key] = entry
    weapons: dict[str, Any] = {}
    for key, w in sheet.weapons.items():
        weapons[key] = {
            "label": w.label,
            "kind": w.kind,
            "skill": w.skill,
            "damage": str(w.damage),
            "actions": w.actions,
            "automatic": w.automatic,
            "gun": w.gun,
            "modes": list(w.modes),
            "burst": w.burst,
            "sustained": w.sustained,
            "rate": w.rate,
            "magazine": w.magazine,
            "pistol": w.pistol,
            "scope": w.scope,
            "laser": w.laser,
            "draw_and_use": w.draw_and_use,
            "injury": w.injury,
            "hand": w.hand,
        }
        if w.spare_magazines is not None:
            weapons[key]["spare_magazines"] = w.spare_magazines
    return {
        "characteristics": dict(sheet.characteristics),
        "skills": skills,
        "weapons": weapons,
        "armour": dict(sheet.armour),
    }
