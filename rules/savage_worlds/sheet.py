"""The Savage Worlds sheet: attributes and skills as dice, derived Parry and Toughness, weapons.

A raw sheet (JSON) is parsed into frozen records; :func:`sheet_to_json` gives
the normalized JSON the bridge stores. Every refusal is a ``RulesError`` with
code ``invalid_sheet`` naming the bad field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from rules.dice import DiceError
from rules.memo import remember_by_identity
from rules.model import JsonMap, RulesError, t
from rules.rolls import parse_expression
from rules.savage_worlds.tables import ATTRIBUTES, ROF_AMMO, SKILL_LABELS, TRAIT_DICE

_SLUG: Final = re.compile(r"^[a-z0-9_]{1,40}$")
WEAPON_KINDS: Final = ("melee", "ranged", "thrown")
RELOADS: Final = ("magazine", "belt", "missile", "single")
SIDES: Final = ("heroes", "villains", "civilians")
EDGES: Final = ("temple", "rapido", "frenesi", "sin_retroceso")
"""Edges the rules read: Temple (Level Headed), Rápido (Quick), Frenesí, recoil edge."""
MAX_SHOTS: Final = 10_000


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    die: int
    modifier: int = 0


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    kind: str
    damage: str
    rof: int = 1
    shots: int | None = None
    magazines: int | None = None
    reload: str = "magazine"
    ap: int = 0
    area: bool = False
    heavy: bool = False
    bipod: bool = False
    pen_mov: bool = False
    min_str: int | None = None

    @property
    def skill(self) -> str:
        return {"melee": "pelear", "ranged": "disparar", "thrown": "lanzar"}[self.kind]


UNARMED: Final = Weapon("unarmed", "Desarmado", "melee", "")
"""'Daño desarmado: Un combatiente desarmado solamente causa su propia Fuerza'."""


@dataclass(frozen=True)
class Sheet:
    wild_card: bool
    side: str
    group: str | None
    leader: str | None
    attributes: Mapping[str, int]
    skills: Mapping[str, Skill]
    pace: int
    armor: int
    toughness_override: int | None
    parry_override: int | None
    bennies: int
    edges: tuple[str, ...]
    weapons: tuple[Weapon, ...]

    @property
    def parry(self) -> int:
        """'2 más la mitad del dado de Pelear, 2 a secas en el caso de que no tenga dicha habilidad'."""
        if self.parry_override is not None:
            return self.parry_override
        fighting = self.skills.get("pelear")
        return 2 + (fighting.die // 2 + fighting.modifier // 2 if fighting else 0)

    @property
    def toughness(self) -> int:
        """Ruling: 2 + half Vigor + armour (core rules; the text does not give it) unless set."""
        if self.toughness_override is not None:
            return self.toughness_override
        return 2 + self.attributes["vigor"] // 2 + self.armor

    def weapon(self, weapon_id: str) -> Weapon | None:
        if weapon_id == UNARMED.id:
            return UNARMED
        return next((w for w in self.weapons if w.id == weapon_id), None)

    def has_edge(self, edge: str) -> bool:
        return edge in self.edges


def _problem(problem: str, field: str) -> RulesError:
    return RulesError("invalid_sheet", t("error.sheet", problem=problem), field)


def _int(raw: Any, field: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise _problem(f"{field} must be a whole number from {low} to {high}", field)
    return raw


def _die(raw: Any, field: str) -> int:
    if isinstance(raw, bool) or raw not in TRAIT_DICE:
        raise _problem(f"{field} must be a die: 4, 6, 8, 10 or 12", field)
    return int(raw)


def _bool(raw: Any, field: str) -> bool:
    if not isinstance(raw, bool):
        raise _problem(f"{field} must be true or false", field)
    return raw


def _text(raw: Any, field: str, maximum: int = 60) -> str:
    if not isinstance(raw, str) or not 1 <= len(raw) <= maximum:
        raise _problem(f"{field} must be text of 1 to {maximum} characters", field)
    return raw


def _slug(raw: Any, field: str) -> str:
    if not isinstance(raw, str) or not _SLUG.match(raw):
        raise _problem(f"{field} must be a lower-case slug (a-z, 0-9, _)", field)
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    for key in raw:
        _slug(key, f"{field}.{key}")
    return raw


def _choice(raw: Any, field: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise _problem(f"{field} must be one of {', '.join(choices)}", field)
    return str(raw)


def _skill(key: str, raw: Any, field: str) -> Skill:
    label = SKILL_LABELS.get(key, key)
    if isinstance(raw, Mapping):
        for name in raw:
            if name not in ("die", "modifier", "label"):
                raise _problem(f"{field} has an unknown field {str(name)[:40]}", field)
        return Skill(
            key,
            _text(raw.get("label", label), f"{field}.label"),
            _die(raw.get("die"), f"{field}.die"),
            _int(raw.get("modifier", 0), f"{field}.modifier", -10, 10),
        )
    return Skill(key, label, _die(raw, field))


_WEAPON_FIELDS: Final = frozenset(
    {
        "id",
        "name",
        "kind",
        "damage",
        "rof",
        "shots",
        "magazines",
        "reload",
        "ap",
        "area",
        "heavy",
        "bipod",
        "pen_mov",
        "min_str",
    }
)


def _weapon(raw: Any, field: str) -> Weapon:
    if not isinstance(raw, Mapping):
        raise _problem(f"{field} must be an object", field)
    unknown = set(raw) - _WEAPON_FIELDS
    if unknown:
        raise _problem(f"{field} has unknown fields {sorted(map(str, unknown))[:3]}", field)
    kind = _choice(raw.get("kind"), f"{field}.kind", WEAPON_KINDS)
    damage = raw.get("damage", "")
    if not isinstance(damage, str) or (kind != "melee" and not damage):
        raise _problem(
            f"{field}.damage must be dice such as 2d6 (melee: the weapon die, d8)", field
        )
    if damage:
        try:
            parse_expression(damage, explode=True)
        except DiceError:
            raise _problem(f"{field}.damage must be dice such as 2d6 or d8+1", field) from None
    rof = _int(raw.get("rof", 1), f"{field}.rof", 1, max(ROF_AMMO))
    shots = raw.get("shots")
    magazines = raw.get("magazines")
    min_str = raw.get("min_str")
    weapon_id = _slug(raw.get("id"), f"{field}.id")
    if weapon_id == UNARMED.id:
        raise _problem(f"{field}.id 'unarmed' is reserved", f"{field}.id")
    return Weapon(
        id=weapon_id,
        name=_text(raw.get("name", weapon_id), f"{field}.name"),
        kind=kind,
        damage=damage,
        rof=rof,
        shots=None if shots is None else _int(shots, f"{field}.shots", 1, MAX_SHOTS),
        magazines=None if magazines is None else _int(magazines, f"{field}.magazines", 0, 1000),
        reload=_choice(raw.get("reload", "magazine"), f"{field}.reload", RELOADS),
        ap=_int(raw.get("ap", 0), f"{field}.ap", 0, 100),
        area=_bool(raw.get("area", False), f"{field}.area"),
        heavy=_bool(raw.get("heavy", False), f"{field}.heavy"),
        bipod=_bool(raw.get("bipod", False), f"{field}.bipod"),
        pen_mov=_bool(raw.get("pen_mov", False), f"{field}.pen_mov"),
        min_str=None if min_str is None else _die(min_str, f"{field}.min_str"),
    )


_SHEET_FIELDS: Final = frozenset(
    {
        "wild_card",
        "side",
        "group",
        "leader",
        "attributes",
        "skills",
        "pace",
        "armor",
        "toughness",
        "parry",
        "bennies",
        "edges",
        "weapons",
    }
)


_PARSED: Final[dict[int, tuple[Any, Sheet]]] = {}
"""Parsed sheets by the identity of their raw mapping (held): ``by_identity``'s table and rule,
looked up in :func:`parse_sheet` itself so compiled callers call it natively."""
PARSED_SIZE: Final = 256


def parse_sheet(raw: JsonMap) -> Sheet:
    """The sheet of ``raw``, parsed once per raw mapping object (sheets are never changed:
    a new sheet is a new object): :func:`rules.memo.by_identity`'s memo, written out."""
    hit = _PARSED.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    return remember_by_identity(_PARSED, raw, _parse_sheet(raw), PARSED_SIZE)


