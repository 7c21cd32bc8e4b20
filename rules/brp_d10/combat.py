"""Attacks: melee blows, single shots, bursts and sustained fire, as pure functions of a sheet,
its state, the attack's parameters and the dice. Refusals raise RulesError with stable codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.brp_d10.checks import AttackCheck, burst_hits, roll_attack, sustained_bullets
from rules.brp_d10.initiative import max_weapon_actions, tenth, weapon_agilities
from rules.brp_d10.modifiers import Mod, common, melee, ranged, total
from rules.brp_d10.sheet import Sheet, Skill, Weapon
from rules.brp_d10.state import ActorState, RoundUse, characteristic
from rules.brp_d10.tables import ACCUMULATION_PER_ACTION, SPRAY_RANGE_MODIFIER, SPRAY_SIZE
from rules.brp_d10.wounds import total_penalty
from rules.dice import DiceSource, Die
from rules.model import RulesError, t
from rules.rolls import roll_die


@dataclass(frozen=True)
class Roll:
    """One roll of an attack: when it lands, its modifiers, the check and the bullets that hit."""

    agility: int
    mods: tuple[Mod, ...]
    attack: AttackCheck | None
    """None for an automatic hit (from behind or by surprise)."""
    fired: int = 1
    hits: int = 0
    spray_die: Die | None = None
    burst: tuple[bool, ...] = ()

    @property
    def tenth(self) -> int:
        return tenth(self.agility)

    @property
    def difficulty(self) -> int:
        return total(self.mods)

    @property
    def critical(self) -> bool:
        return self.attack is not None and self.attack.critical and self.hits > 0

    @property
    def level(self) -> int | None:
        return None if self.attack is None else self.attack.check.level

    @property
    def dice(self) -> tuple[Die, ...]:
        rolled = () if self.attack is None else self.attack.dice
        return rolled + (() if self.spray_die is None else (self.spray_die,))


@dataclass(frozen=True)
class Attack:
    weapon: Weapon
    skill: Skill
    mode: str
    """'melee', 'single', 'burst' or 'sustained'."""
    rolls: tuple[Roll, ...]
    state: ActorState
    """The attacker's state after the attack (round use, ammunition, aim spent)."""
    wasted: int = 0
    ammo_left: int | None = None

    @property
    def hits(self) -> int:
        return sum(r.hits for r in self.rolls)

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(d for r in self.rolls for d in r.dice)


def refuse(code: str, field: str | None = None, **params: Any) -> RulesError:
    return RulesError(code, t(f"error.{code}", **params), field)


def usable_skill(sheet: Sheet, key: str) -> Skill:
    skill = sheet.skills.get(key)
    if skill is None:
        raise refuse("no_such_skill", "params.skill", skill=key)
    if skill.value == 0:
        # 'siendo 0 un desconocimiento total de la misma que impide usarla'
        raise refuse("skill_unusable", "params.skill", skill=skill.label)
    return skill


def get_weapon(sheet: Sheet, key: str, field: str = "params.weapon") -> Weapon:
    weapon = sheet.weapons.get(key)
    if weapon is None:
        raise refuse("no_such_weapon", field, weapon=key)
    return weapon


def accumulation(state: ActorState, offset: int, chosen: int | None) -> int:
    if chosen is not None and offset == 0:
        return chosen
    return (state.round.actions + offset) * ACCUMULATION_PER_ACTION


def weapon_action_agility(agility: int, weapon: Weapon, used: int) -> int:
    """Agilidad of the next action with a weapon that is not automatic (the split table)."""
    count = max_weapon_actions(agility, weapon.actions)
    split = weapon_agilities(agility, count) if count else None
    if split is None or used >= len(split):
        raise refuse("too_many_actions", "params.weapon", weapon=weapon.label, most=count)
    return split[used]


def check_round(state: ActorState, agility: int, new_actions: int) -> None:
    if state.round.busy:
        raise refuse("round_spent", "actor")
    if state.round.actions + new_actions > agility:
        # 'la característica de Agilidad indica la cantidad de acciones que se pueden llevar a
        # cabo por asalto'
        raise refuse("too_many_actions_agility", "params", most=agility)


