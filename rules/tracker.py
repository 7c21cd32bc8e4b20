"""The combat tracker: one turn order per world, driven the same way for every system.

The tracker owns the sequence (start, declarations, turns, rounds, hold,
interrupt, delay, end); each system fills it in through the hooks of
:class:`rules.system.RuleSystem` (its initiative, what happens when a round
starts or ends and when a turn starts, how a declaration is checked). The
state lives in ``world.data["tracker"]`` as plain JSON, so it is stored, undone
and replayed like everything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from rules.dice import DiceSource
from rules.model import Action, Card, JsonMap, Resolution, RulesError, Text, World, t

if TYPE_CHECKING:
    from rules.system import RuleSystem

KEY = "tracker"
Phase = Literal["declare", "act"]


@dataclass(frozen=True)
class Combatant:
    actor_id: str
    group: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Slot:
    """Who acts at one step of the order (several actors act at once: ties, groups)."""

    actors: tuple[str, ...]
    label: Text | None = None
    data: JsonMap = field(default_factory=dict)


@dataclass(frozen=True)
class Combat:
    round: int
    combatants: tuple[Combatant, ...]
    order: tuple[Slot, ...] = ()
    turn: int = 0
    phase: Phase = "act"
    held: tuple[str, ...] = ()
    acted: tuple[str, ...] = ()
    declared: Mapping[str, JsonMap] = field(default_factory=dict)
    declare_order: tuple[str, ...] = ()
    data: JsonMap = field(default_factory=dict)
    base: tuple[Slot, ...] = ()
    """The order as initiative gave it (and joiners): each round starts from it again when
    the system does not roll initiative every round, dropping interrupts and delays."""

    @property
    def actor_ids(self) -> tuple[str, ...]:
        return tuple(c.actor_id for c in self.combatants)

    @property
    def current(self) -> Slot | None:
        if self.phase != "act" or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]

    @property
    def next_to_declare(self) -> str | None:
        if self.phase != "declare":
            return None
        return next((a for a in self.declare_order if a not in self.declared), None)


@dataclass(frozen=True)
class Initiative:
    """A system's initiative for a round: the order, its cards and effects, its own data,
    and, when the system wants declarations before acting, who declares in which order."""

    order: tuple[Slot, ...]
    cards: tuple[Card, ...] = ()
    effects: tuple[Any, ...] = ()
    data: JsonMap = field(default_factory=dict)
    declare_order: tuple[str, ...] = ()


# -- JSON -------------------------------------------------------------------------------
def _text_json(text: Text | None) -> Any:
    if text is None:
        return None
    return {
        "key": text.key,
        "params": {k: v for k, v in text.params.items() if isinstance(v, str | int | float | bool)},
    }


def _slots_json(slots: tuple[Slot, ...]) -> list[dict[str, Any]]:
    return [
        {"actors": list(s.actors), "label": _text_json(s.label), "data": dict(s.data)}
        for s in slots
    ]


def _slots(raw: Any) -> tuple[Slot, ...]:
    return tuple(
        Slot(
            tuple(s["actors"]),
            None if s.get("label") is None else Text(s["label"]["key"], s["label"]["params"]),
            s.get("data", {}),
        )
        for s in raw
    )


def to_json(combat: Combat) -> dict[str, Any]:
    return {
        "round": combat.round,
        "combatants": [
            {"actor": c.actor_id, "group": c.group, "hidden": c.hidden} for c in combat.combatants
        ],
        "order": [
            {"actors": list(s.actors), "label": _text_json(s.label), "data": dict(s.data)}
            for s in combat.order
        ],
        "turn": combat.turn,
        "phase": combat.phase,
        "held": list(combat.held),
        "acted": list(combat.acted),
        "declared": {k: dict(v) for k, v in combat.declared.items()},
        "declare_order": list(combat.declare_order),
        "data": dict(combat.data),
        "base": _slots_json(combat.base),
    }


def from_json(raw: Mapping[str, Any]) -> Combat:
    return Combat(
        round=int(raw["round"]),
        combatants=tuple(
            Combatant(c["actor"], c.get("group"), bool(c.get("hidden", False)))
            for c in raw["combatants"]
        ),
        order=tuple(
            Slot(
                tuple(s["actors"]),
                None if s.get("label") is None else Text(s["label"]["key"], s["label"]["params"]),
                s.get("data", {}),
            )
            for s in raw["order"]
        ),
        turn=int(raw["turn"]),
        phase="declare" if raw["phase"] == "declare" else "act",
        held=tuple(raw.get("held", ())),
        acted=tuple(raw.get("acted", ())),
        declared=dict(raw.get("declared", {})),
        declare_order=tuple(raw.get("declare_order", ())),
        data=dict(raw.get("data", {})),
        base=_slots(raw.get("base", ())),
    )


def combat_of(world: World) -> Combat | None:
    raw = world.data.get(KEY)
    return None if not raw else from_json(raw)


def _error(code: str, **params: Any) -> RulesError:
    return RulesError(code, t(f"error.combat.{code}", **params), None)


def require_combat(world: World) -> Combat:
    combat = combat_of(world)
    if combat is None:
        raise _error("no_combat")
    return combat


# -- steps ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """The world after a tracker step and the cards its hooks produced."""

    world: World
    cards: tuple[Card, ...] = ()


def _store(world: World, combat: Combat | None) -> World:
    data = {**world.data, KEY: None if combat is None else to_json(combat)}
    return replace(world, data=data)


def _run(system: RuleSystem, step: Step, resolution: Resolution | None) -> Step:
    if resolution is None:
        return step
    return Step(system.apply(step.world, resolution), step.cards + resolution.cards)


def _begin_round(system: RuleSystem, step: Step, combat: Combat, dice: DiceSource) -> Step:
    """Round-start hook, then initiative (each round or the first), then the first turn."""
    step = Step(_store(step.world, combat), step.cards)
    step = _run(system, step, system.combat_round_start(step.world, combat, dice))
    combat = require_combat(step.world)
    if system.initiative_each_round or not combat.order:
        initiative = system.combat_initiative(step.world, combat, dice)
        world = system.apply(
            step.world, Resolution(_TRACKER_ACTION, initiative.cards, initiative.effects)
        )
        combat = replace(
            require_combat(world),
            order=initiative.order,
            base=initiative.order,
            data=initiative.data,
            declare_order=initiative.declare_order,
        )
        step = Step(world, step.cards + initiative.cards)
    else:
        combat = replace(combat, order=combat.base)
    combat = replace(
        combat,
        turn=0,
        acted=(),
        declared={},
        phase="declare" if combat.declare_order else "act",
    )
    step = Step(_store(step.world, combat), step.cards)
    return _start_turn(system, step, dice)


def _start_turn(system: RuleSystem, step: Step, dice: DiceSource) -> Step:
    combat = require_combat(step.world)
    slot = combat.current
    if slot is None:
        return step
    return _run(system, step, system.combat_turn_start(step.world, combat, slot, dice))


def start(
    system: RuleSystem,
    world: World,
    combatants: tuple[Combatant, ...],
    dice: DiceSource,
) -> Step:
    if combat_of(world) is not None:
        raise _error("already_in_combat")
    if not combatants:
        raise _error("no_combatants")
    for combatant in combatants:
        world.actor(combatant.actor_id, "actors")
    combat = Combat(round=1, combatants=combatants)
    return _begin_round(system, Step(world), combat, dice)


def end(system: RuleSystem, world: World, dice: DiceSource) -> Step:
    combat = require_combat(world)
    step = _run(system, Step(world), system.combat_end(world, combat, dice))
    return Step(_store(step.world, None), step.cards)


def next_turn(system: RuleSystem, world: World, dice: DiceSource) -> Step:
    combat = require_combat(world)
    if combat.phase == "declare":
        raise _error("declarations_pending", actor=combat.next_to_declare or "")
    slot = combat.current
    acted = combat.acted + (slot.actors if slot else ())
    if combat.turn + 1 >= len(combat.order):
        return next_round(system, _store(world, replace(combat, acted=acted)), dice)
    combat = replace(combat, turn=combat.turn + 1, acted=acted)
    return _start_turn(system, Step(_store(world, combat)), dice)


def next_round(system: RuleSystem, world: World, dice: DiceSource) -> Step:
    combat = require_combat(world)
    step = _run(system, Step(world), system.combat_round_end(world, combat, dice))
    combat = require_combat(step.world)
    combat = replace(combat, round=combat.round + 1)
    return _begin_round(system, step, combat, dice)


def _slot_index(combat: Combat, actor_id: str) -> int:
    """The actor's next slot from the current turn on (systems give several actions)."""
    for index, slot in enumerate(combat.order):
        if index >= combat.turn and actor_id in slot.actors:
            return index
    if any(actor_id in slot.actors for slot in combat.order):
        raise _error("already_acted", actor=actor_id)
    raise _error("not_in_order", actor=actor_id)


