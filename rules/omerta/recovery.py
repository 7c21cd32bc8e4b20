"""Recovery by care: First Aid (and saving the bleeding), bullet extraction, medical care.

'Superar una tirada de Primeros auxilios hará que se recuperen 1D4 puntos de vida. Un crítico
recuperará 4 ... una pifa conllevará perder 1D4.' 'cada herida ... sólo puede ser atendida con
éxito una sola vez por día.' 'una tirada de Medicina por cada una de las heridas de bala ...
cada fallo conllevará que el herido pierda 1 punto de vida ... pifia ... 1D4'.
"""

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
    World,
    t,
)
from rules.omerta.checks import Check, roll_check
from rules.omerta.combat import (
    Ctx,
    Modifier,
    action_modifiers,
    check_lines,
    context,
    in_combat,
    outcome_of,
    require_able,
    skill_label,
    spend_action,
)
from rules.omerta.damage import Hit, take_hits
from rules.omerta.sheet import parse_sheet
from rules.omerta.state import Clock, clock, hp, wounds
from rules.omerta.tables import (
    BLEED_GRACE_ROUNDS,
    BLEED_PENALTY_PER_ROUND,
    EXTRACTION_FAIL_LOSS,
    EXTRACTION_FUMBLE_DIE,
    EXTRACTION_MODIFIERS,
    FIRST_AID_CRITICAL,
    FIRST_AID_DIE,
)
from rules.rolls import roll_die

FIRST_AID = "primeros_auxilios"
MEDICINE = "medicina"