def resolve_attack(
    sheet: Sheet,
    state: ActorState,
    params: Mapping[str, Any],
    settings: Mapping[str, Any],
    target_id: str,
    dice: DiceSource,
) -> Attack:
    weapon = get_weapon(sheet, str(params.get("weapon", "")))
    skill = usable_skill(sheet, weapon.skill)
    agility = characteristic(sheet, state, "agilidad")
    penalty = total_penalty(state)
    extra = int(params.get("difficulty", 0))
    chosen = params.get("accumulation")
    chosen_acc = int(chosen) if chosen is not None else None
    needs_hit = bool(settings.get("critical_needs_hit", True))
    if params.get("drawn") and not weapon.draw_and_use:
        # 'los arcos y hondas no pueden estar enfundados y cargados'
        raise refuse("cannot_draw_and_use", "params.drawn", weapon=weapon.label)
    if weapon.kind in ("melee", "shield"):
        return _melee(
            state, weapon, skill, agility, penalty, extra, chosen_acc, params, dice, needs_hit
        )
    if params.get("surprise"):
        raise refuse("surprise_melee_only", "params.surprise")
    mode = str(params.get("mode", "single"))
    allowed = weapon.modes or ("single",)
    if mode not in allowed:
        raise refuse("fire_mode_unavailable", "params.mode", weapon=weapon.label, mode=mode)
    aim = state.aim_rounds if state.aim_weapon == weapon.key else 0
    state = replace(state, aim_weapon="", aim_rounds=0)
    sustained_range = str(settings.get("sustained_range", "replace"))
    base_mods = ranged(
        params, weapon, aim, sustained=mode == "sustained", sustained_range=sustained_range
    )
    ammo = state.ammo.get(weapon.key) if weapon.magazine else None
    if ammo is not None and ammo <= 0:
        raise refuse("no_ammo", "params.weapon", weapon=weapon.label)
    if mode == "single":
        return _single(
            state,
            weapon,
            skill,
            agility,
            penalty,
            extra,
            chosen_acc,
            base_mods,
            ammo,
            params,
            dice,
            needs_hit,
        )
    check_round(state, agility, 1)
    if mode == "burst":
        if state.round.bursts:
            # 'sólo se puede disparar una ráfaga por asalto'
            raise refuse("one_burst_per_round", "params.mode")
        fired = weapon.burst if ammo is None else min(weapon.burst, ammo)
        mods = base_mods + common(penalty, accumulation(state, 0, chosen_acc), extra)
        attack = roll_attack(dice, skill.value, total(mods), critical_needs_hit=needs_hit)
        face = attack.check.face or 1
        pattern = burst_hits(skill.value, total(mods), face, fired)
        roll = Roll(agility - state.round.shots, mods, attack, fired, sum(pattern), burst=pattern)
        use = replace(state.round.used(weapon.key), bursts=state.round.bursts + 1)
        left = None if ammo is None else ammo - fired
        return _done(state, weapon, skill, "burst", (roll,), use, left)
    return _sustained(
        state,
        weapon,
        skill,
        agility,
        penalty,
        extra,
        chosen_acc,
        base_mods,
        ammo,
        params,
        target_id,
        dice,
        needs_hit,
    )


def _done(
    state: ActorState,
    weapon: Weapon,
    skill: Skill,
    mode: str,
    rolls: tuple[Roll, ...],
    use: RoundUse,
    ammo_left: int | None,
    wasted: int = 0,
) -> Attack:
    ammo = dict(state.ammo)
    if ammo_left is not None:
        ammo[weapon.key] = ammo_left
    new_state = replace(state, round=use, ammo=ammo)
    return Attack(weapon, skill, mode, rolls, new_state, wasted, ammo_left)


def _melee(
    state: ActorState,
    weapon: Weapon,
    skill: Skill,
    agility: int,
    penalty: int,
    extra: int,
    chosen: int | None,
    params: Mapping[str, Any],
    dice: DiceSource,
    needs_hit: bool,
) -> Attack:
    check_round(state, agility, 1)
    when = weapon_action_agility(agility, weapon, state.round.weapons.get(weapon.key, 0))
    mods = melee(params) + common(penalty, accumulation(state, 0, chosen), extra)
    state = replace(state, aim_weapon="", aim_rounds=0)
    if params.get("surprise"):
        # 'Si el blanco recibe el ataque por la espalda o por sorpresa, será un impacto automático'
        roll = Roll(when, mods, None, 1, 1)
    else:
        attack = roll_attack(dice, skill.value, total(mods), critical_needs_hit=needs_hit)
        roll = Roll(when, mods, attack, 1, 1 if attack.hit else 0)
    return _done(state, weapon, skill, "melee", (roll,), state.round.used(weapon.key), None)


