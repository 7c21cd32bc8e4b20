"""C/C manoeuvres: grapple (Apresar), hold a location (Sujetar), knockdown (Derribar), escape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cunchillos.checks import Modifier, TaResult, make_ta, opposed_winner
from rules.cunchillos.combat import hands_of
from rules.cunchillos.common import (
    Fighter,
    change,
    check_can_act,
    fighter,
    refuse,
    ta_lines,
    use_actions,
    what_label,
)
from rules.cunchillos.damage import damage_hits, knockdown_band
from rules.cunchillos.harm import land
from rules.cunchillos.health import timers_of
from rules.cunchillos.modifiers import condition_modifiers, round_modifiers, scene_modifiers
from rules.cunchillos.settings import Rules, rules_of
from rules.cunchillos.tables import (
    ARM_OF_HAND,
    ESCAPE_FAILURES_TO_SURRENDER,
    ESCAPE_STEPS,
    GRAPPLE_FAILED_RIVAL,
    HOLD_TA,
    KNOCKDOWN_BANDS,
    KNOCKDOWN_HELD,
)
from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    Line,
    Outcome,
    Resolution,
    Section,
    Text,
    World,
    t,
)

MANOEUVRES: tuple[str, ...] = ("grapple", "hold", "knockdown", "release")


def grapple_of(f: Fighter) -> Mapping[str, Any] | None:
    raw = f.state.get("grapple")
    return raw if isinstance(raw, Mapping) else None


def _card(
    kind: str,
    title: Text,
    who: Fighter,
    dice: tuple[Die, ...],
    outcome: Outcome | None,
    lines: list[Line],
    target: str,
) -> Card:
    return Card(kind, title, who.id, dice, outcome, (Section(None, tuple(lines)),), target=target)


def resolve_manoeuvre(world: World, action: Action, dice: DiceSource) -> Resolution:
    rules = rules_of(world.settings)
    att = fighter(world, action.actor_id)
    if action.targets[0] == att.id:
        raise refuse("self_target", "self_target", "targets.0")
    dfn = fighter(world, action.targets[0], "targets.0")
    mode = str(action.params["mode"])
    if mode == "release":
        held = grapple_of(dfn)
        if held is None or held.get("by") != att.id:
            raise refuse("not_holding", "not_holding", "targets.0", actor=dfn.name)
        lines = [Line(t("line.released", actor=att.name, target=dfn.name))]
        card = _card(
            "release",
            t("card.manoeuvre", actor=att.name, mode=t("mode.release")),
            att,
            (),
            None,
            lines,
            dfn.id,
        )
        return Resolution(action, (card,), (change(dfn, {"grapple": None}),))
    if dfn.state.get("dead"):
        raise refuse("target_dead", "target_dead", "targets.0", actor=dfn.name)
    check_can_act(att, physical=True)
    declared, _ = use_actions(att, world)
    mods = [
        *round_modifiers(att.sheet, att.state, rules),
        *condition_modifiers(att.state, True, rules),
        *scene_modifiers(action.params, attack=True),
    ]
    location = action.params.get("location")
    if mode == "hold":
        if not location:
            raise refuse("location_needed", "location_needed", "params.location")
        mods.append(Modifier("hold", HOLD_TA))
    held = grapple_of(dfn)
    if mode == "knockdown" and held is not None and held.get("kind") == "hold":
        mods.append(Modifier("knockdown_held", KNOCKDOWN_HELD))
    ta = make_ta(
        dice,
        "pelea",
        att.sheet.skill_value("pelea"),
        mods,
        rules,
        with_location=mode == "knockdown",
    )
    lines = [*ta_lines(att.name, ta, what_label(att.sheet, "pelea"))]
    att_state: dict[str, Any] = {"round": declared, "next_ta": 0}
    effects: list[Effect] = []
    dfn_state: dict[str, Any] = {}
    if not ta.success:
        if mode in ("grapple", "hold"):
            # 'Si falla, el rival tendrá un -5 en la próxima TA.'
            dfn_state["next_ta"] = GRAPPLE_FAILED_RIVAL
            lines.append(Line(t("line.rival_bonus", actor=dfn.name, value=GRAPPLE_FAILED_RIVAL)))
        else:
            lines.append(Line(t("line.manoeuvre_failed")))
    elif mode in ("grapple", "hold"):
        dfn_state["grapple"] = {
            "by": att.id,
            "kind": mode,
            "location": location,
            "losses": 0,
            "surrendered": False,
        }
        key = "line.grappled" if mode == "grapple" else "line.held"
        lines.append(
            Line(t(key, actor=dfn.name, location=t(f"loc.{location}") if location else ""))
        )
    else:
        _knockdown(ta, att, dfn, rules, lines, dfn_state)
    effects.append(change(att, att_state))
    if dfn_state:
        effects.append(change(dfn, dfn_state))
    outcome = Outcome(ta.level, t(f"level.{ta.level}"), ta.success, ta.margin)
    card = _card(
        mode,
        t("card.manoeuvre", actor=att.name, mode=t(f"mode.{mode}")),
        att,
        ta.roll.dice,
        outcome,
        lines,
        dfn.id,
    )
    resolution = Resolution(action, (card,), tuple(effects))
    if mode == "knockdown" and ta.success and rules.knockdown_hurts:
        assert ta.roll.location is not None
        hits = damage_hits(
            rules.knockdown_damage_type,
            ta.roll.high,
            ta.roll.low,
            ta.roll.location.first,
            rules.locations,
        )
        after = Fighter(dfn.actor, dfn.sheet, {**dfn.state, **dfn_state})
        hurt = land(
            world,
            action,
            after,
            hits,
            blunt=False,
            low=ta.roll.low,
            rules=rules,
            source=att,
            title=t("card.impact", actor=dfn.name),
        )
        hurt_state = hurt.effects[0].state if isinstance(hurt.effects[0], ActorChange) else {}
        hurt_change = change(dfn, {**dfn_state, **hurt_state})
        return Resolution(action, (card, *hurt.cards), (effects[0], hurt_change))
    return resolution


def _knockdown(
    ta: TaResult, att: Fighter, dfn: Fighter, rules: Rules, lines: list[Line], state: dict[str, Any]
) -> None:
    """'Resultado de derribar': the impact against the defender's Res."""
    assert ta.roll.location is not None
    hits = damage_hits(
        rules.knockdown_damage_type,
        ta.roll.high,
        ta.roll.low,
        ta.roll.location.first,
        rules.locations,
    )
    impact = sum(h.amount for h in hits)
    band = knockdown_band(impact, dfn.sheet.res)
    lines.append(
        Line(t("line.impact", impact=impact, res=dfn.sheet.res, kind=rules.knockdown_damage_type))
    )
    lines.append(Line(t(f"knockdown.{band}", actor=dfn.name)))
    _, stunned, incapacitated = next(b for b in KNOCKDOWN_BANDS if b[0] == band)
    timers = timers_of(dfn.state)
    timers["stunned"] = max(timers["stunned"], stunned)
    timers["incapacitated"] = max(timers["incapacitated"], incapacitated)
    state["timers"] = timers
    if band == "over_2res":
        state["prone"] = True
        state["knocked"] = True


