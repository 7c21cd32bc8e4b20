"""brp_d10 in the shared combat tracker (issue 8): the round's order, declarations, timed rules.

- Initiative, every round: 'El orden de actuación en el asalto lo determina la característica
  de Agilidad de los personajes, siendo que a igual Agilidad, se actúa al mismo tiempo.' The
  order is the timeline of the one-second round: one tracker slot per tenth of the second in
  which somebody acts (tenth = 11 - Agilidad, R7), its actors acting at once. Before the
  declarations each actor who can act sits at the tenth of its full Agilidad; once every
  declaration is in, the order becomes the declared actions tenth by tenth (a knight with two
  sword actions appears twice: 'el caballero francés haría su primera acción en la cuarta
  décima, luego el español ... en la sexta, a continuación el francés su segunda acción en la
  octava').
- Declarations before the round: 'hay que declarar lo que se va a hacer antes del asalto de
  combate, y una vez declarado, no puede cambiarse ... (yo declararé primero las acciones de
  todos los PNJs)': NPCs (actors without an owner) declare first, then the player characters,
  each group in initiative order; the plan is checked and stored as the ``initiative`` action
  does (the same function).
- Round end: one second passes (the death clocks of severed limbs and shock tick, each actor's
  count of actions, weapons, shots and bursts of the round is reset, plans are cleared: the
  same function as ``time_advance``), and an aim not kept up during the round is lost (R41).
- Combat end: the same as the ``end_combat`` action.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.brp_d10 import actions_health
from rules.brp_d10.actions_checks import PLANS_KEY, declaration, plan_slots, slot_line
from rules.brp_d10.cards import read_actor
from rules.brp_d10.combat import refuse
from rules.brp_d10.initiative import Slot as Step
from rules.brp_d10.initiative import tenth, timeline
from rules.brp_d10.state import RoundUse, characteristic
from rules.dice import DiceSource
from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    JsonMap,
    Line,
    Resolution,
    Section,
    Text,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.system import apply_effects
from rules.tracker import KEY, Combat, Initiative, Slot, to_json

ACTION = Action("combat", "", by_gm=True)
"""The Action the tracker hooks' resolutions carry (the table acts, not an actor)."""

CANNOT_ACT = frozenset({"dead", "unconscious", "incapacitated"})


def able(world: World, actor_id: str) -> bool:
    """Whether the actor can act this round (incapacitated, unconscious and dead ones cannot)."""
    return not world.actor(actor_id).statuses & CANNOT_ACT


def agility(world: World, actor_id: str) -> int:
    sheet, state = read_actor(world.actor(actor_id))
    return characteristic(sheet, state, "agilidad")


def ranked(world: World, combat: Combat) -> tuple[str, ...]:
    """Combatants who can act, fastest first (ties in the order they joined)."""
    fighters = [a for a in combat.actor_ids if able(world, a)]
    return tuple(sorted(fighters, key=lambda a: -agility(world, a)))


def _hidden(combat: Combat) -> frozenset[str]:
    return frozenset(c.actor_id for c in combat.combatants if c.hidden)


def round_order(world: World, combat: Combat, plans: Mapping[str, Any]) -> tuple[Slot, ...]:
    """The round as tracker slots, one per tenth with somebody acting in it, earliest first.

    Each slot's public data: ``tenth`` and ``actions`` -- every action in that tenth with its
    actor, ``step`` (1-based place in the actor's plan), ``kind``, ``weapon``, ``agilidad`` and
    ``instant`` (parries, R21); an actor who has not declared yet shows ``declared: false`` at
    its full Agilidad. A hidden combatant's actions show only whether it declared.
    """
    hidden = _hidden(combat)
    entries: list[tuple[int, str, dict[str, Any]]] = []
    for actor_id in ranked(world, combat):
        plan = plans.get(actor_id)
        if not plan:
            value = agility(world, actor_id)
            entries.append((tenth(value), actor_id, {"declared": False, "agilidad": value}))
            continue
        for step in plan_slots(world, actor_id, str(plan)):
            action: dict[str, Any] = {"declared": True}
            if actor_id not in hidden:
                action |= {
                    "step": step.index + 1,
                    "kind": step.kind,
                    "weapon": step.weapon,
                    "agilidad": step.agility,
                    "instant": step.instant,
                }
            entries.append((step.tenth, actor_id, action))
    by_tenth: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for when, actor_id, action in entries:
        by_tenth.setdefault(when, []).append((actor_id, action))
    slots: list[Slot] = []
    for when in sorted(by_tenth):
        group = by_tenth[when]
        actors = tuple(dict.fromkeys(actor_id for actor_id, _ in group))
        data: JsonMap = {
            "tenth": when,
            "actions": [{"actor": actor_id, **action} for actor_id, action in group],
        }
        slots.append(Slot(actors, t("line.tenth", tenth=when), data))
    return tuple(slots)


