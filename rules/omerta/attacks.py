"""What every attack shares: the firearm options as modifiers, validation before any die,
the attack roll, the attacker's state after it (action, shots, ammunition, a jam) and its card.
Single attacks are in :mod:`rules.omerta.single`, Thompson modes in :mod:`rules.omerta.thompson`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Actor,
    Card,
    FollowUp,
    Line,
    RulesError,
    Section,
    t,
)
from rules.omerta.checks import Check, roll_check
from rules.omerta.combat import (
    Ctx,
    Modifier,
    check_lines,
    outcome_of,
    skill_label,
    spend_action,
    total,
)
from rules.omerta.hits import shotgun_expression
from rules.omerta.sheet import Weapon
from rules.omerta.state import counters
from rules.omerta.tables import (
    AIM_BONUS,
    BLIND_FIRE_PENALTY,
    DODGE_SHOOTOUT_PENALTY,
    EMPTY_MIN_FRACTION,
    FAST_TARGET_M,
    FAST_TARGET_PENALTY,
    PRECISE_MIN,
    SHORT_BURST_BULLETS,
    TARGET_CHANGE_PENALTY,
    THOMPSON_MODES,
)

MODES: tuple[str, ...] = ("single", *THOMPSON_MODES)


def aim_rounds(ctx: Ctx, target: str, weapon: Weapon) -> int:
    aim = ctx.actor.state.get("aim")
    if not isinstance(aim, Mapping) or aim.get("target") != target:
        return 0
    if aim.get("weapon") != weapon.key:
        return 0
    return max(0, ctx.now.round - int(aim.get("since", ctx.now.round)))


def aim_bonus(rounds: int) -> int:
    best = 0
    for needed, bonus in AIM_BONUS.items():
        if rounds >= needed:
            best = max(best, bonus)
    return best


def target_modifiers(
    ctx: Ctx, weapon: Weapon, target: Actor, params: Mapping[str, Any], *, first: bool = True
) -> tuple[Modifier, ...]:
    """The firearm options and what the target does ('todos los modificadores son acumulativos')."""
    found: list[Modifier] = []
    last = ctx.rounds.last_target
    if first and last is not None and last != target.id:
        found.append(Modifier("target_change", -TARGET_CHANGE_PENALTY))
    if first and weapon.firearm:
        bonus = aim_bonus(aim_rounds(ctx, target.id, weapon))
        if bonus:
            found.append(Modifier("aimed", bonus))
    if params.get("blind"):
        found.append(Modifier("blind", -BLIND_FIRE_PENALTY))
    precise = int(params.get("precise", 0))
    if precise:
        found.append(Modifier("precise", -precise))
    if weapon.ranged:
        their = counters(target, ctx.now)
        if their.dodging:
            found.append(Modifier("target_dodging", -DODGE_SHOOTOUT_PENALTY))
        if params.get("target_fast") or their.sprint >= FAST_TARGET_M:
            found.append(Modifier("target_fast", -FAST_TARGET_PENALTY))
    return tuple(found)


def _refuse(code: str, field: str, **params: Any) -> RulesError:
    return RulesError(code, t(f"error.{code}", **params), field)


def validate_attack(
    ctx: Ctx, weapon: Weapon, params: Mapping[str, Any], targets: tuple[Actor, ...]
) -> str:
    """Every refusal an attack can meet before any die is rolled; returns the mode."""
    mode = str(params.get("mode", "single"))
    name = weapon.label
    if weapon.thompson and mode == "single":
        raise _refuse("thompson_mode_required", "params.mode", weapon=name)
    if mode != "single" and not weapon.thompson:
        raise _refuse("mode_not_available", "params.mode", weapon=name)
    precise = int(params.get("precise", 0))
    if precise and not weapon.firearm:
        raise _refuse("precise_firearm_only", "params.precise", weapon=name)
    if precise and precise < PRECISE_MIN:
        raise _refuse("precise_too_small", "params.precise", minimum=PRECISE_MIN)
    if weapon.thompson and precise:
        raise _refuse("thompson_no_precise", "params.precise", weapon=name)
    if weapon.thompson and isinstance(ctx.actor.state.get("aim"), Mapping):
        raise _refuse("thompson_no_aim", "params.mode", weapon=name)
    if params.get("blind") and not weapon.firearm:
        raise _refuse("blind_firearm_only", "params.blind", weapon=name)
    if params.get("location") is not None and (
        weapon.type != "rifle" or not targets or aim_rounds(ctx, targets[0].id, weapon) < 2
    ):
        raise _refuse("location_needs_aimed_rifle", "params.location")
    if mode in ("single", "concentrated", "short_burst") and len(targets) != 1:
        raise _refuse("one_target_only", "targets")
    for index, target in enumerate(targets):
        if target.id == ctx.actor.id:
            raise _refuse("self_target", f"targets.{index}")
        if "dead" in target.statuses:
            raise _refuse("target_dead", f"targets.{index}", actor=target.name)
    jam = ctx.actor.state.get("jams", {}).get(weapon.key)
    if isinstance(jam, Mapping):
        ready = jam.get("ready_at")
        if ready is None:
            raise _refuse("weapon_jammed", "params.weapon", weapon=name)
        if ctx.now.time < int(ready):
            raise _refuse("jam_clearing", "params.weapon", weapon=name)
    if weapon.shotgun:
        shotgun_expression(weapon, params.get("range_m"))
    if weapon.counted:
        loaded = loaded_of(ctx, weapon)
        if loaded <= 0:
            raise _refuse("no_ammo", "params.weapon", weapon=name)
    if weapon.firearm:
        loaded = loaded_of(ctx, weapon)
        if loaded <= 0:
            raise _refuse("no_ammo", "params.weapon", weapon=name)
        if mode == "short_burst" and loaded < SHORT_BURST_BULLETS:
            raise _refuse("not_enough_ammo", "params.mode", weapon=name, needed=SHORT_BURST_BULLETS)
        half_num, half_den = EMPTY_MIN_FRACTION
        if mode == "empty" and loaded * half_den < weapon.capacity * half_num:
            raise _refuse("magazine_below_half", "params.mode", weapon=name)
        if ctx.rounds.shots_of(weapon.key) >= weapon.shots:
            raise _refuse("shot_limit", "params.weapon", weapon=name, shots=weapon.shots)
    return mode


def loaded_of(ctx: Ctx, weapon: Weapon) -> int:
    return int(ctx.actor.state.get("ammo", {}).get(weapon.key, 0))


def attacker_state(
    ctx: Ctx, weapon: Weapon, check: Check | None, target: str | None, spent: int
) -> tuple[dict[str, Any], frozenset[str], frozenset[str], tuple[Line, ...]]:
    """The attacker's state after the attack: action, shots, ammo, aim used, a jam."""
    state = spend_action(ctx, target=target, weapon=weapon.key, shots=1 if weapon.firearm else 0)
    state["aim"] = None
    add: set[str] = set()
    lines: list[Line] = []
    if weapon.counted:
        ammo = dict(ctx.actor.state.get("ammo", {}))
        ammo[weapon.key] = max(0, int(ammo.get(weapon.key, 0)) - spent)
        state["ammo"] = ammo
        lines.append(
            Line(t("line.ammo", weapon=weapon.label), f"{ammo[weapon.key]}/{weapon.capacity}")
        )
    if weapon.firearm and check is not None and check.fumble:
        jams = dict(ctx.actor.state.get("jams", {}))
        jams[weapon.key] = {"ready_at": None}
        state["jams"] = jams
        add.add("jammed")
        lines.append(Line(t("line.jammed", weapon=weapon.label)))
    elif check is not None and check.fumble:
        lines.append(Line(t("line.fumble_don")))
    return state, frozenset(add), frozenset({"aiming"}), tuple(lines)


