"""The round: declarations, initiative order, free-standing TA, drawing, ambush, time passing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.cunchillos.checks import Modifier, make_ta
from rules.cunchillos.combat import broken_of, hands_of
from rules.cunchillos.common import (
    Fighter,
    change,
    check_can_act,
    check_declaration_turn,
    fighter,
    first_round_of,
    refuse,
    ta_lines,
    use_actions,
    what_label,
)
from rules.cunchillos.health import pass_rounds
from rules.cunchillos.initiative import (
    InitiativeEntry,
    declaration_of,
    declaration_order,
    schedule,
    tied,
)
from rules.cunchillos.modifiers import condition_modifiers, round_modifiers, scene_modifiers
from rules.cunchillos.order import entries, rescheduled, store_order
from rules.cunchillos.settings import rules_of
from rules.dice import DiceSource
from rules.memo import forget_oldest
from rules.model import (
    Action,
    Card,
    Effect,
    Line,
    Outcome,
    Resolution,
    Section,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.params import CheckedParams
from rules.tracker import combat_of

MENTAL_CHARACTERISTICS: frozenset[str] = frozenset({"int", "per", "vol", "car", "pod", "emp"})
ROUNDS_PER: dict[str, int] = {"round": 1, "minute": 0, "hour": 60, "day": 24 * 60}


def resolve_declare(world: World, action: Action, *, by_tracker: bool = False) -> Resolution:
    """'Decir qué se va a hacer en ese asalto'; a second declaration before any TA is a change.

    With the combat tracker running, declarations go through ``combat_declare``
    (``by_tracker``); afterwards a ``declare`` is a change and moves the actor's actions."""
    f = fighter(world, action.actor_id)
    p = action.params
    old = declaration_of(f.state)
    check_declaration_turn(world, f)
    combat = combat_of(world)
    if combat is not None and f.id in combat.actor_ids and not by_tracker:
        if combat.phase == "declare":
            raise refuse("use_combat_declare", "use_combat_declare", "action", actor=f.name)
        slot = combat.current
        if f.id in combat.acted or (slot is not None and f.id in slot.actors):
            raise refuse("already_acted", "turn_came", "actor", actor=f.name)
    if int(old.get("used", 0) or 0) > 0:
        raise refuse("already_acted", "already_acted", "actor", actor=f.name)
    movement = str(p.get("movement", "walk"))
    actions = int(p.get("actions", 1))
    if movement == "sprint" and actions > 0:
        raise refuse("sprint_no_actions", "sprint_no_actions", "params.actions")
    if movement != "sprint" and actions < 1:
        raise refuse("invalid_actions", "invalid_actions", "params.actions")
    defence = str(p.get("defence", "none"))
    extra = (1 if movement == "fast" else 0) + (1 if defence == "dodge" else 0)
    two = bool(p.get("two_weapons", False))
    if two and actions < 2:
        raise refuse("two_weapons_two_actions", "two_weapons_two_actions", "params.two_weapons")
    if extra > actions and movement != "sprint":
        raise refuse("not_enough_actions", "not_enough_actions", "params.actions", actions=actions)
    changed = bool(old.get("declared")) or bool(old.get("changed"))
    declared: dict[str, Any] = {
        "declared": True,
        "actions": actions,
        "used": extra,
        "raise": int(p.get("raise", "0")),
        "defence": defence,
        "movement": movement,
        "withdraw": bool(p.get("withdraw", False)),
        "two_weapons": two,
        "changed": changed,
    }
    lines = [
        Line(
            t(
                "line.declared",
                actor=f.name,
                actions=actions,
                movement=t(f"movement.{movement}"),
                defence=t(f"defence.{defence}"),
            )
        )
    ]
    if declared["raise"]:
        lines.append(Line(t("line.raise", value=declared["raise"])))
    if changed:
        lines.append(Line(t("line.changed")))
    if declared["withdraw"]:
        lines.append(Line(t("line.withdraw_declared")))
    card = Card(
        "declare", t("card.declare", actor=f.name), f.id, sections=(Section(None, tuple(lines)),)
    )
    effects: list[Effect] = [change(f, {"round": declared})]
    if combat is not None and f.id in combat.actor_ids and not by_tracker:
        moved = Fighter(f.actor, f.sheet, {**f.state, "round": declared})
        order = rescheduled(combat, moved, first_round_of(world))
        effects.append(store_order(combat, order))
    return Resolution(action, (card,), tuple(effects))


def resolve_initiative(world: World, action: Action) -> Resolution:
    """Order every chosen actor (all when no target is given), declarations and action slots.

    With the combat tracker running, its rounds do this (``combat_running``)."""
    if combat_of(world) is not None:
        raise refuse("combat_running", "combat_running", "action")
    data = dict(world.data.get("cunchillos", {}) or {})
    round_no = int(data.get("round", 0) or 0) + 1
    ids = action.targets or tuple(world.actors)
    for i, actor_id in enumerate(ids):
        world.actor(actor_id, f"targets.{i}")
    _, card, change_data = open_round(world, ids, round_no)
    return Resolution(action, (card,), (change_data,))


