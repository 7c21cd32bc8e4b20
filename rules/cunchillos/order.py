"""The round's order as the combat tracker's slots (RULES.md 42).

'1º Determinar el orden de iniciativa ... 2º Decir qué se va a hacer en ese asalto en
orden contrario a su iniciativa ... 3º Realizar las acciones siguiendo el orden de la
iniciativa. La 1ª acción se realizará en su Iniciativa, la segunda en su Inic -5...'

Before the declarations the order is one slot per fighter (primary, secondary); once
everyone has declared it is one slot per step of the schedule, each naming the action
numbers its actors take there. Fighters with the same step and secondary share a slot:
they act at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from rules.cunchillos.common import Fighter, able, fighter
from rules.cunchillos.initiative import (
    InitiativeEntry,
    action_steps,
    declaration_of,
    entry_for,
    initiative_order,
)
from rules.model import World, WorldChange, t
from rules.tracker import KEY, Combat, Slot, to_json

Step = tuple[int, int, str, int]
"""(initiative, secondary, actor, action number from 1) of one scheduled action."""


def entries(
    world: World, actor_ids: Iterable[str], first_round: bool
) -> tuple[InitiativeEntry, ...]:
    """The living fighters' initiative, highest first."""
    fighters = [fighter(world, a) for a in actor_ids]
    return initiative_order(
        entry_for(f.id, f.name, f.sheet, f.state, first_round)
        for f in fighters
        if not f.state.get("dead")
    )


def initiative_slots(order: Sequence[InitiativeEntry]) -> tuple[Slot, ...]:
    """One slot per (primary, secondary): the order before the declarations."""
    slots: list[Slot] = []
    for entry in order:
        key = {"primary": entry.primary, "secondary": entry.secondary}
        if slots and dict(slots[-1].data) == key:
            slots[-1] = replace(slots[-1], actors=(*slots[-1].actors, entry.actor_id))
            continue
        label = t("tracker.initiative", primary=entry.primary, secondary=entry.secondary)
        slots.append(Slot((entry.actor_id,), label, key))
    return tuple(slots)


def declarers(world: World, order: Sequence[InitiativeEntry]) -> tuple[str, ...]:
    """'de menor iniciativa a mayor': the fighters able to act, lowest first."""
    return tuple(e.actor_id for e in reversed(order) if able(fighter(world, e.actor_id)))


def fighter_steps(f: Fighter, first_round: bool) -> list[Step]:
    """The declared actions ``f`` still has this round, at their steps."""
    declared = declaration_of(f.state)
    if not declared.get("declared") or declared.get("movement") == "sprint" or not able(f):
        return []
    actions = int(declared.get("actions", 1) or 1)
    used = int(declared.get("used", 0) or 0)
    entry = entry_for(f.id, f.name, f.sheet, f.state, first_round)
    steps = action_steps(entry.primary, actions, bool(declared.get("two_weapons")))
    return [(steps[i], entry.secondary, f.id, i + 1) for i in range(used, actions)]


def step_slots(steps: Iterable[Step]) -> tuple[Slot, ...]:
    """Slots in the order the actions happen; the same (initiative, secondary) act at once."""
    ordered = sorted(steps, key=lambda s: (-s[0], -s[1], s[2], s[3]))
    slots: list[Slot] = []
    current: list[Step] = []
    for step in ordered:
        if current and (step[0], step[1]) != (current[0][0], current[0][1]):
            slots.append(_slot(current))
            current = []
        current.append(step)
    if current:
        slots.append(_slot(current))
    return tuple(slots)


def _slot(steps: list[Step]) -> Slot:
    actions: dict[str, list[int]] = {}
    for _, _, actor_id, number in steps:
        actions.setdefault(actor_id, []).append(number)
    initiative, secondary = steps[0][0], steps[0][1]
    numbers = {n for _, _, _, n in steps}
    label = (
        t("tracker.step", initiative=initiative, index=numbers.pop())
        if len(numbers) == 1
        else t("tracker.step_many", initiative=initiative)
    )
    data = {"initiative": initiative, "secondary": secondary, "actions": actions}
    return Slot(tuple(actions), label, data)


def act_order(world: World, combat: Combat, first_round: bool) -> tuple[Slot, ...]:
    """Every declared action of the round, once the declarations are in."""
    steps = [s for a in combat.actor_ids for s in fighter_steps(fighter(world, a), first_round)]
    return step_slots(steps)


def rescheduled(combat: Combat, f: Fighter, first_round: bool) -> tuple[Slot, ...]:
    """A changed declaration in the middle of the round: ``f``'s actions move to their new
    steps among the slots still to come (never before the current one)."""
    keep = combat.order[: combat.turn + 1]
    rest: list[Step] = []
    for slot in combat.order[combat.turn + 1 :]:
        actions = slot.data.get("actions")
        if not isinstance(actions, dict):
            continue
        for actor_id, numbers in actions.items():
            if actor_id == f.id or not isinstance(numbers, list):
                continue
            rest.extend(
                (int(slot.data["initiative"]), int(slot.data["secondary"]), actor_id, n)
                for n in numbers
            )
    tracker_made = [
        s for s in combat.order[combat.turn + 1 :] if not isinstance(s.data.get("actions"), dict)
    ]
    new = step_slots([*rest, *fighter_steps(f, first_round)])
    return (*keep, *new, *tracker_made)


def store_order(combat: Combat, order: tuple[Slot, ...]) -> WorldChange:
    """The tracker's state with this round's new order (see RULES.md 42 and the report)."""
    return WorldChange({KEY: to_json(replace(combat, order=order))})
