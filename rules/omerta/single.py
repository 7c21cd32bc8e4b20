"""The attack action: validation, then a single attack (a shot, a blow, a throw) or a
Thompson fire mode (:mod:`rules.omerta.thompson`). A melee blow the target is aware of waits
for the defender's answer (:mod:`rules.omerta.defence`)."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Effect,
    FollowUp,
    Line,
    Resolution,
    Section,
    t,
)
from rules.omerta.attacks import (
    attack_card,
    attack_check,
    attacker_state,
    target_modifiers,
    validate_attack,
)
from rules.omerta.checks import Check
from rules.omerta.combat import Ctx, action_modifiers, context, require_able, weapon_of
from rules.omerta.damage import take_hits
from rules.omerta.hits import deliver
from rules.omerta.sheet import Weapon, parse_sheet
from rules.omerta.state import counters
from rules.omerta.tables import LOCATIONS, PRECISE_LOCATION
from rules.omerta.thompson import resolve_thompson
from rules.params import Param

OPEN_BLOWS_KEPT = 20


def resolve_attack(world: Any, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    params = action.params
    weapon = weapon_of(ctx, str(params["weapon"]))
    targets = tuple(world.actor(tid, f"targets.{i}") for i, tid in enumerate(action.targets))
    mode = validate_attack(ctx, weapon, params, targets)
    if mode != "single":
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
