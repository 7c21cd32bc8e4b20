"""Parry and dodge, and the spread of an emptied magazine over chained targets.

'Parar un ataque sólo es posible cuando esté sea cuerpo a cuerpo ... Cada parada en un mismo
asalto después de la primera tendrá una penalización de -20% acumulativo.' 'cuando se para
desarmado el ataque de un arma ... recibiremos la mitad del daño'. 'No se pueden parar ataques
... con armas naturales ... con armas cuerpo a cuerpo'. 'Esquivar ... cuerpo a cuerpo ...
evitará todos los ataques provenientes de un sólo atacante. En un tiroteo ... -25% ...
-20% a su siguiente acción ... no podrá realizar acciones delicadas ... una por asalto.'
"""

from __future__ import annotations

from dataclasses import replace

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    Line,
    Resolution,
    RulesError,
    Section,
    World,
    t,
)
from rules.omerta.checks import Check, roll_check
from rules.omerta.combat import (
    Ctx,
    Modifier,
    check_lines,
    context,
    outcome_of,
    require_able,
    skill_label,
    weapon_of,
)
from rules.omerta.damage import Hit, take_hits
from rules.omerta.hits import deliver
from rules.omerta.sheet import parse_sheet
from rules.omerta.state import counters_json
from rules.omerta.tables import FREE_MOVE_M, PARRY_PENALTY, SPRINT_PENALTY
from rules.omerta.thompson import apportion, parse_numbers, split_wound

DODGE_SKILL = "esquivar"
UNARMED_SKILL = "pelea"


def _defence_mods(ctx: Ctx, don: int) -> tuple[Modifier, ...]:
    """Defences are not actions (no extra-action penalty); the Don's call and a sprint count."""
    found: list[Modifier] = []
    if don:
        found.append(Modifier("don", don))
    if ctx.rounds.sprint > FREE_MOVE_M:
        found.append(Modifier("sprint", -SPRINT_PENALTY))
    return tuple(found)


def _dodge_roll(ctx: Ctx, dice: DiceSource, don: int) -> tuple[Check, tuple[Modifier, ...]]:
    if ctx.rounds.dodged:
        raise RulesError("already_dodged", t("error.already_dodged", actor=ctx.actor.name), "actor")
    mods = _defence_mods(ctx, don)
    check = roll_check(dice, ctx.sheet.skill(DODGE_SKILL), sum(m.value for m in mods), role="dodge")
    return check, mods


def _dodge_state(
    ctx: Ctx, *, attacker: str | None, shootout: bool, success: bool
) -> dict[str, object]:
    rounds = replace(
        ctx.rounds,
        dodged=True,
        dodging=shootout and success,
        dodged_attackers=(*ctx.rounds.dodged_attackers, attacker)
        if attacker is not None and success
        else ctx.rounds.dodged_attackers,
    )
    state: dict[str, object] = counters_json(rounds, ctx.now)
    state["dodge_penalty_until"] = ctx.now.round + 1
    state["no_delicate_until"] = ctx.now.round + 1
    state["aim"] = None
    state["active_day"] = ctx.now.day
    return state