def bleeding_penalty(patient: Actor, now: Clock) -> int:
    """'antes de 5 asaltos. Esta tirada tendrá un -10% por cada asalto posterior'."""
    since = patient.state.get("bleeding_since")
    if since is None:
        return 0
    elapsed = max(0, (now.time - int(since)) // now.round_seconds)
    return BLEED_PENALTY_PER_ROUND * max(0, elapsed - (BLEED_GRACE_ROUNDS - 1))


def _patient(world: World, action: Action) -> Actor:
    patient = world.actor(action.targets[0], "targets.0")
    if "dead" in patient.statuses:
        raise RulesError("target_dead", t("error.target_dead", actor=patient.name), "targets.0")
    return patient


def _lose(
    patient: Actor, amount: int, now: Clock
) -> tuple[dict[str, Any], frozenset[str], tuple[Line, ...]]:
    outcome = take_hits(
        patient, parse_sheet(patient.sheet), (Hit(amount, "lethal", None, False, False),), now
    )
    return dict(outcome.state), outcome.add, outcome.lines


def _card(
    kind: str,
    ctx: Ctx,
    patient: Actor,
    check: Check,
    mods: tuple[Modifier, ...],
    skill: str,
    dice: tuple[Die, ...],
    lines: list[Line],
    actions: tuple[FollowUp, ...] = (),
) -> Card:
    return Card(
        kind=kind,
        title=t(f"card.{kind}", actor=ctx.actor.name, patient=patient.name),
        speaker=ctx.actor.id,
        dice=(*check.dice, *dice),
        outcome=outcome_of(check),
        sections=(
            check_lines(check, skill_label(ctx.sheet, skill), mods),
            Section(t("section.effects"), tuple(lines)),
        ),
        actions=actions,
        target=patient.id,
    )


def resolve_first_aid(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    patient = _patient(world, action)
    if "bleeding" in patient.statuses:
        return _stabilize(ctx, action, patient, dice)
    sheet = parse_sheet(patient.sheet)
    wound = _pick_wound(ctx, patient, action.params.get("wound"))
    mods = action_modifiers(ctx, int(action.params.get("modifier", 0)), combat=in_combat(ctx.world))
    check = roll_check(
        dice, ctx.sheet.skill(FIRST_AID), sum(m.value for m in mods), role="first_aid"
    )
    rolled: list[Die] = []
    lines: list[Line] = [
        Line(t("line.wound", id=wound["id"], kind=t(f"wound.{wound['kind']}")), wound["damage"])
    ]
    found = wounds(patient)
    today = ctx.now.day
    for item in found:
        if item["id"] == wound["id"]:
            tried = list(item.get("tried_by", [])) if item.get("tried_day") == today else []
            item["tried_by"] = [*tried, ctx.actor.id]
            item["tried_day"] = today
            if check.success:
                item["treated_day"] = today
    state: dict[str, Any] = {"wounds": found}
    add: frozenset[str] = frozenset()
    if check.success:
        if check.critical:
            amount = FIRST_AID_CRITICAL
        else:
            die = roll_die(dice, FIRST_AID_DIE, "healing")
            rolled.append(die)
            amount = die.total
        after = min(sheet.hp, hp(patient) + amount)
        state["hp"] = after
        if wound["kind"] == "contusion":
            state["contusion"] = max(0, int(patient.state.get("contusion", 0)) - amount)
        lines.append(
            Line(
                t("line.healed", actor=patient.name, amount=amount, before=hp(patient), after=after)
            )
        )
    elif check.fumble:
        die = roll_die(dice, FIRST_AID_DIE, "blood_loss")
        rolled.append(die)
        lost, add, lost_lines = _lose(patient, die.total, ctx.now)
        lost.pop("wounds", None)
        state.update(lost)
        lines.extend(lost_lines)
    else:
        lines.append(Line(t("line.not_healed")))
    effects: list[Effect] = [ActorChange(patient.id, state, add)]
    if patient.id != ctx.actor.id:
        effects.insert(0, ActorChange(ctx.actor.id, spend_action(ctx, count=True, physical=False)))
    else:
        state.update(spend_action(ctx, physical=False))
    return Resolution(
        action,
        (_card("first_aid", ctx, patient, check, mods, FIRST_AID, tuple(rolled), lines),),
        tuple(effects),
    )


def _pick_wound(ctx: Ctx, patient: Actor, wanted: Any) -> dict[str, Any]:
    found = wounds(patient)
    today = ctx.now.day

    def problem(item: Mapping[str, Any]) -> str | None:
        if item.get("kind") == "bullet" and not item.get("extracted"):
            return "bullet_not_extracted"
        if item.get("treated_day") == today:
            return "wound_treated_today"
        if item.get("tried_day") == today and ctx.actor.id in item.get("tried_by", []):
            return "already_tried_today"
        return None

    if wanted is not None:
        for item in found:
            if item.get("id") == wanted:
                code = problem(item)
                if code:
                    raise RulesError(code, t(f"error.{code}", wound=int(wanted)), "params.wound")
                return item
        raise RulesError(
            "unknown_wound", t("error.unknown_wound", wound=str(wanted)), "params.wound"
        )
    codes = []
    for item in found:
        code = problem(item)
        if code is None:
            return item
        codes.append(code)
    code = codes[0] if codes else "no_wound_to_treat"
    raise RulesError(code, t(f"error.{code}", wound=found[0]["id"] if found else 0), "params.wound")


def _stabilize(ctx: Ctx, action: Action, patient: Actor, dice: DiceSource) -> Resolution:
    """'La única forma de recuperar la conciencia es ... Primeros Auxilios antes de 5 asaltos ...
    con un éxito, el PJ se queda automáticamente a 0 y acto seguido, recupera 1D4 PV.'"""
    mods = list(
        action_modifiers(ctx, int(action.params.get("modifier", 0)), combat=in_combat(ctx.world))
    )
    late = bleeding_penalty(patient, ctx.now)
    if late:
        mods.append(Modifier("late_aid", -late))
    check = roll_check(
        dice, ctx.sheet.skill(FIRST_AID), sum(m.value for m in mods), role="first_aid"
    )
    rolled: list[Die] = []
    lines: list[Line] = []
    state: dict[str, Any] = {}
    add: frozenset[str] = frozenset()
    remove: frozenset[str] = frozenset()
    if check.success:
        if check.critical:
            amount = FIRST_AID_CRITICAL
        else:
            die = roll_die(dice, FIRST_AID_DIE, "healing")
            rolled.append(die)
            amount = die.total
        state = {
            "hp": min(parse_sheet(patient.sheet).hp, amount),
            "bleeding_since": None,
            "unconscious_until": None,
        }
        remove = frozenset({"bleeding", "unconscious"})
        lines.append(Line(t("line.stabilized", actor=patient.name, amount=amount)))
    elif check.fumble:
        die = roll_die(dice, FIRST_AID_DIE, "blood_loss")
        rolled.append(die)
        state = {"hp": hp(patient) - die.total}
        lines.append(Line(t("line.lost_blood", actor=patient.name, amount=die.total)))
    else:
        lines.append(Line(t("line.still_bleeding", actor=patient.name)))
    effects: list[Effect] = [
        ActorChange(ctx.actor.id, spend_action(ctx, physical=False)),
        ActorChange(patient.id, state, add, remove),
    ]
    return Resolution(
        action,
        (_card("stabilize", ctx, patient, check, tuple(mods), FIRST_AID, tuple(rolled), lines),),
        tuple(effects),
    )


def resolve_extraction(world: World, action: Action, dice: DiceSource) -> Resolution:
    ctx = context(world, action.actor_id)
    require_able(ctx)
    patient = _patient(world, action)
    pending = [w for w in wounds(patient) if w.get("kind") == "bullet" and not w.get("extracted")]
    if not pending:
        raise RulesError("no_bullet", t("error.no_bullet", actor=patient.name), "targets.0")
    wanted = action.params.get("wound")
    wound = (
        pending[0] if wanted is None else next((w for w in pending if w.get("id") == wanted), None)
    )
    if wound is None:
        raise RulesError(
            "unknown_wound", t("error.unknown_wound", wound=str(wanted)), "params.wound"
        )
    mods = list(
        action_modifiers(ctx, int(action.params.get("modifier", 0)), combat=in_combat(ctx.world))
    )
    for key, value in EXTRACTION_MODIFIERS.items():
        if action.params.get(key):
            mods.append(Modifier(key, value))
    check = roll_check(dice, ctx.sheet.skill(MEDICINE), sum(m.value for m in mods), role="medicine")
    rolled: list[Die] = []
    lines: list[Line] = [
        Line(t("line.wound", id=wound["id"], kind=t("wound.bullet")), wound["damage"])
    ]
    state: dict[str, Any] = {}
    add: frozenset[str] = frozenset()
    remove: frozenset[str] = frozenset()
    follow: tuple[FollowUp, ...] = ()
    if check.success:
        found = wounds(patient)
        for item in found:
            if item["id"] == wound["id"]:
                item["extracted"] = True
        state = {"wounds": found, "disabled": []}
        remove = frozenset({"impaired"})
        lines.append(Line(t("line.extracted", id=wound["id"])))
        lines.append(Line(t("line.first_aid_allowed")))
        follow = (
            FollowUp(
                "first_aid",
                t("follow.first_aid"),
                "first_aid",
                ctx.actor.id,
                {"wound": wound["id"]},
                (patient.id,),
            ),
        )
    else:
        if check.fumble:
            die = roll_die(dice, EXTRACTION_FUMBLE_DIE, "blood_loss")
            rolled.append(die)
            loss = die.total
        else:
            loss = EXTRACTION_FAIL_LOSS
        lines.append(Line(t("line.extraction_failed", actor=patient.name, amount=loss)))
        state, add, lost_lines = _lose(patient, loss, ctx.now)
        state.pop("wounds", None)
        state.pop("next_wound", None)
        lines.extend(lost_lines)
        follow = (
            FollowUp(
                "retry",
                t("follow.retry_extraction"),
                "extract_bullet",
                ctx.actor.id,
                {"wound": wound["id"]},
                (patient.id,),
            ),
        )
    effects: list[Effect] = [ActorChange(patient.id, state, add, remove)]
    if patient.id != ctx.actor.id:
        effects.insert(0, ActorChange(ctx.actor.id, spend_action(ctx, physical=False)))
    card = _card(
        "extract_bullet", ctx, patient, check, tuple(mods), MEDICINE, tuple(rolled), lines, follow
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_medical_care(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Una tirada de Medicina ayuda a la recuperación siempre y cuando se obtenga un éxito'."""
    ctx = context(world, action.actor_id)
    require_able(ctx)
    patient = _patient(world, action)
    mods = action_modifiers(ctx, int(action.params.get("modifier", 0)), combat=in_combat(ctx.world))
    check = roll_check(dice, ctx.sheet.skill(MEDICINE), sum(m.value for m in mods), role="medicine")
    lines: list[Line] = []
    state: dict[str, Any] = {}
    remove: frozenset[str] = frozenset()
    if check.success:
        state = {"medicine_day": ctx.now.day, "disabled": []}
        remove = frozenset({"impaired"})
        lines.extend(Line(t(f"line.care_{key}")) for key in ("no_loss", "double", "poison"))
    else:
        lines.append(Line(t("line.care_failed")))
    effects: list[Effect] = [ActorChange(patient.id, state, frozenset(), remove)]
    return Resolution(
        action,
        (_card("medical_care", ctx, patient, check, mods, MEDICINE, (), lines),),
        tuple(effects),
    )


def now_of(world: World) -> Clock:
    return clock(world)