def hold(system: RuleSystem, world: World, actor_id: str, dice: DiceSource) -> Step:
    """The actor whose turn it is waits: it may interrupt later (this round or after)."""
    combat = require_combat(world)
    slot = combat.current
    if slot is None or actor_id not in slot.actors:
        raise _error("not_your_turn", actor=actor_id)
    combat = replace(combat, held=(*combat.held, actor_id))
    if len(slot.actors) > 1:
        remaining = tuple(a for a in slot.actors if a != actor_id)
        order = list(combat.order)
        order[combat.turn] = replace(slot, actors=remaining)
        return Step(_store(world, replace(combat, order=tuple(order))))
    return next_turn(system, _store(world, combat), dice)


def interrupt(system: RuleSystem, world: World, actor_id: str, dice: DiceSource) -> Step:
    """A held actor acts now, before whoever's turn it is."""
    combat = require_combat(world)
    if actor_id not in combat.held:
        raise _error("not_on_hold", actor=actor_id)
    step = _run(system, Step(world), system.combat_interrupt(world, combat, actor_id, dice))
    combat = require_combat(step.world)
    slot = Slot((actor_id,), t("tracker.interrupt"))
    order = (*combat.order[: combat.turn], slot, *combat.order[combat.turn :])
    combat = replace(
        combat, order=order, held=tuple(a for a in combat.held if a != actor_id), phase="act"
    )
    return _start_turn(system, Step(_store(step.world, combat), step.cards), dice)