def initiative(world: World, combat: Combat, dice: DiceSource) -> Initiative:
    """This round's order before the declarations, and who declares in which order."""
    del dice
    fighters = ranked(world, combat)
    npcs = tuple(a for a in fighters if world.actor(a).owner is None)
    pcs = tuple(a for a in fighters if world.actor(a).owner is not None)
    data: JsonMap = {
        "agilidad": {a: agility(world, a) for a in combat.actor_ids},
        "plans": {},
    }
    return Initiative(round_order(world, combat, {}), data=data, declare_order=npcs + pcs)


def round_start(world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
    """The first round starts clean: plans and round counts left from before the fight go
    (later rounds were cleared by the end of the one before: nothing runs twice)."""
    del dice
    if combat.round != 1:
        return None
    effects: list[Effect] = []
    if world.data.get(PLANS_KEY):
        effects.append(WorldChange({PLANS_KEY: {}}))
    for actor_id in combat.actor_ids:
        _, state = read_actor(world.actor(actor_id))
        if state.round != RoundUse():
            effects.append(ActorChange(actor_id, {"round": RoundUse().to_json()}))
    return Resolution(ACTION, (), tuple(effects)) if effects else None


def _timeline_card(world: World, combat: Combat, plans: Mapping[str, Any]) -> Card:
    hidden = _hidden(combat)
    steps: list[Step] = []
    for actor_id in ranked(world, combat):
        if plans.get(actor_id):
            steps.extend(plan_slots(world, actor_id, str(plans[actor_id])))
    unknown: Text = t("tracker.hidden")
    lines: list[Line] = []
    for _, group in timeline(tuple(steps)):
        lines.extend(
            slot_line(world, step, unknown if step.actor_id in hidden else None) for step in group
        )
    return Card(
        "round_order",
        t("card.round_order"),
        None,
        sections=(Section(t("line.round", round=combat.round), tuple(lines)),),
    )


def declare(
    world: World, combat: Combat, actor_id: str, params: JsonMap, dice: DiceSource
) -> Resolution:
    """One actor's declaration (``{"plan": "attack:espada,parry:espada"}``), checked and stored
    as the ``initiative`` action does. The last one completes the round's timeline: the order is
    rebuilt from every plan and its card shown."""
    del dice
    if not able(world, actor_id):
        # it fell before declaring: nothing to declare, no place in the round
        cards: tuple[Card, ...] = ()
        effects: tuple[Effect, ...] = ()
    else:
        plan = params.get("plan")
        if not isinstance(plan, str) or not plan.strip():
            raise refuse("plan_required", "params.plan")
        card, changes = declaration(world, actor_id, plan.strip(), True, True)
        if actor_id in _hidden(combat):
            card = replace(card, visibility="gm")
        cards, effects = (card,), changes
    pending = [a for a in combat.declare_order if a not in combat.declared and a != actor_id]
    if pending:
        return Resolution(ACTION, cards, effects)
    declared = apply_effects(world, effects)
    stored = declared.data.get(PLANS_KEY, {})
    plans = {a: stored[a] for a in ranked(declared, combat) if a in stored}
    order = round_order(declared, combat, plans)
    complete = replace(combat, order=order, data={**combat.data, "plans": plans})
    return Resolution(
        ACTION,
        (*cards, _timeline_card(declared, combat, plans)),
        (*effects, WorldChange({KEY: to_json(complete)})),
    )


def round_end(world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
    """A second passes (the ``time_advance`` round, run once per tracker round) and an aim kept
    up for nothing this round lapses (R41)."""
    passed = actions_health.advance(world, TimeStep("round"), dice)
    if passed is None:  # pragma: no cover - advance always answers
        return None
    changes: list[Effect] = []
    sections: list[Section] = []
    for actor_id in combat.actor_ids:
        actor = world.actor(actor_id)
        if "dead" in actor.statuses:
            continue
        sheet, state = read_actor(actor)
        if state.aim_rounds and not state.round.busy:
            # 'se apunta primero, durante uno o dos asaltos completos, y se dispara al siguiente
            # asalto': a round spent neither aiming nor shooting with it ends the aim.
            weapon = sheet.weapons.get(state.aim_weapon)
            label = weapon.label if weapon else state.aim_weapon
            changes.append(
                ActorChange(
                    actor_id,
                    {"aim": {"weapon": "", "rounds": 0}},
                    remove=frozenset({"aiming"}) & actor.statuses,
                )
            )
            sections.append(
                Section(t("raw", text=actor.name), (Line(t("line.aim_lost", weapon=label)),))
            )
    cards = passed.cards
    if sections:
        cards = (replace(cards[0], sections=cards[0].sections + tuple(sections)), *cards[1:])
    return Resolution(ACTION, cards, (*passed.effects, *changes))


def end(world: World, combat: Combat, dice: DiceSource) -> Resolution:
    """The fight is over: what the ``end_combat`` action does (the same function)."""
    del combat, dice
    return actions_health.end_of_combat(world, ACTION)