def resolve_escape(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'El rival puede liberarse con una TA enfrentada de Fue'; both sides roll Fue."""
    rules = rules_of(world.settings)
    me = fighter(world, action.actor_id)
    held = grapple_of(me)
    if held is None:
        raise refuse("not_grappled", "not_grappled", "actor", actor=me.name)
    if held.get("surrendered"):
        raise refuse("surrendered", "surrendered", "actor", actor=me.name)
    check_can_act(me, physical=False)
    holder = fighter(world, str(held.get("by")), "actor")
    kind = str(held.get("kind", "grapple"))
    losses = int(held.get("losses", 0) or 0)
    step = ESCAPE_STEPS[kind][min(losses, 2)]
    mods = [
        *round_modifiers(me.sheet, me.state, rules),
        Modifier(f"escape_{kind}", step, str(losses)),
    ]
    pistol = _held_pistol(me, held)
    mine = make_ta(dice, "fue", me.sheet.fue, mods, rules, with_location=pistol)
    theirs = make_ta(
        dice,
        "fue",
        holder.sheet.fue,
        round_modifiers(holder.sheet, holder.state, rules),
        rules,
        role="holder",
        with_location=pistol,
    )
    free = opposed_winner(mine, theirs, rules)
    lines = [*ta_lines(me.name, mine, t("char.fue")), *ta_lines(holder.name, theirs, t("char.fue"))]
    state: dict[str, Any] = {"next_ta": 0}
    if free:
        state["grapple"] = None
        lines.append(Line(t("line.escaped", actor=me.name)))
    else:
        losses += 1
        surrendered = losses >= ESCAPE_FAILURES_TO_SURRENDER
        state["grapple"] = {**held, "losses": losses, "surrendered": surrendered}
        lines.append(
            Line(
                t(
                    "line.surrenders" if surrendered else "line.still_held",
                    actor=me.name,
                    losses=losses,
                )
            )
        )
    effects: list[Effect] = []
    cards: list[Card] = []
    for who, roll in ((me, mine), (holder, theirs)):
        if not pistol or roll.level != "fumble" or roll.roll.location is None:
            continue
        # 'si cualquiera de los contendientes pifia, recibe el daño normal del arma'
        weapon = me.sheet.weapon(str(hands_of(me)[_held_hand(held)]))
        hits = damage_hits(
            weapon.damage,
            roll.roll.high,
            roll.roll.low,
            roll.roll.location.first,
            rules.locations,
        )
        current = Fighter(who.actor, who.sheet, {**who.state, **(state if who is me else {})})
        title = t("card.pistol_discharge", actor=who.name)
        hurt = land(
            world,
            action,
            current,
            hits,
            blunt=False,
            low=roll.roll.low,
            rules=rules,
            source=None,
            title=title,
        )
        cards.extend(hurt.cards)
        hurt_state = hurt.effects[0].state if isinstance(hurt.effects[0], ActorChange) else {}
        if who is me:
            state = {**state, **hurt_state}
        else:
            effects.append(change(holder, hurt_state))
    effects.insert(0, change(me, state))
    outcome = Outcome(
        "success" if free else "failure",
        t("outcome.success" if free else "outcome.failure"),
        free,
        mine.margin - theirs.margin,
    )
    card = _card(
        "escape",
        t("card.escape", actor=me.name, holder=holder.name),
        me,
        (*mine.roll.dice, *theirs.roll.dice),
        outcome,
        lines,
        holder.id,
    )
    return Resolution(action, (card, *cards), tuple(effects))


def _held_hand(held: Mapping[str, Any]) -> str:
    location = held.get("location")
    return next((hand for hand, arm in ARM_OF_HAND.items() if arm == location), "derecha")


def _held_pistol(me: Fighter, held: Mapping[str, Any]) -> bool:
    """'Una pistola se puede sujetar': a hold on the arm whose hand carries a pistol."""
    if held.get("kind") != "hold" or held.get("location") not in ARM_OF_HAND.values():
        return False
    key = hands_of(me).get(_held_hand(held))
    return bool(key) and me.sheet.weapon(str(key)).pistol
