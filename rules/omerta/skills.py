"""Skill and characteristic rolls, and opposed rolls answered by the opponent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource
from rules.memo import forget_oldest
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
    t,
)
from rules.omerta.checks import Check, Grade, grade_roll, opposed_winner, roll_check
from rules.omerta.combat import (
    Ctx,
    action_modifiers,
    check_lines,
    context,
    outcome_of,
    require_able,
    skill_label,
    spend_action,
)
from rules.omerta.tables import FREE_MOVE_M
from rules.params import CheckedParams, Param

GRADES: Mapping[str, Grade] = {
    "critical": "critical",
    "success": "success",
    "failure": "failure",
    "fumble": "fumble",
}
RENAMED: Mapping[str, str] = {
    "opposed_skill": "skill",
    "opposed_characteristic": "characteristic",
}
CHARACTERISTICS: tuple[str, ...] = ("fue", "con", "des", "agi", "int", "pod", "car", "tam", "edu")


def _what(
    ctx: Ctx, params: Mapping[str, Any], skill_key: str, char_key: str
) -> tuple[int, Text, str]:
    """(base percentage, label, field) of the skill or characteristic ``params`` name."""
    skill = params.get(skill_key)
    characteristic = params.get(char_key)
    if (skill is None) == (characteristic is None):
        raise RulesError(
            "skill_or_characteristic", t("error.skill_or_characteristic"), f"params.{skill_key}"
        )
    if skill is not None:
        key = str(skill)
        if key not in ctx.sheet.skills:
            raise RulesError(
                "unknown_skill",
                t("error.unknown_skill", actor=ctx.actor.name, skill=key[:40]),
                f"params.{skill_key}",
            )
        return ctx.sheet.skill(key), skill_label(ctx.sheet, key), f"params.{skill_key}"
    key = str(characteristic)
    if key not in ctx.sheet.characteristics:
        raise RulesError(
            "unknown_characteristic",
            t("error.unknown_characteristic", actor=ctx.actor.name, characteristic=key[:40]),
            f"params.{char_key}",
        )
    multiplier = int(params.get("multiplier") or ctx.settings.get("characteristic_multiplier", 5))
    label = t(
        "line.characteristic",
        characteristic=t(f"char.{key}") if key in CHARACTERISTICS else t("raw", text=key),
        multiplier=multiplier,
    )
    return ctx.sheet.char(key) * multiplier, label, f"params.{char_key}"


def _roll(
    ctx: Ctx, params: Mapping[str, Any], dice: DiceSource, skill_key: str, char_key: str
) -> tuple[Check, Text, Any, dict[str, Any]]:
    require_able(ctx)
    base, label, _ = _what(ctx, params, skill_key, char_key)
    combat = bool(params.get("combat_action", False))
    if combat and ctx.rounds.sprint > FREE_MOVE_M:
        raise RulesError(
            "sprint_only_weapon", t("error.sprint_only_weapon"), "params.combat_action"
        )
    mods = action_modifiers(ctx, int(params.get("modifier", 0))) if combat else _don(params)
    check = roll_check(
        dice,
        base,
        sum(m.value for m in mods),
        role="skill",
        automatic=str(params.get("automatic", "none")),  # type: ignore[arg-type]
        fumble_on_base=str(ctx.settings.get("fumble_range", "modified")) == "base",
    )
    state = spend_action(ctx, physical=False) if combat else {}
    if combat:
        state["aim"] = None
    return check, label, mods, state


def _don(params: Mapping[str, Any]) -> tuple[Any, ...]:
    from rules.omerta.combat import Modifier

    don = int(params.get("modifier", 0))
    return (Modifier("don", don),) if don else ()


_PREPARED_SIZE = 1024
_PREPARED: dict[tuple[int, int, int], tuple[Any, ...]] = {}
"""Prepared plain rolls (no target, not a combat action): by the actor object, the settings
object and the checked parameters (immutable; each entry holds them, so their ids are not
reused), what the roll reads besides the dice: the checks passed, the base, the label, the
Don's modifier, the automatic ruling, the fumble range and the card's title."""


def resolve_roll(world: World, action: Action, dice: DiceSource) -> Resolution:
    params = action.params
    if type(params) is CheckedParams and not action.targets and not params.get("combat_action"):
        actor = world.actors.get(action.actor_id)
        settings = world.settings
        hit = _PREPARED.get((id(actor), id(settings), id(params)))
        if hit is None or hit[0] is not actor or hit[1] is not settings or hit[2] is not params:
            hit = _prepare_roll(world, action, params)
        _, _, _, base, label, mods, automatic, fumble_on_base, title = hit
        check = roll_check(
            dice,
            base,
            sum(m.value for m in mods),
            role="skill",
            automatic=automatic,
            fumble_on_base=fumble_on_base,
        )
        card = Card(
            "roll",
            title,
            hit[0].id,
            check.dice,
            outcome_of(check),
            (check_lines(check, label, mods),),
        )
        return Resolution(action, (card,), ())
    return _resolve_roll(world, action, dice)


def _prepare_roll(world: World, action: Action, params: CheckedParams) -> tuple[Any, ...]:
    """The dice-free part of a plain roll, refusing as :func:`_resolve_roll` would."""
    ctx = context(world, action.actor_id)
    require_able(ctx)
    base, label, _ = _what(ctx, params, "skill", "characteristic")
    entry = (
        ctx.actor,
        world.settings,
        params,
        base,
        label,
        _don(params),
        str(params.get("automatic", "none")),
        str(ctx.settings.get("fumble_range", "modified")) == "base",
        t("card.roll", actor=ctx.actor.name, what=label),
    )
    if len(_PREPARED) >= _PREPARED_SIZE:
        forget_oldest(_PREPARED)
    _PREPARED[(id(ctx.actor), id(world.settings), id(params))] = entry
    return entry


def _resolve_roll(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    params = action.params
    opponent: Actor | None = None
    if action.targets:
        opponent = world.actor(action.targets[0], "targets.0")
        if params.get("opposed_skill") is None and params.get("opposed_characteristic") is None:
            raise RulesError(
                "opposed_needs_what", t("error.opposed_needs_what"), "params.opposed_skill"
            )
        _what(
            context(world, opponent.id, "targets.0"),
            params,
            "opposed_skill",
            "opposed_characteristic",
        )
    check, label, mods, state = _roll(ctx, params, dice, "skill", "characteristic")
    sections = [check_lines(check, label, mods)]
    follow: tuple[FollowUp, ...] = ()
    outcome = outcome_of(check)
    if opponent is not None:
        answer = {
            k: params[k]
            for k in ("opposed_skill", "opposed_characteristic")
            if params.get(k) is not None
        }
        if params.get("opposed_multiplier") is not None and "opposed_characteristic" in answer:
            answer["multiplier"] = params["opposed_multiplier"]
        follow = (
            FollowUp(
                "oppose",
                t("follow.oppose"),
                "oppose",
                opponent.id,
                {
                    **{RENAMED.get(k, k): v for k, v in answer.items()},
                    "against_base": check.base,
                    "against_modifier": check.modifier,
                    "against_roll": check.roll if check.roll is not None else 0,
                    "against_grade": check.grade,
                },
                (ctx.actor.id,),
                ask=(
                    Param(
                        "modifier",
                        "int",
                        t("param.modifier"),
                        default=0,
                        minimum=-200,
                        maximum=200,
                    ),
                ),
            ),
        )
        sections.append(Section(None, (Line(t("line.opposed_pending", actor=opponent.name)),)))
    card = Card(
        kind="roll",
        title=t("card.roll", actor=ctx.actor.name, what=label),
        speaker=ctx.actor.id,
        dice=check.dice,
        outcome=outcome,
        sections=tuple(sections),
        actions=follow,
        target=opponent.id if opponent else None,
    )
    effects: tuple[Effect, ...] = (
        (ActorChange(ctx.actor.id, state, frozenset(), frozenset({"aiming"})),) if state else ()
    )
    return Resolution(action, (card,), effects)


def resolve_oppose(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The opponent's answer; the text's list decides ('Habilidades y características enfrentadas')."""
    ctx = context(world, action.actor_id)
    first_actor = world.actor(action.targets[0], "targets.0")
    params = action.params
    check, label, mods, state = _roll(ctx, params, dice, "skill", "characteristic")
    roll = int(params["against_roll"])
    base, modifier = int(params["against_base"]), int(params["against_modifier"])
    grade: Grade = GRADES.get(str(params["against_grade"])) or grade_roll(roll, base + modifier)
    first = Check(base, modifier, roll if roll else None, grade, ())
    winner = opposed_winner(first, check)
    if winner == "tie":
        outcome = Outcome("tie", t("outcome.tie"), None, 0)
        verdict = Line(t("line.tie_repeat"))
    else:
        name = first_actor.name if winner == "first" else ctx.actor.name
        won = winner == "second"
        outcome = Outcome(
            "success" if won else "failure",
            t("outcome.success" if won else "outcome.failure"),
            won,
            check.category - first.category,
        )
        verdict = Line(t("line.winner", actor=name), t(f"reason.{_reason(first, check)}"))
    card = Card(
        kind="oppose",
        title=t("card.oppose", first=first_actor.name, second=ctx.actor.name),
        speaker=ctx.actor.id,
        dice=check.dice,
        outcome=outcome,
        sections=(
            Section(
                t("section.first", actor=first_actor.name),
                (
                    Line(t("line.rolled"), first.roll or 0),
                    Line(t("line.chance"), f"{first.chance}%"),
                    Line(t(f"outcome.{first.grade}")),
                ),
            ),
            check_lines(check, label, mods),
            Section(None, (verdict,)),
        ),
        target=first_actor.id,
    )
    effects: tuple[Effect, ...] = (ActorChange(ctx.actor.id, state),) if state else ()
    return Resolution(action, (card,), effects)


def _reason(first: Check, second: Check) -> str:
    if first.fumble or second.fumble:
        return "fumble"
    if first.success != second.success:
        return "success"
    if first.critical != second.critical:
        return "critical"
    return "category"
