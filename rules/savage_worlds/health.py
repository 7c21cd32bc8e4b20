"""Damage, Shaken, Wounds, incapacitation, the Injury Table, soak and Bleeding Out.

Functions here read and write a :class:`Draft` and return the dice they rolled
and the card lines that explain them; the action modules build the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Line, t
from rules.records import fast_init
from rules.rolls import parse_expression, roll_die, roll_expression
from rules.savage_worlds.shared import line
from rules.savage_worlds.sheet import Sheet, Weapon
from rules.savage_worlds.state import Draft, drop_hold, is_held, wound_penalty
from rules.savage_worlds.tables import (
    DEATH_AT_MOST,
    INJURY_DETAIL,
    INJURY_TABLE,
    JOKER_BONUS,
    MAX_WOUNDS,
    RAISE,
    TEMPORARY_INJURY_HOURS,
    injury_from,
    parse_injury_table,
)
from rules.savage_worlds.traits import (
    Modifier,
    TraitResult,
    roll_trait_check,
    situation_modifiers,
    trait_die,
)


@fast_init
@dataclass(frozen=True)
class DamageRoll:
    dice: tuple[Die, ...]
    bonus: int

    @property
    def total(self) -> int:
        return sum(d.total for d in self.dice) + self.bonus


def roll_damage(
    dice: DiceSource, weapon: Weapon, strength: int, *, raise_: bool, joker: bool
) -> DamageRoll:
    """Ranged: the weapon's dice; melee: Strength die + weapon die; unarmed: Strength.

    'Todas las tiradas de daño pueden explotar'; a raise adds +1d6 (also exploding);
    the Joker adds +2. No wild die and no bennies on damage.
    """
    rolled: list[Die] = []
    bonus = 0
    if weapon.kind == "melee":
        rolled.append(roll_die(dice, strength, "strength", explode=True))
    if weapon.damage:
        expression = parse_expression(weapon.damage, explode=True)
        rolled.extend(roll_expression(dice, expression, "damage").dice)
        bonus += expression.modifier
    if raise_:
        rolled.append(roll_die(dice, 6, "raise", explode=True))
    if joker:
        bonus += JOKER_BONUS
    return DamageRoll(tuple(rolled), bonus)


def effective_toughness(sheet: Sheet, ap: int) -> int:
    """Armour Piercing lowers only the armour part of Toughness."""
    return sheet.toughness - min(ap, sheet.armor)


@fast_init
@dataclass(frozen=True)
class DamageResult:
    """'Éxito: aturdida. Si ya lo estaba, sufrirá una herida' — 'Aumento: una herida por cada'."""

    damage: int
    toughness: int
    wounds: int
    shaken: bool
    from_shaken: bool

    @property
    def margin(self) -> int:
        return self.damage - self.toughness


def compare(damage: int, toughness: int, already_shaken: bool) -> DamageResult:
    margin = damage - toughness
    if margin < 0:
        return DamageResult(damage, toughness, 0, False, False)
    raises = margin // RAISE
    if raises:
        return DamageResult(damage, toughness, raises, True, False)
    if already_shaken:
        return DamageResult(damage, toughness, 1, True, True)
    return DamageResult(damage, toughness, 0, True, False)


# -- soak -----------------------------------------------------------------------
def soak_roll(
    draft: Draft, actor_id: str, dice: DiceSource, settings: Mapping[str, Any]
) -> TraitResult:
    """A Vigor roll; the pending wounds' penalty does not count (they are not applied yet)."""
    sheet = draft.sheet(actor_id)
    vigor = trait_die(sheet, draft.state(actor_id), "vigor", settings, "actor")
    return roll_trait_check(
        dice,
        vigor,
        wild_card=sheet.wild_card,
        modifiers=situation_modifiers(draft, actor_id, sheet),
        role="soak",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )


def soaked_by(result: TraitResult) -> int:
    return 1 + result.raises if result.success else 0


# -- applying a hit -------------------------------------------------------------
@dataclass
class Applied:
    dice: list[Die]
    lines: list[Line]


def apply_hit(
    draft: Draft,
    actor_id: str,
    wounds: int,
    shaken: bool,
    soaked_all: bool,
    dice: DiceSource,
    settings: Mapping[str, Any],
) -> Applied:
    """Fold one resolved hit into the victim: Shaken, Wounds, incapacitation and its roll."""
    out = Applied([], [])
    sheet = draft.sheet(actor_id)
    name = draft.actor(actor_id).name
    if soaked_all:
        draft.remove(actor_id, "stunned")
        out.lines.append(line("line.soaked_all", actor=name))
        return out
    if wounds <= 0 and not shaken:
        out.lines.append(line("line.no_effect", actor=name))
        return out
    was_held = is_held(draft, actor_id)
    if wounds > 0 and not sheet.wild_card:
        # 'Los Extras heridos quedan fuera de juego'.
        draft.add(actor_id, "incapacitated")
        drop_hold(draft, actor_id)
        draft.remove(actor_id, "joker", "stunned")
        out.lines.append(line("line.extra_out", actor=name))
        return out
    draft.add(actor_id, "stunned")
    if wounds <= 0:
        out.lines.append(line("line.now_shaken", actor=name))
    else:
        total = int(draft.read(actor_id, "wounds", 0)) + wounds
        draft.put(actor_id, wounds=min(total, MAX_WOUNDS))
        draft.add(actor_id, "wounded")
        out.lines.append(line("line.wounds_now", actor=name, wounds=min(total, MAX_WOUNDS)))
        if total > MAX_WOUNDS:
            incapacitate(draft, actor_id, dice, settings, out)
            return out
    if was_held:
        # 'Un personaje en espera que quede aturdido ... deja de estar en espera'.
        drop_hold(draft, actor_id)
        out.lines.append(line("line.hold_lost", actor=name))
    return out