def delay(system: RuleSystem, world: World, actor_id: str, dice: DiceSource) -> Step:
    """The actor moves to the end of this round's order."""
    combat = require_combat(world)
    index = _slot_index(combat, actor_id)
    slot = combat.order[index]
    order = list(combat.order)
    if len(slot.actors) > 1:
        order[index] = replace(slot, actors=tuple(a for a in slot.actors if a != actor_id))
    else:
        del order[index]
    order.append(Slot((actor_id,), t("tracker.delayed")))
    combat = replace(combat, order=tuple(order))
    step = Step(_store(world, combat))
    return _start_turn(system, step, dice) if index == combat.turn else step


def declare(
    system: RuleSystem, world: World, actor_id: str, params: JsonMap, dice: DiceSource
) -> Step:
    combat = require_combat(world)
    expected = combat.next_to_declare
    if expected is None:
        raise _error("not_declaring")
    if actor_id != expected:
        raise _error("declare_order", actor=actor_id, expected=expected)
    resolution = system.combat_declare(world, combat, actor_id, params, dice)
    step = _run(system, Step(world), resolution)
    combat = require_combat(step.world)
    combat = replace(combat, declared={**combat.declared, actor_id: dict(params)})
    if combat.next_to_declare is None:
        combat = replace(combat, phase="act", turn=0)
        return _start_turn(system, Step(_store(step.world, combat), step.cards), dice)
    return Step(_store(step.world, combat), step.cards)


def add(
    system: RuleSystem, world: World, combatants: tuple[Combatant, ...], dice: DiceSource
) -> Step:
    combat = require_combat(world)
    known = set(combat.actor_ids)
    fresh = tuple(c for c in combatants if c.actor_id not in known)
    for combatant in fresh:
        world.actor(combatant.actor_id, "actors")
    joined = tuple(Slot((c.actor_id,), t("tracker.joined")) for c in fresh)
    combat = replace(
        combat,
        combatants=combat.combatants + fresh,
        order=combat.order + joined,
        base=combat.base + joined,
    )
    return Step(_store(world, combat))


def remove(system: RuleSystem, world: World, actor_ids: tuple[str, ...], dice: DiceSource) -> Step:
    combat = require_combat(world)
    gone = set(actor_ids)
    order: list[Slot] = []
    turn = combat.turn
    for index, slot in enumerate(combat.order):
        actors = tuple(a for a in slot.actors if a not in gone)
        if actors:
            order.append(replace(slot, actors=actors))
        elif index < combat.turn:
            turn -= 1
    base = tuple(
        replace(slot, actors=tuple(a for a in slot.actors if a not in gone))
        for slot in combat.base
        if any(a not in gone for a in slot.actors)
    )
    combat = replace(
        combat,
        combatants=tuple(c for c in combat.combatants if c.actor_id not in gone),
        order=tuple(order),
        base=base,
        turn=max(0, min(turn, len(order) - 1)),
        held=tuple(a for a in combat.held if a not in gone),
        declare_order=tuple(a for a in combat.declare_order if a not in gone),
    )
    if not combat.combatants:
        return end(system, world, dice)
    if combat.phase == "declare" and combat.next_to_declare is None:
        # the last one still to declare left: the round acts now
        combat = replace(combat, phase="act", turn=0)
        return _start_turn(system, Step(_store(world, combat)), dice)
    return Step(_store(world, combat))


def default_initiative(combat: Combat) -> Initiative:
    """Without a system's initiative: combatants act in the order they joined, groups together."""
    slots: list[Slot] = []
    seen: dict[str, int] = {}
    for combatant in combat.combatants:
        if combatant.group and combatant.group in seen:
            index = seen[combatant.group]
            slots[index] = replace(slots[index], actors=(*slots[index].actors, combatant.actor_id))
            continue
        if combatant.group:
            seen[combatant.group] = len(slots)
        slots.append(Slot((combatant.actor_id,)))
    return Initiative(tuple(slots))


_TRACKER_ACTION = Action("combat", "", by_gm=True)
"""The Action a tracker step's own Resolution carries (no actor acts: the table does)."""