def open_round(
    world: World, ids: Sequence[str], round_no: int
) -> tuple[tuple[InitiativeEntry, ...], Card, WorldChange]:
    """'1º Determinar el orden de iniciativa': the order, its card and the round's data
    (shared by the ``initiative`` action and the combat tracker)."""
    order = entries(world, ids, round_no == 1)
    by_id = {a: fighter(world, a) for a in ids}
    lines: list[Line] = []
    for position, entry in enumerate(order):
        together = position > 0 and tied(entry, order[position - 1])
        lines.append(
            Line(
                t(
                    "line.initiative",
                    position=position + 1,
                    actor=entry.name,
                    primary=entry.primary,
                    secondary=entry.secondary,
                )
            )
        )
        if together:
            lines.append(Line(t("line.tied", actor=entry.name)))
        lines.extend(Line(m.label, f"{m.value:+d}") for m in entry.modifiers)
    declare = tuple(t("raw", text=e.name) for e in declaration_order(order))
    lines.append(Line(t("line.declaration_order", names=declare)))
    actions = {
        e.actor_id: int(declaration_of(by_id[e.actor_id].state).get("actions", 1) or 1)
        for e in order
    }
    two = {
        e.actor_id: bool(declaration_of(by_id[e.actor_id].state).get("two_weapons")) for e in order
    }
    slots = schedule(order, actions, two)
    lines.extend(
        Line(
            t("line.slot", initiative=s.initiative, actor=by_id[s.actor_id].name, index=s.index + 1)
        )
        for s in slots
    )
    data = dict(world.data.get("cunchillos", {}) or {})
    data.update(
        {
            "round": round_no,
            "order": [e.actor_id for e in order],
            "attackers": {},
            "running": True,
        }
    )
    card = Card(
        "initiative",
        t("card.initiative", round=round_no),
        None,
        sections=(Section(None, tuple(lines)),),
    )
    return order, card, WorldChange({"cunchillos": data})


_TA_SIZE = 1024
_TA: dict[tuple[int, int, int], tuple[Any, ...]] = {}
"""Prepared TAs: by the actor object, the settings object and the checked parameters (all
immutable; each entry holds them, so their ids are not reused), what a TA that does not
count as an action reads besides the dice: the checks passed, the value and modifiers."""


def resolve_ta(world: World, action: Action, dice: DiceSource) -> Resolution:
    """A plain TA on a skill or a characteristic (Alerta, Fue...)."""
    p = action.params
    prepared = type(p) is CheckedParams and not p.get("counts_as_action")
    if prepared:
        actor = world.actors.get(action.actor_id)
        settings = world.settings
        hit = _TA.get((id(actor), id(settings), id(p)))
        if hit is not None and hit[0] is actor and hit[1] is settings and hit[2] is p:
            _, _, _, f, what, value, mods = hit
            return _ta_card(world, action, f, what, value, list(mods), dice, {"next_ta": 0}, "ta")
    f = fighter(world, action.actor_id)
    skill, char = p.get("skill"), p.get("characteristic")
    if bool(skill) == bool(char):
        raise refuse("skill_or_characteristic", "skill_or_characteristic", "params.skill")
    if skill:
        if skill not in f.sheet.skills:
            raise refuse(
                "no_such_skill", "no_such_skill", "params.skill", actor=f.name, skill=str(skill)
            )
        key, value, physical = (
            str(skill),
            f.sheet.skills[str(skill)].value,
            f.sheet.skills[str(skill)].kind == "fisica",
        )
    else:
        if char not in f.sheet.characteristics:
            raise refuse(
                "no_such_characteristic",
                "no_such_characteristic",
                "params.characteristic",
                actor=f.name,
                characteristic=str(char),
            )
        key, value, physical = (
            str(char),
            f.sheet.characteristics[str(char)],
            str(char) not in MENTAL_CHARACTERISTICS,
        )
    check_can_act(f, physical=physical)
    state: dict[str, Any] = {"next_ta": 0}
    if p.get("counts_as_action"):
        state["round"], _ = use_actions(f, world)
    mods = [
        *round_modifiers(f.sheet, f.state, rules_of(world.settings)),
        *condition_modifiers(f.state, physical, rules_of(world.settings)),
        *scene_modifiers(p, attack=False),
    ]
    if prepared:
        if len(_TA) >= _TA_SIZE:
            forget_oldest(_TA)
        _TA[(id(f.actor), id(world.settings), id(p))] = (
            f.actor,
            world.settings,
            p,
            f,
            key,
            value,
            tuple(mods),
        )
    return _ta_card(world, action, f, key, value, mods, dice, state, "ta")


