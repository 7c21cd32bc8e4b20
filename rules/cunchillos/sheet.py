"""The cunchillos sheet: characteristics (Fue, Coo, Res...), skills, weapons, hit points.

Sheets use the text's own Spanish words as keys::

    {"caracteristicas": {"fue": 12, "coo": 4, "res": 6},
     "pv": 30, "umbral_mortal": 10, "movimiento": 10, "nivel": 0,
     "iniciativa": {"primaria": 14, "secundaria": 9},
     "mano_habil": "derecha",
     "habilidades": {"espada": {"label": "Espada", "value": 15, "tipo": "fisica"}},
     "armas": {"espada": {"label": "Espada", "skill": "espada", "damage": "II",
                          "fue_min": 10, "parada": 3}},
     "en_mano": {"derecha": "espada"}}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.tables import DAMAGE_TYPES, HANDS
from rules.memo import by_identity
from rules.model import JsonMap, RulesError, t

_SLUG = re.compile(r"^[a-z0-9_]{1,40}$")
MAX_VALUE = 1000
REQUIRED_CHARACTERISTICS: tuple[str, ...] = ("fue", "coo", "res")
UNARMED = "sin_armas"
SKILL_KINDS: tuple[str, ...] = ("fisica", "mental")


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    value: int
    kind: str


@dataclass(frozen=True)
class Weapon:
    key: str
    label: str
    skill: str
    damage: str
    fue_min: int = 0
    parry: int = 0
    pistol: bool = False
    blunt: bool = False
    two_handed: bool = False


@dataclass(frozen=True)
class Sheet:
    characteristics: Mapping[str, int]
    hit_points: int
    mortal_threshold: int
    movement: int
    level: int
    initiative: tuple[int, int]
    main_hand: str
    skills: Mapping[str, Skill]
    weapons: Mapping[str, Weapon]
    in_hand: Mapping[str, str | None]

    @property
    def fue(self) -> int:
        return self.characteristics["fue"]

    @property
    def coo(self) -> int:
        return self.characteristics["coo"]

    @property
    def res(self) -> int:
        return self.characteristics["res"]

    def skill_value(self, key: str) -> int:
        """A skill's value; a skill the sheet lacks is rolled at 0 (RULES.md)."""
        skill = self.skills.get(key)
        return 0 if skill is None else skill.value

    def weapon(self, key: str) -> Weapon:
        if key == UNARMED and UNARMED not in self.weapons:
            return Weapon(UNARMED, "Sin armas", "pelea", "0", blunt=True)
        return self.weapons[key]


def _problem(problem: str, field: str) -> RulesError:
    return RulesError("invalid_sheet", t("error.sheet", problem=problem), field)


def _int(raw: Any, field: str, minimum: int = 0, maximum: int = MAX_VALUE) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not minimum <= raw <= maximum:
        raise _problem(f"{field} must be a whole number from {minimum} to {maximum}", field)
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    for key in raw:
        if not isinstance(key, str) or not _SLUG.match(key):
            raise _problem(f"{field} keys are lower-case slugs (a-z, 0-9, _)", f"{field}.{key}")
    return raw


def _label(raw: Any, default: str, field: str) -> str:
    label = default if raw is None else raw
    if not isinstance(label, str) or not 1 <= len(label) <= 60:
        raise _problem(f"{field} must be text of 1 to 60 characters", field)
    return label


def _bool(raw: Any, field: str) -> bool:
    if raw is None:
        return False
    if not isinstance(raw, bool):
        raise _problem(f"{field} must be true or false", field)
    return raw


def _weapon(key: str, raw: Any, skills: Mapping[str, Skill]) -> Weapon:
    field = f"sheet.armas.{key}"
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    skill = raw.get("skill")
    if not isinstance(skill, str) or not _SLUG.match(skill):
        raise _problem(f"{field}.skill must name a skill", f"{field}.skill")
    damage = raw.get("damage")
    if damage not in DAMAGE_TYPES:
        raise _problem(
            f"{field}.damage must be one of {', '.join(DAMAGE_TYPES)}", f"{field}.damage"
        )
    return Weapon(
        key,
        _label(raw.get("label"), key, f"{field}.label"),
        skill,
        str(damage),
        _int(raw.get("fue_min", 0), f"{field}.fue_min"),
        _int(raw.get("parada", 0), f"{field}.parada", -100, 100),
        _bool(raw.get("pistola"), f"{field}.pistola"),
        _bool(raw.get("golpe"), f"{field}.golpe"),
        _bool(raw.get("dos_manos"), f"{field}.dos_manos"),
    )


