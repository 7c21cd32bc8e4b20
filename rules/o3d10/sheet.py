"""The o3d10 actor sheet: attributes, skills (each tied to an attribute), weapons, armour,
encumbrance and optional overrides of the derived combat values (defensa, iniciativa, pv)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceError
from rules.memo import by_identity
from rules.model import JsonMap, RulesError, t
from rules.rolls import parse_expression

_SLUG = re.compile(r"^[a-z0-9_]{1,40}$")
MAX_VALUE = 50


WEAPON_TYPES: tuple[str, ...] = ("cuerpo", "distancia", "fuego")
ARMOUR_TYPES: tuple[str, ...] = ("ninguna", "ligera", "media", "pesada")
COMBAT_OVERRIDES: tuple[str, ...] = ("defensa", "iniciativa", "pv")


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    value: int
    attribute: str
    spell: bool = False


@dataclass(frozen=True)
class Weapon:
    """``tipo``: cuerpo (melee), distancia (bows, thrown), fuego (firearms: reliability roll)."""

    key: str
    label: str
    kind: str
    damage: str
    light: bool = False
    reliability: int | None = None
    model: str = ""
    capacity: int = 0

    @property
    def ranged(self) -> bool:
        return self.kind != "cuerpo"

    @property
    def firearm(self) -> bool:
        return self.kind == "fuego"


@dataclass(frozen=True)
class Armour:
    label: str = "Sin armadura"
    kind: str = "ninguna"
    defense: int = 0
    encumbrance: int = 0


@dataclass(frozen=True)
class Sheet:
    attributes: Mapping[str, int]
    skills: Mapping[str, Skill]
    combat: Mapping[str, int]
    weapons: Mapping[str, Weapon] = field(default_factory=dict)
    armour: Armour = Armour()
    encumbrance: int = 0

    def attribute(self, key: str) -> int:
        return self.attributes.get(key, 0)

    def skill_value(self, key: str) -> int:
        skill = self.skills.get(key)
        return skill.value if skill is not None else 0

    @property
    def total_encumbrance(self) -> int:
        return self.encumbrance + self.armour.encumbrance


def _problem(problem: str, field: str) -> RulesError:
    return RulesError("invalid_sheet", t("error.sheet", problem=problem), field)


def _value(raw: Any, field: str, maximum: int = MAX_VALUE) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= maximum:
        raise _problem(f"{field} must be a whole number from 0 to {maximum}", field)
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    for key in raw:
        if not isinstance(key, str) or not _SLUG.match(key):
            raise _problem(f"{field} keys are lower-case slugs (a-z, 0-9, _)", f"{field}.{key}")
    return raw


SHEET_KEYS: tuple[str, ...] = ("attributes", "skills", "combat", "weapons", "armour", "estorbo")


@by_identity()
def parse_sheet(raw: JsonMap) -> Sheet:
    if not isinstance(raw, Mapping):
        raise _problem("a sheet must be an object", "sheet")
    for key in raw:
        if key not in SHEET_KEYS:
            raise _problem(f"a sheet holds only {', '.join(SHEET_KEYS)}", f"sheet.{key}")
    attributes = {
        key: _value(value, f"sheet.attributes.{key}")
        for key, value in _mapping(raw.get("attributes", {}), "sheet.attributes").items()
    }
    if not attributes:
        raise _problem("a sheet needs at least one attribute", "sheet.attributes")
    skills: dict[str, Skill] = {}
    for key, value in _mapping(raw.get("skills", {}), "sheet.skills").items():
        field = f"sheet.skills.{key}"
        if not isinstance(value, Mapping):
            raise _problem(f"{field} must be an object with value and attribute", field)
        attribute = value.get("attribute")
        if attribute not in attributes:
            raise _problem(f"{field}.attribute must name one of the sheet's attributes", field)
        label = value.get("label", key)
        if not isinstance(label, str) or not 1 <= len(label) <= 60:
            raise _problem(f"{field}.label must be text of 1 to 60 characters", field)
        spell = value.get("conjuro", False)
        if not isinstance(spell, bool):
            raise _problem(f"{field}.conjuro must be true or false", field)
        skills[key] = Skill(
            key, label, _value(value.get("value", 0), f"{field}.value"), attribute, spell
        )
    combat: dict[str, int] = {}
    for key, value in _mapping(raw.get("combat", {}), "sheet.combat").items():
        if key not in COMBAT_OVERRIDES:
            raise _problem(
                f"sheet.combat holds only {', '.join(COMBAT_OVERRIDES)}", f"sheet.combat.{key}"
            )
        combat[key] = _value(value, f"sheet.combat.{key}", 1000)
    weapons = {
        key: _weapon(key, value, f"sheet.weapons.{key}")
        for key, value in _mapping(raw.get("weapons", {}), "sheet.weapons").items()
    }
    if len(weapons) > 20:
        raise _problem("a sheet holds at most 20 weapons", "sheet.weapons")
    armour = _armour(raw.get("armour"), "sheet.armour")
    encumbrance = _value(raw.get("estorbo", 0), "sheet.estorbo", 20)
    return Sheet(attributes, skills, combat, weapons, armour, encumbrance)


def _label(raw: Any, default: str, field: str) -> str:
    label = default if raw is None else raw
    if not isinstance(label, str) or not 1 <= len(label) <= 60:
        raise _problem(f"{field}.label must be text of 1 to 60 characters", f"{field}.label")
    return label


def _choice(raw: Any, choices: tuple[str, ...], field: str) -> str:
    if raw not in choices:
        raise _problem(f"{field} must be one of {', '.join(choices)}", field)
    return str(raw)


def _damage(raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise _problem(f"{field} must be a dice expression such as 2d6 or 1d6+1", field)
    try:
        expression = parse_expression(raw)
    except DiceError:
        raise _problem(f"{field} must be a dice expression such as 2d6 or 1d6+1", field) from None
    if expression.count > 10 or expression.sides > 20 or abs(expression.modifier) > 50:
        raise _problem(f"{field} rolls at most 10 dice of up to 20 sides, +-50", field)
    return str(expression)


def _weapon(key: str, raw: Any, field: str) -> Weapon:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    kind = _choice(raw.get("tipo", "cuerpo"), WEAPON_TYPES, f"{field}.tipo")
    light = raw.get("ligera", False)
    if not isinstance(light, bool):
        raise _problem(f"{field}.ligera must be true or false", f"{field}.ligera")
    reliability = raw.get("fiabilidad")
    if reliability is not None:
        reliability = _value(reliability, f"{field}.fiabilidad", 19)
    model = raw.get("clase", "")
    if not isinstance(model, str) or len(model) > 40:
        raise _problem(f"{field}.clase must be text of up to 40 characters", f"{field}.clase")
    return Weapon(
        key,
        _label(raw.get("label"), key, field),
        kind,
        _damage(raw.get("dano"), f"{field}.dano"),
        light,
        reliability,
        model,
        _value(raw.get("capacidad", 0), f"{field}.capacidad", 200),
    )


def _armour(raw: Any, field: str) -> Armour:
    if raw is None:
        return Armour()
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    return Armour(
        _label(raw.get("label"), "Armadura", field),
        _choice(raw.get("tipo", "ligera"), ARMOUR_TYPES, f"{field}.tipo"),
        _value(raw.get("defensa", 0), f"{field}.defensa", 20),
        _value(raw.get("estorbo", 0), f"{field}.estorbo", 20),
    )


def _weapon_json(weapon: Weapon) -> dict[str, Any]:
    data: dict[str, Any] = {
        "label": weapon.label,
        "tipo": weapon.kind,
        "dano": weapon.damage,
        "ligera": weapon.light,
        "capacidad": weapon.capacity,
    }
    if weapon.reliability is not None:
        data["fiabilidad"] = weapon.reliability
    if weapon.model:
        data["clase"] = weapon.model
    return data


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    return {
        "attributes": dict(sheet.attributes),
        "skills": {
            key: {"label": s.label, "value": s.value, "attribute": s.attribute, "conjuro": s.spell}
            for key, s in sheet.skills.items()
        },
        "combat": dict(sheet.combat),
        "weapons": {key: _weapon_json(w) for key, w in sheet.weapons.items()},
        "armour": {
            "label": sheet.armour.label,
            "tipo": sheet.armour.kind,
            "defensa": sheet.armour.defense,
            "estorbo": sheet.armour.encumbrance,
        },
        "estorbo": sheet.encumbrance,
    }
