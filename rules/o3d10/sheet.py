"""The o3d10 actor sheet: attributes, skills (each tied to an attribute) and combat values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.model import JsonMap, RulesError, t

_SLUG = re.compile(r"^[a-z0-9_]{1,40}$")
MAX_VALUE = 50


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    value: int
    attribute: str


@dataclass(frozen=True)
class Sheet:
    attributes: Mapping[str, int]
    skills: Mapping[str, Skill]
    combat: Mapping[str, int]


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


def parse_sheet(raw: JsonMap) -> Sheet:
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
        skills[key] = Skill(key, label, _value(value.get("value", 0), f"{field}.value"), attribute)
    combat = {
        key: _value(value, f"sheet.combat.{key}", 1000)
        for key, value in _mapping(raw.get("combat", {}), "sheet.combat").items()
    }
    return Sheet(attributes, skills, combat)


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    return {
        "attributes": dict(sheet.attributes),
        "skills": {
            key: {"label": s.label, "value": s.value, "attribute": s.attribute}
            for key, s in sheet.skills.items()
        },
        "combat": dict(sheet.combat),
    }
