"""The attack action: checks, modifiers, the roll, jams, and single attacks (one shot, a
blow, a throw). Thompson fire modes continue in :mod:`rules.omerta.thompson`; melee blows
wait for the defender's answer (:mod:`rules.omerta.defence`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Effect,
    FollowUp,
    Line,
    Resolution,
    RulesError,
    Section,
    t,
)
from rules.omerta.checks import Check, roll_check
from rules.omerta.combat import (
    Ctx,
    Modifier,
    action_modifiers,
    check_lines,
    context,
    outcome_of,
    require_able,
    skill_label,
    spend_action,
    total,
    weapon_of,
)
from rules.omerta.damage import take_hits
from rules.omerta.hits import deliver, shotgun_expression
from rules.omerta.sheet import Weapon, parse_sheet
from rules.omerta.state import counters
from rules.omerta.tables import (
    AIM_BONUS,
    BLIND_FIRE_PENALTY,
    DODGE_SHOOTOUT_PENALTY,
    EMPTY_MIN_FRACTION,
    FAST_TARGET_M,
    FAST_TARGET_PENALTY,
    LOCATIONS,
    PRECISE_LOCATION,
    PRECISE_MIN,
    SHORT_BURST_BULLETS,
    TARGET_CHANGE_PENALTY,
    THOMPSON_MODES,
)

MODES: tuple[str, ...] = ("single", *THOMPSON_MODES)
OPEN_BLOWS_KEPT = 20


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


def resolve_attack(world: Any, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    params = action.params
    weapon = weapon_of(ctx, str(params["weapon"]))
    targets = tuple(world.actor(tid, f"targets.{i}") for i, tid in enumerate(action.targets))
    mode = validate_attack(ctx, weapon, params, targets)
    if mode != "single":
        from rules.omerta.thompson import resolve_thompson

        return resolve_thompson(ctx, action, weapon, mode, targets, dice)
    return _single(ctx, action, weapon, targets[0], dice)


def blow_id(ctx: Ctx) -> str:
    """A melee blow's id: its three defence buttons answer it once between them."""
    return f"{ctx.actor.id}:{ctx.now.time}:{ctx.rounds.actions}"


def open_blow(target: Actor, blow: str) -> ActorChange:
    """The target now owes an answer (parry, dodge or take) to ``blow``."""
    waiting = [str(b) for b in target.state.get("open_blows", []) if b != blow]
    return ActorChange(target.id, {"open_blows": [*waiting[-(OPEN_BLOWS_KEPT - 1) :], blow]})


def defend_followups(
    ctx: Ctx, weapon: Weapon, target: Actor, check: Check, blow: str
) -> tuple[FollowUp, ...]:
    base = {"attacker_weapon": weapon.key, "critical": check.critical, "blow": blow}
    sheet = parse_sheet(target.sheet)
    parry_choices = (*(k for k, w in sheet.weapons.items() if w.melee), "unarmed")
    from rules.params import Param

    return (
        FollowUp(
            "parry",
            t("follow.parry"),
            "defend",
            target.id,
            {**base, "defence": "parry"},
            (ctx.actor.id,),
            ask=(
                Param(
                    "parry_with",
                    "choice",
                    t("param.parry_with"),
                    default="unarmed",
                    choices=parry_choices,
                ),
            ),
        ),
        FollowUp(
            "dodge",
            t("follow.dodge"),
            "defend",
            target.id,
            {**base, "defence": "dodge"},
            (ctx.actor.id,),
        ),
        FollowUp(
            "take",
            t("follow.take"),
            "defend",
            target.id,
            {**base, "defence": "none"},
            (ctx.actor.id,),
        ),
    )


def _single(
    ctx: Ctx, action: Action, weapon: Weapon, target: Actor, dice: DiceSource
) -> Resolution:
    params = action.params
    effects: list[Effect] = []
    sections: list[Section] = []
    extra_dice: list[Die] = []
    follow: tuple[FollowUp, ...] = ()
    their = counters(target, ctx.now)
    unconscious = "unconscious" in target.statuses
    if unconscious and str(ctx.settings.get("unconscious_attack", "any")) == "any":
        killed = take_hits(target, parse_sheet(target.sheet), (), ctx.now, is_attack=True)
        state, add, remove, lines = attacker_state(ctx, weapon, None, target.id, 1)
        effects = [ActorChange(ctx.actor.id, state, add, remove), killed.change]
        card = attack_card(
            ctx,
            weapon,
            None,
            (),
            (),
            (Section(t("section.effects"), (*lines, *killed.lines)),),
            target=target.id,
        )
        return Resolution(action, (card,), tuple(effects))
    if weapon.melee and ctx.actor.id in their.dodged_attackers:
        state, add, remove, lines = attacker_state(ctx, weapon, None, target.id, 0)
        note = Line(t("line.dodged_already", actor=target.name, attacker=ctx.actor.name))
        card = attack_card(
            ctx,
            weapon,
            None,
            (),
            (),
            (Section(t("section.effects"), (note, *lines)),),
            target=target.id,
        )
        return Resolution(action, (card,), (ActorChange(ctx.actor.id, state, add, remove),))
    mods = (
        *action_modifiers(ctx, int(params.get("modifier", 0))),
        *target_modifiers(ctx, weapon, target, params),
    )
    check = attack_check(ctx, weapon, mods, dice, params)
    state, add, remove, lines = attacker_state(ctx, weapon, check, target.id, 1)
    effect_lines: list[Line] = list(lines)
    if check.success:
        aware = not params.get("unaware", False) and not unconscious
        if weapon.melee and aware:
            effect_lines.append(Line(t("line.await_defence", actor=target.name)))
            blow = blow_id(ctx)
            follow = defend_followups(ctx, weapon, target, check, blow)
            effects.append(open_blow(target, blow))
        else:
            if not aware and weapon.melee:
                effect_lines.append(Line(t("line.no_defence")))
            location = params.get("location")
            area = params.get("precise_area") if params.get("precise") else None
            if area is not None:
                location = PRECISE_LOCATION[str(area)]
            delivered = deliver(
                ctx.world,
                ctx.now,
                weapon,
                target,
                dice,
                critical=check.critical,
                location=str(location) if location in LOCATIONS else None,
                range_m=params.get("range_m"),
                precise_area=str(area) if area else None,
            )
            extra_dice.extend(delivered.dice)
            effect_lines.extend(delivered.lines)
            effects.append(delivered.outcome.change)
    else:
        effect_lines.append(Line(t("line.miss")))
    effects.insert(0, ActorChange(ctx.actor.id, state, add, remove))
    sections.append(Section(t("section.effects"), tuple(effect_lines)))
    card = attack_card(
        ctx,
        weapon,
        check,
        mods,
        tuple(extra_dice),
        tuple(sections),
        target=target.id,
        actions=follow,
    )
    return Resolution(action, (card,), tuple(effects))