def attack_check(
    ctx: Ctx,
    weapon: Weapon,
    mods: tuple[Modifier, ...],
    dice: DiceSource,
    params: Mapping[str, Any],
) -> Check:
    if params.get("blind") and not params.get("blind_idea", True):
        return Check(ctx.sheet.skill(weapon.skill), total(mods), None, "failure", (), "failure")
    return roll_check(
        dice,
        ctx.sheet.skill(weapon.skill),
        total(mods),
        role="attack",
        fumble_on_base=str(ctx.settings.get("fumble_range", "modified")) == "base",
    )


def attack_card(
    ctx: Ctx,
    weapon: Weapon,
    check: Check | None,
    mods: tuple[Modifier, ...],
    dice: tuple[Die, ...],
    sections: tuple[Section, ...],
    *,
    target: str | None,
    actions: tuple[FollowUp, ...] = (),
    mode: str = "single",
) -> Card:
    head: tuple[Section, ...] = ()
    if check is not None:
        head = (check_lines(check, skill_label(ctx.sheet, weapon.skill), mods),)
    return Card(
        kind="attack",
        title=t("card.attack", actor=ctx.actor.name, weapon=weapon.label, mode=t(f"mode.{mode}")),
        speaker=ctx.actor.id,
        dice=(*(check.dice if check else ()), *dice),
        outcome=outcome_of(check) if check is not None else None,
        sections=(*head, *sections),
        actions=actions,
        target=target,
    )
