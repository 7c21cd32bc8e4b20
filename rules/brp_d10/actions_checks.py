"""Checks through the bridge: skill and characteristic checks, opposed checks, initiative."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.brp_d10.cards import can_act, check_line, check_outcome, level_line, read_actor
from rules.brp_d10.checks import Check, opposed_winner, roll_check
from rules.brp_d10.combat import accumulation, check_round, refuse, usable_skill
from rules.brp_d10.initiative import PLAN_KINDS, Slot, plan_agilities, timeline
from rules.brp_d10.plans import advance_plan, follow_plan
from rules.brp_d10.sheet import Sheet
from rules.brp_d10.state import ActorState, characteristic
from rules.brp_d10.tables import CHARACTERISTICS
from rules.brp_d10.wounds import total_penalty
from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    ActorChange,
    Card,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    Section,
    Text,
    World,
    WorldChange,
    t,
)
from rules.tracker import combat_of

PLANS_KEY = "brp_d10_plans"


def _what(
    sheet: Sheet, state: ActorState, params: Mapping[str, Any], prefix: str = ""
) -> tuple[Text, int, str]:
    skill_key = params.get(f"{prefix}skill")
    char_key = params.get(f"{prefix}characteristic")
    if skill_key and char_key:
        raise refuse("skill_or_characteristic", f"params.{prefix}skill")
    if skill_key:
        skill = usable_skill(sheet, str(skill_key))
        return t("raw", text=skill.label), skill.value, f"skill:{skill.key}"
    if char_key:
        if char_key not in CHARACTERISTICS:
            raise refuse(
                "no_such_characteristic", f"params.{prefix}characteristic", name=str(char_key)
            )
        return (
            t(f"char.{char_key}"),
            characteristic(sheet, state, str(char_key)),
            f"char:{char_key}",
        )
    raise refuse("skill_or_characteristic", f"params.{prefix}skill")


def _roll(
    world: World, action: Action, dice: DiceSource, opposed: bool
) -> tuple[Check, Text, list[Line], ActorState]:
    actor = world.actor(action.actor_id)
    can_act(actor)
    sheet, state = read_actor(actor)
    params = action.params
    label, value, _ = _what(sheet, state, params)
    lines: list[Line] = []
    difficulty = int(params.get("difficulty", 0))
    if difficulty:
        lines.append(Line(t("mod.gm"), f"{difficulty:+d}"))
    penalty = total_penalty(state)
    if penalty:
        # 'un +1 a la dificultad a todas sus acciones hasta que se cure'
        lines.append(Line(t("mod.wounds"), f"+{penalty}"))
    new_state = state
    acc = 0
    if params.get("combat_action"):
        agility = characteristic(sheet, state, "agilidad")
        check_round(state, agility, 1)
        planned = follow_plan(world, actor.id, state, "other", "")
        acc = accumulation(state, 0, None)
        if acc:
            lines.append(Line(t("mod.accumulation"), f"+{acc}"))
        new_state = advance_plan(replace(state, round=state.round.used("")), planned)
    skip = bool(world.settings.get("skip_certain_rolls", True)) and not opposed
    check = roll_check(dice, value, difficulty + penalty + acc, skip_certain=skip)
    lines.append(check_line(t("line.check_roll"), check))
    level = level_line(check)
    if level is not None:
        lines.append(level)
    return check, label, lines, new_state


def resolve_check(world: World, action: Action, dice: DiceSource) -> Resolution:
    actor = world.actor(action.actor_id)
    opposed = bool(action.targets)
    if opposed:
        opponent = world.actor(action.targets[0], "targets.0")
        o_sheet, o_state = read_actor(opponent)
        o_label, _, o_key = _what(o_sheet, o_state, action.params, "opposed_")
    check, label, lines, state = _roll(world, action, dice, opposed)
    follow: tuple[FollowUp, ...] = ()
    outcome: Outcome | None = check_outcome(check)
    if opposed:
        kind, key = o_key.split(":", 1)
        lines.append(Line(t("line.opposed_pending", actor=opponent.name, what=o_label)))
        follow = (
            FollowUp(
                "oppose",
                t("follow.oppose", what=o_label),
                "oppose",
                opponent.id,
                {
                    "skill" if kind == "skill" else "characteristic": key,
                    "against_success": check.success,
                    "against_level": check.level if check.level is not None else -1,
                },
                (actor.id,),
            ),
        )
        outcome = None
    card = Card(
        "check",
        t("card.check", actor=actor.name, what=label),
        actor.id,
        check.dice,
        outcome,
        (Section(None, tuple(lines)),),
        follow,
        target=action.targets[0] if action.targets else None,
    )
    effects = (
        (ActorChange(actor.id, {"round": state.round.to_json()}),)
        if action.params.get("combat_action")
        else ()
    )
    return Resolution(action, (card,), effects)


def resolve_oppose(world: World, action: Action, dice: DiceSource) -> Resolution:
    actor = world.actor(action.actor_id)
    first = world.actor(action.targets[0], "targets.0")
    check, label, lines, _ = _roll(world, action, dice, True)
    against_success = bool(action.params.get("against_success", False))
    against_level = int(action.params.get("against_level", -1))
    # The first check rebuilt from what the card carried: an automatic success reads its level
    # as value - 1, a failure is any die over a value of 0.
    first_check = (
        Check(against_level + 1, 0, None)
        if against_success
        else Check(0, 0, Die(10, (10,), "opposed"))
    )
    winner = opposed_winner(first_check, check, str(world.settings.get("opposed_tie", "tie")))
    if winner == -1:
        lines.append(Line(t("line.tie")))
        outcome = Outcome("tie", t("outcome.tie"), None, 0)
    else:
        name = first.name if winner == 0 else actor.name
        lines.append(Line(t("line.winner", actor=name)))
        outcome = Outcome(
            "success" if winner == 1 else "failure",
            t("outcome.success") if winner == 1 else t("outcome.failure"),
            winner == 1,
            None,
        )
    card = Card(
        "oppose",
        t("card.oppose", first=first.name, second=actor.name, what=label),
        actor.id,
        check.dice,
        outcome,
        (Section(None, tuple(lines)),),
        target=first.id,
    )
    return Resolution(action, (card,), ())


def parse_plan(sheet: Sheet, plan: str) -> tuple[tuple[str, str, bool], ...]:
    """'attack:espada, parry:espada' -> steps; each step 'kind[:weapon]'."""
    steps: list[tuple[str, str, bool]] = []
    for index, raw in enumerate(part.strip() for part in plan.split(",") if part.strip()):
        kind, _, weapon_key = raw.partition(":")
        if kind not in PLAN_KINDS:
            raise refuse("bad_plan", "params.plan", step=index + 1)
        weapon = sheet.weapons.get(weapon_key) if weapon_key else None
        if weapon_key and weapon is None:
            raise refuse("no_such_weapon", "params.plan", weapon=weapon_key)
        steps.append((kind, weapon_key, bool(weapon and weapon.automatic)))
    if len(steps) > 10:
        raise refuse("bad_plan", "params.plan", step=11)
    return tuple(steps)


def plan_slots(world: World, actor_id: str, plan: str) -> tuple[Slot, ...]:
    actor = world.actor(actor_id)
    sheet, state = read_actor(actor)
    agility = characteristic(sheet, state, "agilidad")
    steps = parse_plan(sheet, plan)
    if len(steps) > agility:
        raise refuse("too_many_actions_agility", "params.plan", most=agility)
    for weapon_key in {w for _, w, _ in steps if w}:
        weapon = sheet.weapons[weapon_key]
        count = sum(1 for _, w, _ in steps if w == weapon_key)
        if not weapon.automatic and count > weapon.actions:
            raise refuse(
                "too_many_actions", "params.plan", weapon=weapon.label, most=weapon.actions
            )
    agilities = plan_agilities(agility, steps)
    return tuple(
        Slot(actor_id, i, kind, weapon, agilities[i], kind in ("parry", "dodge"))
        for i, (kind, weapon, _) in enumerate(steps)
    )


def slot_line(world: World, slot: Slot, name: Text | None = None) -> Line:
    """'Décima 4: Caballero francés: ataque (Agilidad 7)'; ``name`` replaces the actor's name
    (a hidden combatant)."""
    actor = world.actor(slot.actor_id)
    who: Text | str = actor.name if name is None else name
    what = t(f"plan.{slot.kind}")
    label = (
        t("line.slot_instant", actor=who, what=what)
        if slot.instant
        else t("line.slot", actor=who, what=what, agility=slot.agility)
    )
    return Line(t("line.tenth", tenth=slot.tenth), label)


def declaration(
    world: World, actor_id: str, plan: str, declare: bool, by_gm: bool
) -> tuple[Card, tuple[WorldChange, ...]]:
    """The card of an actor's declared actions (each with its Agilidad and tenth) and, with
    ``declare``, the plan stored for the round. The ``initiative`` action and the combat
    tracker's declarations both come here."""
    actor = world.actor(actor_id)
    sheet, state = read_actor(actor)
    agility = characteristic(sheet, state, "agilidad")
    slots = plan_slots(world, actor.id, plan)
    lines = [Line(t("char.agilidad"), agility), *(slot_line(world, s) for s in slots)]
    effects: tuple[WorldChange, ...] = ()
    if declare:
        plans = dict(world.data.get(PLANS_KEY, {}))
        if actor.id in plans and not by_gm:
            # 'una vez declarado, no puede cambiarse'
            raise refuse("already_declared", "params.plan")
        plans[actor.id] = plan
        effects = (WorldChange({PLANS_KEY: plans}),)
        lines.append(Line(t("line.declared")))
    card = Card(
        "initiative",
        t("card.initiative", actor=actor.name),
        actor.id,
        sections=(Section(None, tuple(lines)),),
    )
    return card, effects


