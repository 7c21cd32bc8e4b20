"""Damage: location, the weapon's roll, the damage bonus, armour, and the wound level it makes.

'Siempre que no se intente atacar a una localización en concreto, ésta se determinará al azar
tirando 1d10'. 'En combate, el crítico implica que el arma empleada hace su daño máximo e
ignora además cualquier armadura.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.brp_d10.sheet import Sheet, Weapon
from rules.brp_d10.tables import DAMAGE_BONUS_BY_FUERZA, HIT_LOCATION_D10, LOCATIONS
from rules.brp_d10.wounds import wound_level
from rules.dice import DiceSource, Die
from rules.model import RulesError, t
from rules.rolls import roll_die, roll_expression


def hit_location_table(settings: Mapping[str, Any]) -> Mapping[int, str]:
    """The world's ``hit_locations`` (ten location keys, faces 1-10, comma separated) or the
    default table (R23)."""
    raw = str(settings.get("hit_locations", "") or "")
    if not raw:
        return HIT_LOCATION_D10
    names = [part.strip() for part in raw.split(",")]
    if len(names) != 10 or any(name not in LOCATIONS for name in names):
        raise RulesError(
            "bad_table",
            t("error.bad_table", table="hit_locations", problem="10 locations"),
            "settings.hit_locations",
        )
    return dict(enumerate(names, start=1))


def damage_bonus_table(settings: Mapping[str, Any]) -> Mapping[int, int]:
    """The world's ``damage_bonus`` (ten whole numbers for Fuerza 1-10) or the default (R24)."""
    raw = str(settings.get("damage_bonus", "") or "")
    if not raw:
        return DAMAGE_BONUS_BY_FUERZA
    try:
        values = [int(part.strip()) for part in raw.split(",")]
    except ValueError:
        values = []
    if len(values) != 10 or any(abs(v) > 20 for v in values):
        raise RulesError(
            "bad_table",
            t("error.bad_table", table="damage_bonus", problem="10 numbers"),
            "settings.damage_bonus",
        )
    return dict(enumerate(values, start=1))


def damage_bonus(fuerza: int, settings: Mapping[str, Any] | None = None) -> int:
    return damage_bonus_table(settings or {})[max(1, min(10, fuerza))]


def uses_damage_bonus(weapon: Weapon, settings: Mapping[str, Any]) -> bool:
    """'El modificador al daño de cada personaje se suma a la tirada de daño de las armas
    blancas' -- thrown weapons too only when the world says so."""
    if weapon.kind in ("melee", "shield"):
        return True
    return weapon.kind == "thrown" and bool(settings.get("damage_bonus_thrown", False))


@dataclass(frozen=True)
class Hit:
    """One bullet or blow that landed: where, the dice, the damage and the wound level."""

    location: str
    aimed: bool
    location_die: Die | None
    damage_dice: tuple[Die, ...]
    rolled: int
    bonus: int
    armour: int
    critical: bool
    level: int

    @property
    def damage(self) -> int:
        return max(0, self.rolled + self.bonus - (0 if self.critical else self.armour))

    @property
    def dice(self) -> tuple[Die, ...]:
        return (() if self.location_die is None else (self.location_die,)) + self.damage_dice


def roll_hit(
    dice: DiceSource,
    weapon: Weapon,
    attacker_fuerza: int,
    target: Sheet,
    target_resistencia: int,
    *,
    location: str | None,
    critical: bool,
    settings: Mapping[str, Any],
) -> Hit:
    location_die = None
    if location is None:
        location_die = roll_die(dice, 10, "location")
        location = hit_location_table(settings)[location_die.first]
    bonus = damage_bonus(attacker_fuerza, settings) if uses_damage_bonus(weapon, settings) else 0
    if critical:
        damage_dice: tuple[Die, ...] = ()
        rolled = weapon.damage.maximum_without_aces
    else:
        expression_roll = roll_expression(dice, weapon.damage, "damage")
        damage_dice = expression_roll.dice
        rolled = expression_roll.total
    armour = target.armour.get(location, 0)
    net = max(0, rolled + bonus - (0 if critical else armour))
    level = wound_level(net, target_resistencia, settings)
    return Hit(
        location,
        location_die is None,
        location_die,
        damage_dice,
        rolled,
        bonus,
        armour,
        critical,
        level,
    )