def _single(
    state: ActorState,
    weapon: Weapon,
    skill: Skill,
    agility: int,
    penalty: int,
    extra: int,
    chosen: int | None,
    base_mods: tuple[Mod, ...],
    ammo: int | None,
    params: Mapping[str, Any],
    dice: DiceSource,
    needs_hit: bool,
) -> Attack:
    shots = int(params.get("shots", 1))
    check_round(state, agility, shots)
    if ammo is not None and shots > ammo:
        raise refuse("not_enough_ammo", "params.shots", weapon=weapon.label, left=ammo)
    rolls: list[Roll] = []
    if weapon.automatic:
        most = min(agility, weapon.rate) if weapon.rate else agility
        if state.round.shots + shots > most:
            raise refuse("too_many_actions", "params.shots", weapon=weapon.label, most=most)
        agilities = [agility - state.round.shots - i for i in range(shots)]
    else:
        used = state.round.weapons.get(weapon.key, 0)
        agilities = [weapon_action_agility(agility, weapon, used + i) for i in range(shots)]
    for index, when in enumerate(agilities):
        mods = base_mods + common(penalty, accumulation(state, index, chosen), extra)
        attack = roll_attack(dice, skill.value, total(mods), critical_needs_hit=needs_hit)
        rolls.append(Roll(when, mods, attack, 1, 1 if attack.hit else 0))
    use = state.round
    for _ in range(shots):
        use = use.used(weapon.key, shots=1 if weapon.automatic else 0)
    left = None if ammo is None else ammo - shots
    return _done(state, weapon, skill, "single", tuple(rolls), use, left)


def _sustained(
    state: ActorState,
    weapon: Weapon,
    skill: Skill,
    agility: int,
    penalty: int,
    extra: int,
    chosen: int | None,
    base_mods: tuple[Mod, ...],
    ammo: int | None,
    params: Mapping[str, Any],
    target_id: str,
    dice: DiceSource,
    needs_hit: bool,
) -> Attack:
    wanted = int(params.get("bullets", 0)) or weapon.sustained
    if wanted > weapon.sustained:
        raise refuse(
            "too_many_bullets", "params.bullets", weapon=weapon.label, most=weapon.sustained
        )
    previous = state.round.sustained_target
    # 'Si durante el fuego sostenido se cambia de blanco, se pierde una bala en el cambio.'
    wasted = 1 if previous and previous != target_id else 0
    available = wanted if ammo is None else min(wanted, ammo)
    fired_total = max(0, available - wasted)
    if fired_total <= 0:
        raise refuse("no_ammo", "params.weapon", weapon=weapon.label)
    sprays = [SPRAY_SIZE] * (fired_total // SPRAY_SIZE)
    if fired_total % SPRAY_SIZE:
        sprays.append(fired_total % SPRAY_SIZE)
    band = str(params.get("range", "medium"))
    acc = accumulation(state, 0, chosen)
    rolls: list[Roll] = []
    for index, spray in enumerate(sprays):
        mods = base_mods
        if index > 0 or previous:
            mods = (*mods, Mod(f"spray_{band}", SPRAY_RANGE_MODIFIER[band]))
        # 'no se aplica el +1 a la dificultad por acumulación de acciones' between sprays
        mods = mods + common(penalty, acc, extra)
        attack = roll_attack(dice, skill.value, total(mods), critical_needs_hit=needs_hit)
        spray_die = roll_die(dice, 10, "spray_hits") if attack.hit else None
        hits = sustained_bullets(spray_die.first, spray) if spray_die else 0
        when = max(1, agility - state.round.shots - index)
        rolls.append(Roll(when, mods, attack, spray, hits, spray_die))
    use = state.round.used(weapon.key, shots=len(sprays))
    use = replace(use, sustained_target=target_id)
    left = None if ammo is None else ammo - fired_total - wasted
    return _done(state, weapon, skill, "sustained", tuple(rolls), use, left, wasted)