def resolve_dodge(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The shoot-out dodge: success gives -25 % to every attack on the dodger this round."""
    ctx = context(world, action.actor_id)
    require_able(ctx)
    check, mods = _dodge_roll(ctx, dice, int(action.params.get("modifier", 0)))
    state = _dodge_state(ctx, attacker=None, shootout=True, success=check.success)
    add = frozenset({"dodging"}) if check.success else frozenset()
    line = Line(t("line.dodging_round") if check.success else t("line.dodge_failed"))
    card = Card(
        kind="dodge",
        title=t("card.dodge", actor=ctx.actor.name),
        speaker=ctx.actor.id,
        dice=check.dice,
        outcome=outcome_of(check),
        sections=(
            check_lines(check, skill_label(ctx.sheet, DODGE_SKILL), mods),
            Section(t("section.effects"), (line, Line(t("line.after_dodge")))),
        ),
    )
    return Resolution(
        action, (card,), (ActorChange(ctx.actor.id, state, add, frozenset({"aiming"})),)
    )


def resolve_defend(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The defender's answer to a melee blow: parry, dodge, or take it."""
    ctx = context(world, action.actor_id)
    attacker = world.actor(action.targets[0], "targets.0")
    attacker_sheet = parse_sheet(attacker.sheet)
    weapon = weapon_of(
        context(world, attacker.id), str(action.params["attacker_weapon"]), "params.attacker_weapon"
    )
    del attacker_sheet
    defence = str(action.params.get("defence", "none"))
    critical = bool(action.params.get("critical", False))
    if "dead" in ctx.actor.statuses:
        raise RulesError("target_dead", t("error.target_dead", actor=ctx.actor.name), "actor")
    blow = action.params.get("blow")
    if blow is not None and blow not in ctx.actor.state.get("open_blows", []):
        raise RulesError("blow_answered", t("error.blow_answered", actor=ctx.actor.name), "action")
    if "unconscious" in ctx.actor.statuses:
        defence = "none"
    rolled: list[Die] = []
    lines: list[Line] = []
    sections: list[Section] = []
    state: dict[str, object] = {}
    check: Check | None = None
    hit = True
    half = False
    if defence == "dodge":
        check, mods = _dodge_roll(ctx, dice, int(action.params.get("modifier", 0)))
        sections.append(check_lines(check, skill_label(ctx.sheet, DODGE_SKILL), mods))
        state = _dodge_state(ctx, attacker=attacker.id, shootout=False, success=check.success)
        hit = not check.success
        lines.append(
            Line(
                t("line.dodged", attacker=attacker.name)
                if check.success
                else t("line.dodge_failed")
            )
        )
        lines.append(Line(t("line.after_dodge")))
    elif defence == "parry":
        parry_with = str(action.params.get("parry_with", "unarmed"))
        if parry_with == "unarmed":
            skill, armed = UNARMED_SKILL, False
        else:
            parrying = weapon_of(ctx, parry_with, "params.parry_with")
            if not parrying.melee:
                raise RulesError(
                    "parry_needs_melee",
                    t("error.parry_needs_melee", weapon=parrying.label),
                    "params.parry_with",
                )
            skill, armed = parrying.skill, parrying.kind == "melee"
        if weapon.kind == "natural" and armed:
            raise RulesError(
                "cannot_parry_natural", t("error.cannot_parry_natural"), "params.parry_with"
            )
        mods_list = list(_defence_mods(ctx, int(action.params.get("modifier", 0))))
        if ctx.rounds.parries:
            mods_list.append(Modifier("extra_parry", -PARRY_PENALTY * ctx.rounds.parries))
        mods = tuple(mods_list)
        check = roll_check(dice, ctx.sheet.skill(skill), sum(m.value for m in mods), role="parry")
        sections.append(check_lines(check, skill_label(ctx.sheet, skill), mods))
        rounds = replace(ctx.rounds, parries=ctx.rounds.parries + 1)
        state = counters_json(rounds, ctx.now)
        if check.success and not armed and weapon.kind == "melee":
            half = True
            lines.append(Line(t("line.parried_unarmed")))
        elif check.success:
            hit = False
            lines.append(Line(t("line.parried")))
        else:
            lines.append(Line(t("line.parry_failed")))
    else:
        lines.append(Line(t("line.took_blow")))
    effects: list[Effect] = []
    if blow is not None:
        state = {
            **state,
            "open_blows": [b for b in ctx.actor.state.get("open_blows", []) if b != blow],
        }
    target = ctx.actor
    if state:
        target = replace(target, state={**target.state, **state})
    if hit:
        delivered = deliver(world, ctx.now, weapon, target, dice, critical=critical, half=half)
        rolled.extend(delivered.dice)
        lines.extend(delivered.lines)
        state = {**state, **delivered.outcome.state}
        effects.append(
            ActorChange(ctx.actor.id, state, delivered.outcome.add, delivered.outcome.remove)
        )
    elif state:
        effects.append(ActorChange(ctx.actor.id, state, frozenset(), frozenset({"aiming"})))
    sections.append(Section(t("section.effects"), tuple(lines)))
    card = Card(
        kind="defend",
        title=t(
            f"card.defend_{defence}",
            actor=ctx.actor.name,
            attacker=attacker.name,
            weapon=weapon.label,
        ),
        speaker=ctx.actor.id,
        dice=(*(check.dice if check else ()), *rolled),
        outcome=outcome_of(check) if check else None,
        sections=tuple(sections),
        target=attacker.id,
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_spread(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'el atacante podrá repartir el daño entre los objetivos de la forma que le convenga'."""
    ctx = context(world, action.actor_id)
    whole = int(action.params["total"])
    bullets = int(action.params.get("bullets", 1))
    shares = parse_numbers(action.params.get("split"), "params.split", len(action.targets))
    if sum(shares) != whole:
        raise RulesError("split_mismatch", t("error.split_mismatch", total=whole), "params.split")
    per_target = apportion(bullets, shares)
    effects: list[Effect] = []
    lines: list[Line] = []
    for index, target_id in enumerate(action.targets):
        target = world.actor(target_id, f"targets.{index}")
        if shares[index] <= 0:
            continue
        outcome = take_hits(
            target,
            parse_sheet(target.sheet),
            (Hit(shares[index], "lethal", None, True),),
            ctx.now,
            is_attack=True,
        )
        lines.append(Line(t("line.spread_share", actor=target.name), shares[index]))
        lines.extend(outcome.lines)
        state = split_wound(dict(outcome.state), max(1, per_target[index]))
        effects.append(ActorChange(target.id, state, outcome.add, outcome.remove))
    card = Card(
        kind="spread",
        title=t("card.spread", actor=ctx.actor.name),
        speaker=ctx.actor.id,
        sections=(Section(t("section.effects"), tuple(lines)),),
    )
    return Resolution(action, (card,), tuple(effects))
