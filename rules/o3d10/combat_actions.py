"""Attacks (melee, ranged, two weapons, ambush) and damage rolls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
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
    Outcome,
    Resolution,
    RulesError,
    Section,
    Text,
    World,
    WorldChange,
    t,
)
from rules.o3d10.cards import attribute_label, die_lines, kept_line, outcome_of, signed
from rules.o3d10.combat import (
    UNARMED,
    AttackPlan,
    AttackResult,
    better_weapon,
    defense,
    improvised,
    melee_mods,
    melee_plan,
    ranged_mods,
    ranged_plan,
    roll_attack,
    roll_damage,
    roll_reliability,
    two_weapon_bonus,
    two_weapon_penalty,
    unarmed,
)
from rules.o3d10.context import RollContext, require_able, roll_context, sheet_of, split_marked
from rules.o3d10.health_actions import wound_change
from rules.o3d10.initiative import COMBAT_KEY, actions_left, combat_of
from rules.o3d10.sheet import Sheet, Weapon
from rules.o3d10.tables import TWO_WEAPONS_ARMOUR


def refuse(code: str, field: str, **params: Any) -> RulesError:
    return RulesError(code, t(f"error.{code}", **params), field)


def weapon_of(world: World, actor: Actor, sheet: Sheet, key: str, field: str) -> Weapon:
    if key == UNARMED:
        return unarmed(world.settings)
    try:
        return sheet.weapons[key]
    except KeyError:
        raise refuse("no_such_weapon", field, actor=actor.name, weapon=key) from None


def weapon_label(weapon: Weapon) -> Text:
    return t("weapon.unarmed") if weapon.key == UNARMED else t("raw", text=weapon.label)


def spend_action(world: World, actor: Actor, split: bool, free: bool) -> dict[str, Any] | None:
    """The combat bookkeeping after this actor spends a major action, or None outside combat.

    'Una sola acción por turno ... a menos que se saque 20 o más' and 'Una pifia en iniciativa
    significa que no se actua en el primer turno'. Splitting ('Dividir Acciones') allows one
    action more this round.
    A free attack (a won ambush) spends nothing and needs no initiative: the ambusher
    strikes before the fight's order exists.
    """
    combat = combat_of(world.data)
    if free or not combat["active"] or not world.settings.get("enforce_actions", True):
        return None
    entry = combat["initiative"].get(actor.id)
    if entry is None:
        raise refuse("no_initiative", "actor", actor=actor.name)
    if entry.get("fumble") and combat["round"] <= 1:
        raise refuse("lost_first_turn", "actor", actor=actor.name)
    if split:
        combat["split"][actor.id] = combat["round"]
    if actions_left(combat, actor.id) <= 0:
        raise refuse("no_actions_left", "actor", actor=actor.name)
    combat["used"][actor.id] = int(combat["used"].get(actor.id, 0)) + 1
    return combat


def _check_mode_params(params: Mapping[str, Any], melee: bool) -> None:
    wrong = ("running", "prone", "crowd") if melee else ("behind", "flanking")
    for name in wrong:
        if params.get(name):
            raise refuse("modifier_not_for_mode", f"params.{name}", modifier=t(f"mod.{name}"))
    if melee and params.get("cover", "ninguna") != "ninguna":
        raise refuse("modifier_not_for_mode", "params.cover", modifier=t("mod.cover.ligera"))


def plan_attack(
    world: World, actor: Actor, sheet: Sheet, target: Actor, params: Mapping[str, Any]
) -> tuple[AttackPlan, ...]:
    """One plan per attack roll (two in the first version's two-weapon fighting)."""
    weapon = weapon_of(world, actor, sheet, str(params.get("weapon", UNARMED)), "params.weapon")
    in_melee = bool(params.get("in_melee", False))
    melee = not weapon.ranged or in_melee
    _check_mode_params(params, melee)
    if weapon.ranged and in_melee:
        weapon = improvised(weapon)
    target_sheet = sheet_of(target)
    offhand_key = params.get("offhand")
    if offhand_key:
        offhand = weapon_of(world, actor, sheet, str(offhand_key), "params.offhand")
        if offhand.key == weapon.key:
            raise refuse("same_weapon_twice", "params.offhand")
        if weapon.ranged or offhand.ranged:
            raise refuse("two_weapons_melee_only", "params.offhand")
        target_defense = defense(target_sheet, world.settings)
        behind_flank = melee_mods(bool(params.get("behind")), bool(params.get("flanking")))
        if world.settings.get("two_weapons") == "penalty":
            return (
                melee_plan(
                    sheet,
                    weapon,
                    target_defense,
                    (*behind_flank, two_weapon_penalty("main")),
                    hand="main",
                ),
                melee_plan(
                    sheet,
                    offhand,
                    target_defense,
                    (*behind_flank, two_weapon_penalty("off")),
                    hand="off",
                ),
            )
        if not (weapon.light and offhand.light):
            raise refuse("two_weapons_not_light", "params.offhand")
        if sheet.armour.kind not in TWO_WEAPONS_ARMOUR:
            raise refuse("armour_too_heavy", "params.offhand", armour=sheet.armour.label)
        best = better_weapon(weapon, offhand)
        return (melee_plan(sheet, best, target_defense, (*behind_flank, two_weapon_bonus())),)
    if melee:
        mods = melee_mods(bool(params.get("behind")), bool(params.get("flanking")))
        return (melee_plan(sheet, weapon, defense(target_sheet, world.settings), mods),)
    difficulty_mods = ranged_mods(
        bool(params.get("running")),
        bool(params.get("prone")),
        str(params.get("cover", "ninguna")),
        bool(params.get("crowd")),
    )
    return (
        ranged_plan(
            sheet, weapon, str(params.get("range", "corta")), difficulty_mods, (), world.settings
        ),
    )


def _attack_lines(
    sheet: Sheet, result: AttackResult, context: RollContext, target: Actor
) -> list[Line]:
    plan, check = result.plan, result.check
    lines = [kept_line(check, context.circumstances)]
    if plan.hand:
        lines.append(Line(t(f"line.hand.{plan.hand}", weapon=weapon_label(plan.weapon))))
    lines.append(
        Line(
            t(
                "line.sum_skill",
                attribute=attribute_label(plan.attribute),
                attr_value=sheet.attribute(plan.attribute),
                skill=t(f"skill.{plan.skill}"),
                skill_value=plan.skill_value,
                die=check.roll.total,
            )
        )
    )
    lines.extend(die_lines(check))
    lines.extend(Line(t(f"mod.{m.key}"), signed(m.value)) for m in plan.attack_mods)
    extra = check.modifier - plan.modifier
    if extra:
        lines.append(Line(t("line.modifier", modifier=signed(extra))))
    lines.append(Line(t("line.total", total=check.total)))
    if plan.mode == "melee":
        lines.append(Line(t("line.defense", actor=target.name, defense=plan.difficulty_base)))
    else:
        lines.append(Line(t("line.range_difficulty", difficulty=plan.difficulty_base)))
        lines.append(Line(t("line.no_dodge")))
    lines.extend(Line(t(f"mod.{m.key}"), signed(m.value)) for m in plan.difficulty_mods)
    lines.append(Line(t("line.difficulty", difficulty=plan.difficulty)))
    if check.natural_one and not check.fumble:
        lines.append(Line(t("line.natural_one")))
    if result.hit:
        lines.append(Line(t("line.hit", actor=target.name)))
        if result.extra_dice:
            lines.append(Line(t("line.margin_dice", count=result.extra_dice, margin=result.margin)))
    else:
        lines.append(Line(t("line.miss", actor=target.name)))
    return lines


def _damage_expression(weapon: Weapon, extra: int) -> str:
    return weapon.damage + (f" + {extra}d6" if extra else "")


def resolve_attack(world: World, action: Action, dice: DiceSource) -> Resolution:
    actor = world.actor(action.actor_id)
    sheet = require_able(world, actor)
    target = world.actor(action.targets[0], "targets.0")
    params = action.params
    plans = plan_attack(world, actor, sheet, target, params)
    chosen = sheet.weapons.get(str(params.get("weapon", UNARMED)))
    improvised_attack = bool(params.get("in_melee")) and chosen is not None and chosen.ranged
    ambush = {k: list(v) for k, v in dict(world.data.get("ambush", {})).items()}
    free = target.id in ambush.get(actor.id, [])
    split = bool(params.get("split", False))
    combat = spend_action(world, actor, split, free)
    split = split or split_marked(world, actor.id)
    state: dict[str, Any] = {}
    effects: list[Effect] = []
    dice_rolled: list[Die] = []
    lines_before: list[Line] = []
    if free:
        lines_before.append(Line(t("line.ambush_free", actor=actor.name, target=target.name)))
        ambush[actor.id] = [a for a in ambush[actor.id] if a != target.id]
        effects.append(WorldChange({"ambush": {k: v for k, v in ambush.items() if v}}))
    if combat is not None:
        effects.append(WorldChange({COMBAT_KEY: combat}))
    weapon = plans[0].weapon
    add: frozenset[str] = frozenset()
    if plans[0].mode == "ranged":
        jammed = list(actor.state.get("jammed", []))
        if weapon.key in jammed:
            raise refuse("weapon_jammed", "params.weapon", weapon=weapon.label)
        if weapon.capacity:
            ammo = dict(actor.state.get("ammo", {}))
            loaded = int(ammo.get(weapon.key, weapon.capacity))
            if loaded <= 0:
                raise refuse("no_ammo", "params.weapon", weapon=weapon.label)
            ammo[weapon.key] = loaded - 1
            state["ammo"] = ammo
            lines_before.append(Line(t("line.ammo", left=loaded - 1, capacity=weapon.capacity)))
        if weapon.firearm and world.settings.get("firearm_reliability", True):
            reliability = roll_reliability(dice, weapon)
            dice_rolled.append(reliability.die)
            lines_before.append(
                Line(
                    t(
                        "line.reliability",
                        face=reliability.die.first,
                        threshold=reliability.threshold,
                    )
                )
            )
            if reliability.failed:
                key = "jam" if reliability.jammed else "misfire"
                if reliability.jammed:
                    state["jammed"] = sorted({*jammed, weapon.key})
                    add = frozenset({"jammed"})
                lines_before.append(Line(t(f"line.{key}", weapon=weapon.label)))
                card = Card(
                    kind="attack",
                    title=t(
                        "card.attack",
                        actor=actor.name,
                        target=target.name,
                        weapon=weapon_label(weapon),
                    ),
                    speaker=actor.id,
                    dice=tuple(dice_rolled),
                    outcome=Outcome(key, t(f"outcome.{key}"), False),
                    sections=(Section(None, tuple(lines_before)),),
                    target=target.id,
                )
                effects.append(ActorChange(actor.id, state, add))
                return Resolution(action, (card,), tuple(effects))
    cards: list[Card] = []
    for index, plan in enumerate(plans):
        context = roll_context(
            world,
            actor if index == 0 else _with_state(actor, state),
            sheet,
            params if index == 0 else {**params, "give_token": False},
            unknown_skill=plan.unknown_skill,
            by_gm=action.by_gm,
            split=split,
        )
        state.update(context.state)
        result = roll_attack(dice, plan, context.rank, int(params.get("modifier", 0)))
        lines = [
            *(lines_before if index == 0 else []),
            *_attack_lines(sheet, result, context, target),
        ]
        follow: tuple[FollowUp, ...] = ()
        if result.hit:
            follow = (
                FollowUp(
                    f"damage.{index}",
                    t("follow.damage", dice=_damage_expression(plan.weapon, result.extra_dice)),
                    "damage",
                    actor.id,
                    {
                        "weapon": plan.weapon.key,
                        "improvised": improvised_attack,
                        "extra": result.extra_dice,
                    },
                    (target.id,),
                ),
            )
        cards.append(
            Card(
                kind="attack",
                title=t(
                    "card.attack",
                    actor=actor.name,
                    target=target.name,
                    weapon=weapon_label(plan.weapon),
                ),
                speaker=actor.id,
                dice=(*(dice_rolled if index == 0 else []), *result.check.roll.dice),
                outcome=outcome_of(result.check),
                sections=(Section(None, tuple(lines)),),
                actions=follow,
                target=target.id,
            )
        )
    if state:
        effects.append(ActorChange(actor.id, state, add))
    return Resolution(action, tuple(cards), tuple(effects))


def _with_state(actor: Actor, state: Mapping[str, Any]) -> Actor:
    return replace(actor, state={**actor.state, **state})


def resolve_damage(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Roll a hit's damage; the GM applies it (or it applies at once, ``auto_apply_damage``)."""
    actor = world.actor(action.actor_id)
    sheet = sheet_of(actor)
    target = world.actor(action.targets[0], "targets.0")
    params = action.params
    weapon = weapon_of(world, actor, sheet, str(params["weapon"]), "params.weapon")
    if params.get("improvised"):
        weapon = improvised(weapon)
    extra = int(params.get("extra", 0))
    rolled = roll_damage(dice, weapon.damage, extra)
    lines = [
        Line(
            t(
                "line.damage_dice",
                weapon=weapon_label(weapon),
                dice=_damage_expression(weapon, extra),
            )
        ),
    ]
    if any(d.exploded for d in rolled.dice):
        lines.append(Line(t("line.damage_exploded")))
    lines.append(Line(t("line.damage_total", total=rolled.total)))
    effects: tuple[Effect, ...] = ()
    follow: tuple[FollowUp, ...] = ()
    if world.settings.get("auto_apply_damage"):
        effect, health = wound_change(world, target, rolled.total)
        lines.extend(health)
        effects = (effect,)
    else:
        follow = (
            FollowUp(
                "apply",
                t("follow.apply", amount=rolled.total, actor=target.name),
                "damage_apply",
                target.id,
                {"amount": rolled.total},
                allowed="gm",
            ),
        )
    card = Card(
        kind="damage",
        title=t("card.damage", actor=actor.name, target=target.name),
        speaker=actor.id,
        dice=rolled.dice,
        sections=(Section(None, tuple(lines)),),
        actions=follow,
        target=target.id,
    )
    return Resolution(action, (card,), effects)