def _parse_sheet(raw: JsonMap) -> Sheet:
    if not isinstance(raw, Mapping):
        raise _problem("a sheet must be an object", "sheet")
    unknown = set(raw) - _SHEET_FIELDS
    if unknown:
        raise _problem(f"unknown sheet fields {sorted(map(str, unknown))[:3]}", "sheet")
    attrs_raw = _mapping(raw.get("attributes"), "sheet.attributes")
    for key in attrs_raw:
        if key not in ATTRIBUTES:
            raise _problem(f"sheet.attributes has no {key}", f"sheet.attributes.{key}")
    attributes = {key: _die(attrs_raw.get(key), f"sheet.attributes.{key}") for key in ATTRIBUTES}
    skills = {
        key: _skill(key, value, f"sheet.skills.{key}")
        for key, value in _mapping(raw.get("skills", {}), "sheet.skills").items()
    }
    wild = _bool(raw.get("wild_card", True), "sheet.wild_card")
    weapons_raw = raw.get("weapons", [])
    if not isinstance(weapons_raw, list) or len(weapons_raw) > 30:
        raise _problem("sheet.weapons must be a list of at most 30 weapons", "sheet.weapons")
    weapons = tuple(_weapon(w, f"sheet.weapons.{i}") for i, w in enumerate(weapons_raw))
    if len({w.id for w in weapons}) != len(weapons):
        raise _problem("two weapons share an id", "sheet.weapons")
    edges_raw = raw.get("edges", [])
    if not isinstance(edges_raw, list):
        raise _problem("sheet.edges must be a list", "sheet.edges")
    edges = tuple(_choice(e, f"sheet.edges.{i}", EDGES) for i, e in enumerate(edges_raw))
    group, leader = raw.get("group"), raw.get("leader")
    toughness, parry = raw.get("toughness"), raw.get("parry")
    return Sheet(
        wild_card=wild,
        side=_choice(raw.get("side", "heroes"), "sheet.side", SIDES),
        group=None if group is None else _slug(group, "sheet.group"),
        leader=None if leader is None else _text(leader, "sheet.leader", 100),
        attributes=attributes,
        skills=skills,
        pace=_int(raw.get("pace", 6), "sheet.pace", 1, 100),
        armor=_int(raw.get("armor", 0), "sheet.armor", 0, 100),
        toughness_override=None
        if toughness is None
        else _int(toughness, "sheet.toughness", 1, 100),
        parry_override=None if parry is None else _int(parry, "sheet.parry", 0, 100),
        bennies=_int(raw.get("bennies", 3 if wild else 0), "sheet.bennies", 0, 100),
        edges=edges,
        weapons=weapons,
    )


def _weapon_json(w: Weapon) -> dict[str, Any]:
    return {
        "id": w.id,
        "name": w.name,
        "kind": w.kind,
        "damage": w.damage,
        "rof": w.rof,
        "shots": w.shots,
        "magazines": w.magazines,
        "reload": w.reload,
        "ap": w.ap,
        "area": w.area,
        "heavy": w.heavy,
        "bipod": w.bipod,
        "pen_mov": w.pen_mov,
        "min_str": w.min_str,
    }


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    data: dict[str, Any] = {
        "wild_card": sheet.wild_card,
        "side": sheet.side,
        "attributes": dict(sheet.attributes),
        "skills": {
            k: {"die": s.die, "modifier": s.modifier, "label": s.label}
            for k, s in sheet.skills.items()
        },
        "pace": sheet.pace,
        "armor": sheet.armor,
        "bennies": sheet.bennies,
        "edges": list(sheet.edges),
        "weapons": [_weapon_json(w) for w in sheet.weapons],
    }
    optional = {
        "group": sheet.group,
        "leader": sheet.leader,
        "toughness": sheet.toughness_override,
        "parry": sheet.parry_override,
    }
    data.update({k: v for k, v in optional.items() if v is not None})
    return data
