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
from rules.brp_d10.tables import DAMAGE_BONUS_BY_FUERZA, HIT_LOCATION_D10
from rules.brp_d10.wounds import wound_level
from rules.dice import DiceSource, Die
from rules.rolls import roll_die, roll_expression


def damage_bonus(fuerza: int) -> int:
    return DAMAGE_BONUS_BY_FUERZA[max(1, min(10, fuerza))]


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
        location = HIT_LOCATION_D10[location_die.first]
    bonus = damage_bonus(attacker_fuerza) if uses_damage_bonus(weapon, settings) else 0
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