def _ta_card(
    world: World,
    action: Action,
    f: Fighter,
    key: str,
    value: int,
    mods: list[Modifier],
    dice: DiceSource,
    state: dict[str, Any],
    kind: str,
) -> Resolution:
    rules = rules_of(world.settings)
    result = make_ta(dice, key, value, mods, rules)
    label = what_label(f.sheet, key)
    lines = list(ta_lines(f.name, result, label))
    if kind == "ambush" and not result.success:
        state["ambushed"] = True
        lines.append(Line(t("line.ambushed", actor=f.name)))
    outcome = Outcome(result.level, t(f"level.{result.level}"), result.success, result.margin)
    card = Card(
        kind,
        t(f"card.{kind}", actor=f.name, what=label),
        f.id,
        result.roll.dice,
        outcome,
        (Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), (change(f, state),))


def resolve_ambush(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Emboscada: Se realiza una TA Alerta y en caso de fallo: -5 Iniciativa en el 1º turno'."""
    f = fighter(world, action.actor_id)
    check_can_act(f, physical=False)
    mods = [
        *condition_modifiers(f.state, False, rules_of(world.settings)),
        *scene_modifiers(action.params, attack=False),
    ]
    return _ta_card(
        world, action, f, "alerta", f.sheet.skill_value("alerta"), mods, dice, {}, "ambush"
    )


def resolve_act(world: World, action: Action) -> Resolution:
    """Actions without a TA that still count: draw a weapon, stand up, move fast, anything else."""
    f = fighter(world, action.actor_id)
    check_can_act(f, physical=True)
    p = action.params
    what = str(p["what"])
    if what == "pass":
        # Giving up the rest of the round's actions, so the order can move on.
        declared = dict(declaration_of(f.state))
        declared["actions"] = int(declared.get("actions", 1) or 1)
        declared["used"] = declared["actions"]
    else:
        declared, _ = use_actions(f, world)
    state: dict[str, Any] = {"round": declared}
    lines = [Line(t(f"act.{what}", actor=f.name))]
    if what == "draw":
        key = str(p.get("weapon") or "")
        if key not in f.sheet.weapons:
            raise refuse(
                "no_such_weapon", "no_such_weapon", "params.weapon", actor=f.name, weapon=key
            )
        if key in broken_of(f):
            raise refuse("weapon_broken", "weapon_broken", "params.weapon", actor=f.name)
        hand = str(p.get("hand") or f.sheet.main_hand)
        hands = hands_of(f)
        hands[hand] = key
        state["hands"] = hands
        lines.append(
            Line(t("line.in_hand", weapon=f.sheet.weapons[key].label, hand=t(f"hand.{hand}")))
        )
    elif what == "stand":
        if not f.state.get("prone"):
            raise refuse("not_prone", "not_prone", "params.what", actor=f.name)
        state["prone"] = False
    card = Card("act", t("card.act", actor=f.name), f.id, sections=(Section(None, tuple(lines)),))
    return Resolution(action, (card,), (change(f, state),))


def advance(world: World, step: TimeStep) -> Resolution | None:
    """Rounds (or minutes, hours, days) pass: bleeding, timers, and the round's bookkeeping."""
    rules = rules_of(world.settings)
    per = ROUNDS_PER[step.unit] or 1
    rounds = max(0, step.count) * (per if step.unit == "round" else per * rules.rounds_per_minute)
    if rounds == 0:
        return None
    effects: list[Effect] = []
    lines: list[Line] = []
    for actor_id in world.actors:
        f = fighter(world, actor_id)
        before = f.state
        after = pass_rounds(before, f.sheet, rounds, rules)
        pending = before.get("dodge_penalty")
        after["dodge_penalty"] = "active" if pending == "pending" and rounds == 1 else None
        after.update({"round": {}, "round_damage": 0, "ambushed": False})
        effects.append(change(f, after))
        pv_before, pv_after = before.get("pv"), after.get("pv")
        if pv_before != pv_after and isinstance(pv_after, int):
            lines.append(Line(t("line.bleeds", actor=f.name, pv=pv_after)))
        if after.get("dead") and not before.get("dead"):
            lines.append(Line(t("line.dies", actor=f.name)))
    data = dict(world.data.get("cunchillos", {}) or {})
    data["attackers"] = {}
    data["running"] = False
    effects.append(WorldChange({"cunchillos": data}))
    card = Card(
        "time",
        t(f"card.time_{step.unit}", count=step.count),
        None,
        sections=(Section(None, tuple(lines)),),
        visibility="gm",
    )
    return Resolution(
        Action("advance_time", "", {"unit": step.unit, "count": step.count}, by_gm=True),
        (card,),
        tuple(effects),
    )