@by_identity()
def parse_sheet(raw: JsonMap) -> Sheet:
    if not isinstance(raw, Mapping):
        raise _problem("a sheet must be an object", "sheet")
    chars = {
        key: _int(value, f"sheet.caracteristicas.{key}")
        for key, value in _mapping(raw.get("caracteristicas"), "sheet.caracteristicas").items()
    }
    for name in REQUIRED_CHARACTERISTICS:
        if name not in chars:
            raise _problem(
                f"a sheet needs the characteristic {name}", f"sheet.caracteristicas.{name}"
            )
    initiative = _mapping(raw.get("iniciativa", {}), "sheet.iniciativa")
    skills: dict[str, Skill] = {}
    for key, value in _mapping(raw.get("habilidades", {}), "sheet.habilidades").items():
        field = f"sheet.habilidades.{key}"
        if not isinstance(value, Mapping):
            raise _problem(f"{field} must be an object with a value", field)
        kind = value.get("tipo", "fisica")
        if kind not in SKILL_KINDS:
            raise _problem(f"{field}.tipo must be fisica or mental", f"{field}.tipo")
        skills[key] = Skill(
            key,
            _label(value.get("label"), key, f"{field}.label"),
            _int(value.get("value"), f"{field}.value"),
            str(kind),
        )
    weapons = {
        key: _weapon(key, value, skills)
        for key, value in _mapping(raw.get("armas", {}), "sheet.armas").items()
    }
    main_hand = raw.get("mano_habil", "derecha")
    if main_hand not in HANDS:
        raise _problem("mano_habil must be derecha or izquierda", "sheet.mano_habil")
    in_hand: dict[str, str | None] = {hand: None for hand in HANDS}
    for hand, held in _mapping(raw.get("en_mano", {}), "sheet.en_mano").items():
        field = f"sheet.en_mano.{hand}"
        if hand not in HANDS:
            raise _problem("en_mano keys are derecha and izquierda", field)
        if held is not None and held not in weapons:
            raise _problem(f"{field} must name one of the sheet's weapons", field)
        in_hand[hand] = held
    return Sheet(
        chars,
        _int(raw.get("pv"), "sheet.pv", 1),
        _int(raw.get("umbral_mortal", 0), "sheet.umbral_mortal"),
        _int(raw.get("movimiento", 10), "sheet.movimiento"),
        _int(raw.get("nivel", 0), "sheet.nivel"),
        (
            _int(initiative.get("primaria", 0), "sheet.iniciativa.primaria"),
            _int(initiative.get("secundaria", 0), "sheet.iniciativa.secundaria"),
        ),
        str(main_hand),
        skills,
        weapons,
        in_hand,
    )


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    return {
        "caracteristicas": dict(sheet.characteristics),
        "pv": sheet.hit_points,
        "umbral_mortal": sheet.mortal_threshold,
        "movimiento": sheet.movement,
        "nivel": sheet.level,
        "iniciativa": {"primaria": sheet.initiative[0], "secundaria": sheet.initiative[1]},
        "mano_habil": sheet.main_hand,
        "habilidades": {
            key: {"label": s.label, "value": s.value, "tipo": s.kind}
            for key, s in sheet.skills.items()
        },
        "armas": {
            key: {
                "label": w.label,
                "skill": w.skill,
                "damage": w.damage,
                "fue_min": w.fue_min,
                "parada": w.parry,
                "pistola": w.pistol,
                "golpe": w.blunt,
                "dos_manos": w.two_handed,
            }
            for key, w in sheet.weapons.items()
        },
        "en_mano": dict(sheet.in_hand),
    }