def injury_table(settings: Mapping[str, Any]) -> tuple[tuple[int, int, str], ...]:
    """The world's ``injury_table`` setting when given (validated with the settings), else the
    default."""
    text = str(settings.get("injury_table", "") or "")
    return (parse_injury_table(text) if text else None) or INJURY_TABLE


def roll_injury(
    dice: DiceSource, table: tuple[tuple[int, int, str], ...] = INJURY_TABLE
) -> tuple[str, list[Die]]:
    first = roll_die(dice, 6, "injury")
    second = roll_die(dice, 6, "injury")
    key = injury_from(table, first.total + second.total)
    rolled = [first, second]
    if key in INJURY_DETAIL:
        detail = roll_die(dice, 6, "injury_detail")
        rolled.append(detail)
        key = injury_from(INJURY_DETAIL[key], detail.total)
    return key, rolled


def incapacitate(
    draft: Draft, actor_id: str, dice: DiceSource, settings: Mapping[str, Any], out: Applied
) -> None:
    """'debiendo hacer una tirada de Vigor inmediatamente' (with the three wounds' penalty)."""
    name = draft.actor(actor_id).name
    draft.add(actor_id, "incapacitated")
    drop_hold(draft, actor_id)
    sheet = draft.sheet(actor_id)
    vigor = trait_die(sheet, draft.state(actor_id), "vigor", settings, "actor")
    roll = roll_trait_check(
        dice,
        vigor,
        wild_card=sheet.wild_card,
        modifiers=(Modifier("wounds", wound_penalty(sheet, draft.state(actor_id))),),
        role="vigor",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    out.dice.extend(roll.dice)
    out.lines.append(Line(t("line.incap_roll", actor=name, total=roll.total)))
    if roll.total <= DEATH_AT_MOST:
        draft.add(actor_id, "dead")
        draft.remove(actor_id, "bleeding")
        out.lines.append(Line(t("line.dies", actor=name)))
        return
    key, rolled = roll_injury(dice, injury_table(settings))
    out.dice.extend(rolled)
    if not roll.success:
        lasting, extra = "permanent", None
        draft.add(actor_id, "bleeding")
        out.lines.append(Line(t("line.bleeding_starts", actor=name)))
    elif roll.raises:
        lasting, extra = "24h", TEMPORARY_INJURY_HOURS
    else:
        lasting, extra = "until_healed", None
    injuries = list(draft.get(actor_id, "injuries", []))
    injury: dict[str, Any] = {"key": key, "lasting": lasting}
    if extra is not None:
        injury["hours_left"] = extra
    injuries.append(injury)
    draft.put(actor_id, injuries=injuries)
    out.lines.append(
        Line(t("line.injury", injury=t(f"injury.{key}"), lasting=t(f"lasting.{lasting}")))
    )


# -- Bleeding Out -----------------------------------------------------------------
def bleed_check(
    draft: Draft, actor_id: str, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[TraitResult, str]:
    """One Bleeding Out roll: 'Fallo: muere ... Éxito: vuelve a tirar ... Aumento: se estabiliza'."""
    sheet = draft.sheet(actor_id)
    vigor = trait_die(sheet, draft.state(actor_id), "vigor", settings, "actor")
    roll = roll_trait_check(
        dice,
        vigor,
        wild_card=sheet.wild_card,
        modifiers=situation_modifiers(draft, actor_id, sheet, joker=False),
        role="bleeding",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    if not roll.success:
        draft.add(actor_id, "dead")
        draft.remove(actor_id, "bleeding")
        return roll, "dies"
    if roll.raises:
        draft.remove(actor_id, "bleeding")
        return roll, "stable"
    return roll, "continues"


def heal_all_wounds_clears(draft: Draft, actor_id: str) -> None:
    """Injuries lasting 'hasta que se hayan curado todas las heridas' go with the last wound."""
    injuries = [
        i
        for i in draft.get(actor_id, "injuries", [])
        if isinstance(i, Mapping) and i.get("lasting") == "permanent"
    ]
    draft.put(actor_id, injuries=injuries)
