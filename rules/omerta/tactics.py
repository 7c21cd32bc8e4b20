"""Moving, aiming, reloading and clearing a jam.

'Un combatiente puede desplazarse hasta 5 metros y realizar una acción sin ... penalización
... hasta 15 metros (un sprint) ... -20% ... La única acción permitida durante una carrera es
emplear un arma.' 'Este tipo de ataque requiere que el PJ apunte a su objetivo de dos a tres
asaltos'. 'tirada de la misma habilidad del arma ... a la mitad de su valor o una tirada de
mecánica ... el tiempo de reparación según el tipo de arma.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.dice import DiceSource
from rules.model import Action, ActorChange, Card, Line, Resolution, RulesError, Section, World, t
from rules.omerta.checks import roll_check
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
    weapon_of,
)
from rules.omerta.state import counters_json
from rules.omerta.tables import FAST_TARGET_M, FREE_MOVE_M, JAM_REPAIR_ROUNDS, SPRINT_PENALTY

MECHANICS = "mecanica"


def _simple_card(kind: str, ctx: Ctx, lines: tuple[Line, ...], **params: str) -> Card:
    return Card(
        kind=kind,
        title=t(f"card.{kind}", actor=ctx.actor.name, **params),
        speaker=ctx.actor.id,
        sections=(Section(None, lines),),
    )


def _no_delicate(ctx: Ctx) -> None:
    until = ctx.actor.state.get("no_delicate_until")
    if until is not None and ctx.now.round <= int(until):
        raise RulesError(
            "no_delicate_after_dodge",
            t("error.no_delicate_after_dodge", actor=ctx.actor.name),
            "actor",
        )
    if ctx.rounds.sprint > FREE_MOVE_M:
        raise RulesError("sprint_only_weapon", t("error.sprint_only_weapon"), "actor")


def resolve_move(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    metres = int(action.params["metres"])
    if "impaired" in ctx.actor.statuses and metres > FREE_MOVE_M:
        raise RulesError(
            "cannot_sprint_impaired",
            t("error.cannot_sprint_impaired", actor=ctx.actor.name),
            "params.metres",
        )
    moved = max(ctx.rounds.sprint, metres)
    state: dict[str, object] = counters_json(replace(ctx.rounds, sprint=moved), ctx.now)
    lines = [Line(t("line.moved", metres=metres))]
    remove: frozenset[str] = frozenset()
    if metres > FREE_MOVE_M:
        state["aim"] = None
        state["active_day"] = ctx.now.day
        remove = frozenset({"aiming"})
        lines.append(Line(t("line.sprint", penalty=SPRINT_PENALTY)))
    if metres >= FAST_TARGET_M:
        lines.append(Line(t("line.fast_target")))
    card = _simple_card("move", ctx, tuple(lines))
    return Resolution(action, (card,), (ActorChange(ctx.actor.id, state, frozenset(), remove),))


def resolve_aim(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    weapon = weapon_of(ctx, str(action.params["weapon"]))
    target = world.actor(action.targets[0], "targets.0")
    if not weapon.firearm:
        raise RulesError(
            "aim_firearm_only", t("error.aim_firearm_only", weapon=weapon.label), "params.weapon"
        )
    if weapon.thompson:
        raise RulesError(
            "thompson_no_aim", t("error.thompson_no_aim", weapon=weapon.label), "params.weapon"
        )
    aim = ctx.actor.state.get("aim")
    keep = (
        isinstance(aim, Mapping)
        and aim.get("target") == target.id
        and aim.get("weapon") == weapon.key
    )
    since = int(aim["since"]) if keep and isinstance(aim, Mapping) else ctx.now.round
    state = spend_action(ctx, target=target.id, physical=False)
    state["aim"] = {"target": target.id, "weapon": weapon.key, "since": since}
    lines = (Line(t("line.aiming", target=target.name, rounds=ctx.now.round - since)),)
    card = _simple_card("aim", ctx, lines, weapon=weapon.label)
    return Resolution(action, (card,), (ActorChange(ctx.actor.id, state, frozenset({"aiming"})),))


def resolve_reload(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    weapon = weapon_of(ctx, str(action.params["weapon"]))
    if not weapon.counted:
        raise RulesError(
            "not_a_firearm", t("error.not_a_firearm", weapon=weapon.label), "params.weapon"
        )
    _no_delicate(ctx)
    ammo = dict(ctx.actor.state.get("ammo", {}))
    ammo[weapon.key] = weapon.capacity
    state = spend_action(ctx, physical=False)
    state.update(ammo=ammo, aim=None)
    card = _simple_card(
        "reload",
        ctx,
        (Line(t("line.ammo", weapon=weapon.label), f"{weapon.capacity}/{weapon.capacity}"),),
        weapon=weapon.label,
    )
    return Resolution(
        action, (card,), (ActorChange(ctx.actor.id, state, frozenset(), frozenset({"aiming"})),)
    )


def resolve_clear_jam(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    weapon = weapon_of(ctx, str(action.params["weapon"]))
    jams = dict(ctx.actor.state.get("jams", {}))
    jam = jams.get(weapon.key)
    if not isinstance(jam, Mapping):
        raise RulesError("not_jammed", t("error.not_jammed", weapon=weapon.label), "params.weapon")
    if jam.get("ready_at") is not None:
        raise RulesError(
            "jam_clearing", t("error.jam_clearing", weapon=weapon.label), "params.weapon"
        )
    _no_delicate(ctx)
    using = str(action.params.get("using", "weapon"))
    mods = list(action_modifiers(ctx, int(action.params.get("modifier", 0))))
    if using == "mecanica":
        base, label = ctx.sheet.skill(MECHANICS), skill_label(ctx.sheet, MECHANICS)
    else:
        full = ctx.sheet.skill(weapon.skill)
        base, label = full, skill_label(ctx.sheet, weapon.skill)
        mods.insert(0, Modifier("half_skill", -(full - full // 2)))
    check = roll_check(dice, base, sum(m.value for m in mods), role="unjam")
    state = spend_action(ctx, physical=False)
    state["aim"] = None
    rounds = JAM_REPAIR_ROUNDS[str(weapon.type)]
    if check.success:
        jams[weapon.key] = {"ready_at": ctx.now.time + rounds * ctx.now.round_seconds}
        state["jams"] = jams
        line = Line(t("line.unjamming", weapon=weapon.label, rounds=rounds))
    else:
        line = Line(t("line.still_jammed", weapon=weapon.label))
    card = Card(
        kind="clear_jam",
        title=t("card.clear_jam", actor=ctx.actor.name, weapon=weapon.label),
        speaker=ctx.actor.id,
        dice=check.dice,
        outcome=outcome_of(check),
        sections=(check_lines(check, label, tuple(mods)), Section(t("section.effects"), (line,))),
    )
    return Resolution(
        action, (card,), (ActorChange(ctx.actor.id, state, frozenset(), frozenset({"aiming"})),)
    )
