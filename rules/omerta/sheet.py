"""The Omertà actor sheet: characteristics, hit points, skills (percentages) and weapons.

A sheet is JSON::

    {"pc": true, "hp": 14, "armour": 0,
     "characteristics": {"fue": 12, "con": 13, "des": 14, "agi": 12},
     "skills": {"arma_corta": {"label": "Arma corta", "value": 60}, "esquivar": 40},
     "weapons": {"colt": {"label": "Colt .45", "kind": "firearm", "type": "pistol",
                          "skill": "arma_corta", "damage": "1d10+2", "capacity": 7,
                          "shots": 3},
                 "cuchillos": {"label": "Cuchillos", "kind": "thrown", "skill": "lanzar",
                               "damage": "1d4", "capacity": 3}}}

A thrown weapon's ``capacity`` (optional) is how many are carried: each throw spends one and
``reload`` picks them back up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceError
from rules.memo import by_identity
from rules.model import JsonMap, RulesError, t
from rules.omerta.tables import FIREARM_TYPES, MELEE_SKILLS, SHOTGUN_DAMAGE, WEAPON_KINDS
from rules.rolls import parse_expression

_SLUG = re.compile(r"^[a-z0-9_]{1,40}$")
REQUIRED_CHARACTERISTICS: tuple[str, ...] = ("fue", "con", "des", "agi")
MAX_CHARACTERISTIC = 50
MAX_SKILL = 200
MAX_HP = 500


@dataclass(frozen=True)
class Weapon:
    key: str
    label: str
    kind: str
    skill: str
    damage: str | None
    type: str | None = None
    capacity: int = 0
    shots: int = 1
    damage_type: str = "lethal"

    @property
    def firearm(self) -> bool:
        return self.kind == "firearm"

    @property
    def counted(self) -> bool:
        """Ammunition is tracked: firearms, and thrown weapons with a count carried."""
        return self.firearm or (self.kind == "thrown" and self.capacity > 0)

    @property
    def melee(self) -> bool:
        return self.kind in ("melee", "natural")

    @property
    def ranged(self) -> bool:
        return self.kind in ("firearm", "thrown")

    @property
    def thompson(self) -> bool:
        return self.type == "thompson"

    @property
    def shotgun(self) -> bool:
        return self.type in SHOTGUN_DAMAGE


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    value: int


@dataclass(frozen=True)
class Sheet:
    pc: bool
    hp: int
    armour: int
    characteristics: Mapping[str, int]
    skills: Mapping[str, Skill]
    weapons: Mapping[str, Weapon]

    def skill(self, key: str) -> int:
        found = self.skills.get(key)
        return found.value if found is not None else 0

    def char(self, key: str) -> int:
        return self.characteristics.get(key, 0)

    @property
    def hit_cap(self) -> int:
        """'hay un tope máximo de balas que pueden impactar en un objetivo: DES/2+FUE/2'."""
        return max(1, self.char("des") // 2 + self.char("fue") // 2)


def _problem(problem: str, field: str) -> RulesError:
    return RulesError("invalid_sheet", t("error.sheet", problem=problem), field)


def _int(raw: Any, field: str, minimum: int, maximum: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not minimum <= raw <= maximum:
        raise _problem(f"{field} must be a whole number from {minimum} to {maximum}", field)
    return raw


def _text(raw: Any, field: str) -> str:
    if not isinstance(raw, str) or not 1 <= len(raw) <= 60:
        raise _problem(f"{field} must be text of 1 to 60 characters", field)
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    for key in raw:
        if not isinstance(key, str) or not _SLUG.match(key):
            raise _problem(f"{field} keys are lower-case slugs (a-z, 0-9, _)", f"{field}.{key}")
    return raw


def _choice(raw: Any, field: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise _problem(f"{field} must be one of {', '.join(choices)}", field)
    return str(raw)


def _skill(key: str, raw: Any) -> Skill:
    field = f"sheet.skills.{key}"
    if isinstance(raw, Mapping):
        label = _text(raw.get("label", key), f"{field}.label")
        return Skill(key, label, _int(raw.get("value"), f"{field}.value", 0, MAX_SKILL))
    return Skill(key, key, _int(raw, field, 0, MAX_SKILL))


def _weapon(key: str, raw: Any, skills: Mapping[str, Skill]) -> Weapon:
    field = f"sheet.weapons.{key}"
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    kind = _choice(raw.get("kind"), f"{field}.kind", WEAPON_KINDS)
    skill = raw.get("skill")
    if skill not in skills:
        raise _problem(f"{field}.skill must name one of the sheet's skills", f"{field}.skill")
    if kind in ("melee", "natural") and skill not in MELEE_SKILLS:
        raise _problem(f"{field}.skill of a melee weapon is arma_blanca or pelea", f"{field}.skill")
    weapon_type = None
    capacity, shots = 0, 1
    if kind == "firearm":
        weapon_type = _choice(raw.get("type"), f"{field}.type", FIREARM_TYPES)
        capacity = _int(raw.get("capacity"), f"{field}.capacity", 1, 200)
        shots = _int(raw.get("shots", 1), f"{field}.shots", 1, 50)
    elif kind == "thrown" and raw.get("capacity") is not None:
        capacity = _int(raw.get("capacity"), f"{field}.capacity", 1, 50)
    damage = raw.get("damage")
    if not (weapon_type in SHOTGUN_DAMAGE and damage is None):
        bad = f"{field}.damage must be a dice expression such as 1d6+1"
        if not isinstance(damage, str):
            raise _problem(bad, f"{field}.damage")
        try:
            parse_expression(damage)
        except DiceError:
            raise _problem(bad, f"{field}.damage") from None
    default_type = "contusion" if kind == "natural" else "lethal"
    damage_type = _choice(
        raw.get("damage_type", default_type), f"{field}.damage_type", ("lethal", "contusion")
    )
    return Weapon(
        key,
        _text(raw.get("label", key), f"{field}.label"),
        kind,
        str(skill),
        damage if isinstance(damage, str) else None,
        weapon_type,
        capacity,
        shots,
        damage_type,
    )


@by_identity()
def parse_sheet(raw: JsonMap) -> Sheet:
    if not isinstance(raw, Mapping):
        raise _problem("a sheet must be an object", "sheet")
    characteristics = {
        key: _int(value, f"sheet.characteristics.{key}", 0, MAX_CHARACTERISTIC)
        for key, value in _mapping(raw.get("characteristics", {}), "sheet.characteristics").items()
    }
    for key in REQUIRED_CHARACTERISTICS:
        if key not in characteristics:
            raise _problem(
                f"a sheet needs the characteristic {key}", f"sheet.characteristics.{key}"
            )
    skills = {
        key: _skill(key, value)
        for key, value in _mapping(raw.get("skills", {}), "sheet.skills").items()
    }
    weapons = {
        key: _weapon(key, value, skills)
        for key, value in _mapping(raw.get("weapons", {}), "sheet.weapons").items()
    }
    pc = raw.get("pc", True)
    if not isinstance(pc, bool):
        raise _problem("sheet.pc must be true or false", "sheet.pc")
    return Sheet(
        pc,
        _int(raw.get("hp"), "sheet.hp", 1, MAX_HP),
        _int(raw.get("armour", 0), "sheet.armour", 0, 50),
        characteristics,
        skills,
        weapons,
    )


def weapon_to_json(weapon: Weapon) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": weapon.label,
        "kind": weapon.kind,
        "skill": weapon.skill,
        "damage_type": weapon.damage_type,
    }
    if weapon.damage is not None:
        out["damage"] = weapon.damage
    if weapon.firearm:
        out.update(type=weapon.type, capacity=weapon.capacity, shots=weapon.shots)
    elif weapon.counted:
        out["capacity"] = weapon.capacity
    return out


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    return {
        "pc": sheet.pc,
        "hp": sheet.hp,
        "armour": sheet.armour,
        "characteristics": dict(sheet.characteristics),
        "skills": {key: {"label": s.label, "value": s.value} for key, s in sheet.skills.items()},
        "weapons": {key: weapon_to_json(w) for key, w in sheet.weapons.items()},
    }