def resolve_initiative(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Show (and with ``declare`` store) the actor's declared actions for the round with the
    Agilidad and tenth of each: 'hay que declarar lo que se va a hacer antes del asalto'.

    While the combat tracker runs, declarations go through ``combat_declare`` (in its order,
    NPCs first); only the GM may still change a plan here once the round is acting (R38)."""
    del dice
    declare = bool(action.params.get("declare"))
    combat = combat_of(world)
    if declare and combat is not None and (combat.phase == "declare" or not action.by_gm):
        raise refuse("use_combat_declare", "params.declare")
    plan = str(action.params.get("plan", "") or "attack")
    card, effects = declaration(world, action.actor_id, plan, declare, action.by_gm)
    return Resolution(action, (card,), effects)


def resolve_round_order(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The declared actions of everybody, tenth by tenth; actors without a plan act once at their
    Agilidad."""
    del dice
    plans = world.data.get(PLANS_KEY, {})
    slots: list[Slot] = []
    for actor_id, actor in sorted(world.actors.items()):
        if "dead" in actor.statuses:
            continue
        plan = plans.get(actor_id) if isinstance(plans, Mapping) else None
        slots.extend(plan_slots(world, actor_id, str(plan) if plan else "other"))
    lines: list[Line] = []
    for _, group in timeline(tuple(slots)):
        lines.extend(slot_line(world, slot) for slot in group)
    card = Card(
        "round_order",
        t("card.round_order"),
        None,
        sections=(Section(None, tuple(lines)),),
        visibility="public",
    )
    return Resolution(action, (card,), ())
