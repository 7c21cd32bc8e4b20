"""Turning one validated request into a new world and the pushes it causes.

Pure apart from the dice it is given: the server fetches what the request
refers to (the card of a ``card_action``, the event of an ``undo``) before
calling :func:`process`, and writes the result after. The replay harness calls
the same function, which is what makes replay exact.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from typing import Any, Literal, final

from pydantic import BaseModel

from bridge.serialize import (
    NewEvent,
    actor_from_json,
    actor_json,
    actor_to_json,
    card_to_json,
    now,
    world_json_text,
)
from bridge.store import EventRow
from protocol.v1.requests import (
    ActionRequest,
    ActorRemoveRequest,
    ActorStateRequest,
    ActorUpsertRequest,
    CardActionRequest,
    CombatActorRequest,
    CombatActorsRequest,
    CombatDeclareRequest,
    CombatStartRequest,
    StatusSetRequest,
    TimeAdvanceRequest,
    UndoRequest,
)
from rules import tracker
from rules.dice import DiceError, DiceSource, RecordingDice
from rules.model import Action, Actor, Resolution, RulesError, Text, TimeStep, World, t
from rules.params import Param, validate_params
from rules.records import NEW_DICT, native_record
from rules.registry import Registry
from rules.system import RuleSystem, apply_effects

log = logging.getLogger(__name__)

Role = Literal["gm", "player"]


@dataclass(frozen=True)
class Session:
    user: str
    role: Role
    locale: str
    name: str = ""


@final
@dataclass(frozen=True)
class Accepted:
    """What an accepted request does. Built for every request, so a record that writes its
    own ``__init__`` (``rules.records.native_record``: a native class when compiled,
    built without the dataclass ``__init__``'s five ``object.__setattr__`` calls)."""

    world: World
    pushes: list[dict[str, Any]]
    undo: dict[str, Any] | None
    used_follow_ups: tuple[tuple[str, str], ...] = ()
    released_follow_ups: tuple[tuple[str, str], ...] = ()

    def __init__(
        self,
        world: World,
        pushes: list[dict[str, Any]],
        undo: dict[str, Any] | None,
        used_follow_ups: tuple[tuple[str, str], ...] = (),
        released_follow_ups: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.world = world  # type: ignore[misc]
        self.pushes = pushes  # type: ignore[misc]
        self.undo = undo  # type: ignore[misc]
        self.used_follow_ups = used_follow_ups  # type: ignore[misc]
        self.released_follow_ups = released_follow_ups  # type: ignore[misc]


native_record(Accepted)


@final
@dataclass(frozen=True)
class Rejected:
    """A refusal. ``message`` is a Text from the system's catalogue, or None for the
    protocol's own message for ``code``. (A native record, as ``Accepted``.)"""

    code: str
    field: str | None = None
    message: Text | None = None
    detail: dict[str, Any] = dc_field(default_factory=dict)

    def __init__(
        self,
        code: str,
        field: str | None = None,
        message: Text | None = None,
        detail: dict[str, Any] = NEW_DICT,
    ) -> None:
        self.code = code  # type: ignore[misc]
        self.field = field  # type: ignore[misc]
        self.message = message  # type: ignore[misc]
        self.detail = {} if detail is NEW_DICT else detail  # type: ignore[misc]


native_record(Rejected)


Result = Accepted | Rejected


def process(
    registry: Registry,
    world: World,
    session: Session,
    event: str,
    request: BaseModel,
    dice: DiceSource,
    *,
    referenced: EventRow | None = None,
    used: Collection[tuple[str, str]] = (),
) -> Result:
    system = registry.get(world.system)
    try:
        if isinstance(request, ActionRequest):
            return _action(system, world, session, event, request, dice)
        if isinstance(request, CardActionRequest):
            return _card_action(system, world, session, request, dice, referenced, used)
        if event.startswith("combat_"):
            return _combat(system, world, session, event, request, dice)
        if session.role != "gm":
            return Rejected("gm_only")
        if isinstance(request, StatusSetRequest):
            world.actor(request.actor)
            effects = system.set_status(
                world, request.actor, frozenset(request.add), frozenset(request.remove)
            )
            return _accepted(system, world, apply_effects(world, effects), ())
        if isinstance(request, ActorUpsertRequest):
            return _actor_upsert(system, world, request)
        if isinstance(request, ActorStateRequest):
            actor = world.actor(request.actor)
            state = system.validate_state(actor.sheet, {**actor.state, **request.state})
            return _accepted(system, world, world.with_actor(replace(actor, state=state)), ())
        if isinstance(request, ActorRemoveRequest):
            world.actor(request.actor)
            return _accepted(system, world, world.without_actor(request.actor), ())
        if isinstance(request, TimeAdvanceRequest):
            resolution = system.advance_time(
                world, TimeStep(request.unit, request.count, request.rest), dice
            )
            if resolution is None:
                return _accepted(system, world, world, ())
            return _accepted(system, world, system.apply(world, resolution), resolution.cards)
        if isinstance(request, UndoRequest):
            return _undo(system, world, referenced)
    except RulesError as error:
        return Rejected(error.code, error.field, error.message)
    except DiceError as error:
        return Rejected(error.code, None, t("error.dice", problem=error.message))
    raise TypeError(f"no handler for {type(request).__name__}")


def stored_event(
    seq: int,
    event: str,
    session: Session,
    payload: dict[str, Any],
    dice: RecordingDice,
    result: Accepted,
    digest: str = "",
) -> NewEvent:
    """The accepted request as the store writes it: its columns taken straight from the
    request, the dice it drew (``[sides, face]`` each, in order) and the result, stamped
    with :func:`bridge.serialize.now`. Compiled with the engine: the draws read from the
    native records and the stamp made natively, in the step that worked the request out
    (was ``Bridge._record``, plain Python: the draws' list comprehension, the clock and the
    call, ~120 bytecodes a request). ``digest`` written empty (the usual path): worked out
    from its payload only when a retry of its id is compared with it
    (``bridge.server.digest_of``)."""
    return NewEvent(
        seq,
        str(payload["id"]),
        event,
        session.user,
        session.role,
        payload,
        digest,
        [[draw.sides, draw.face] for draw in dice.draws],
        result.pushes,
        result.undo,
        now(),
        result.used_follow_ups,
        result.released_follow_ups,
    )


def work_out(
    registry: Registry,
    world: World,
    session: Session,
    event: str,
    request: BaseModel,
    dice_factory: Callable[[], DiceSource],
    payload: dict[str, Any],
    seq: int,
) -> tuple[Accepted, NewEvent, str] | Rejected:
    """A request that reads nothing from the store, from its parsed model to what the store
    is handed, in one compiled step: its dice recorded as drawn, :func:`process`, and for
    an accepted request the result, its record as ``seq`` (:func:`stored_event`) and the
    new state's text (``world_json_text``); a refusal as it is. The server's usual path
    (``Bridge._work_out``) makes one call here instead of five from plain Python."""
    dice = RecordingDice(dice_factory())
    result = process(registry, world, session, event, request, dice)
    if isinstance(result, Rejected):
        return result
    record = stored_event(seq, event, session, payload, dice, result)
    return result, record, world_json_text(result.world)


def _combatants(
    actors: list[str], groups: Mapping[str, str], hidden: list[str]
) -> tuple[tracker.Combatant, ...]:
    seen: dict[str, None] = dict.fromkeys(actors)
    return tuple(tracker.Combatant(a, groups.get(a), a in hidden) for a in seen)


def _combat(
    system: RuleSystem,
    world: World,
    session: Session,
    event: str,
    request: BaseModel,
    dice: DiceSource,
) -> Result:
    """The combat tracker's events; players drive only their own combatants."""
    is_gm = session.role == "gm"

    def owns(actor_id: str) -> bool:
        return is_gm or world.actor(actor_id).owner == session.user

    step: tracker.Step
    if isinstance(request, CombatStartRequest):
        combatants = _combatants(request.actors, request.groups, request.hidden)
        step = tracker.start(system, world, combatants, dice)
    elif isinstance(request, CombatActorsRequest):
        if event == "combat_add":
            combatants = _combatants(request.actors, request.groups, request.hidden)
            step = tracker.add(system, world, combatants, dice)
        else:
            step = tracker.remove(system, world, tuple(request.actors), dice)
    elif isinstance(request, CombatActorRequest):
        if not owns(request.actor):
            return Rejected("not_your_actor", "actor")
        operation = {
            "combat_hold": tracker.hold,
            "combat_interrupt": tracker.interrupt,
            "combat_delay": tracker.delay,
        }[event]
        step = operation(system, world, request.actor, dice)
    elif isinstance(request, CombatDeclareRequest):
        if not owns(request.actor):
            return Rejected("not_your_actor", "actor")
        step = tracker.declare(system, world, request.actor, dict(request.params), dice)
    elif event == "combat_end":
        step = tracker.end(system, world, dice)
    elif event == "combat_next_round":
        step = tracker.next_round(system, world, dice)
    else:
        combat = tracker.require_combat(world)
        slot = combat.current
        if not is_gm and (slot is None or not any(owns(a) for a in slot.actors)):
            return Rejected("not_your_turn", None)
        step = tracker.next_turn(system, world, dice)
    return _accepted(system, world, step.world, step.cards)


def _resolve(
    system: RuleSystem, world: World, action: Action, dice: DiceSource
) -> tuple[World, Resolution]:
    checked = system.check_action(world, action)
    resolution = system.resolve(world, checked, dice)
    return system.apply(world, resolution), resolution


def _action(
    system: RuleSystem,
    world: World,
    session: Session,
    event: str,
    request: ActionRequest,
    dice: DiceSource,
) -> Result:
    spec = system.actions.get(request.action)  # the declared spec, read without a call
    if spec is None:
        spec = system.action_spec(request.action)  # raises unknown_action
    actor_id = request.actor
    is_gm = session.role == "gm"
    if actor_id is None:
        if not spec.gm_only:
            return Rejected("invalid_field", "actor")
        if not is_gm:
            return Rejected("gm_only", "action")
    else:
        actor = world.actor(actor_id)
    if spec.event != event:
        return Rejected("wrong_event", "action", detail={"event": spec.event})
    if actor_id is not None:
        # The spec and the actor found above, not looked up again.
        if spec.gm_only and not is_gm:
            return Rejected("gm_only", "action")
        if not is_gm and actor.owner != session.user:
            return Rejected("not_your_actor", "actor")
    action = Action(
        request.action,
        actor_id or "",
        dict(request.params),
        tuple(request.targets),
        by_gm=is_gm,
        user=session.user,
    )
    whisper = request.whisper
    if whisper is not None and not is_gm and whisper != ["gm"]:
        return Rejected("gm_only", "whisper")
    new_world, resolution = _resolve(system, world, action, dice)
    accepted = _accepted(system, world, new_world, resolution.cards)
    if whisper is None:
        return accepted
    for push in accepted.pushes:
        if push["type"] == "chat_card":
            push["whisper"] = sorted({*whisper, session.user} - {"gm"})
            if whisper == ["gm"] and session.role == "gm":
                push["card"] = {**push["card"], "visibility": "gm"}
    return accepted


def _card_action(
    system: RuleSystem,
    world: World,
    session: Session,
    request: CardActionRequest,
    dice: DiceSource,
    referenced: EventRow | None,
    used: Collection[tuple[str, str]],
) -> Result:
    index = int(request.card.split(".")[1])
    cards = [p for p in referenced.pushes if p["type"] == "chat_card"] if referenced else []
    card = next((p["card"] for p in cards if p["index"] == index), None)
    if card is None:
        return Rejected("unknown_card", "card")
    follow = next((f for f in card["actions"] if f["id"] == request.action), None)
    if follow is None:
        return Rejected("unknown_follow_up", "action")
    group = follow.get("group")
    siblings = [f["id"] for f in card["actions"] if group and f.get("group") == group]
    if (follow["once"] and (request.card, follow["id"]) in used) or any(
        (request.card, sibling) in used for sibling in siblings
    ):
        return Rejected("follow_up_used", "action")
    if session.role != "gm":
        allowed = follow["allowed"]
        owner_of = follow["actor"] if allowed == "owner" else card.get("target")
        if allowed == "gm" or owner_of is None:
            return Rejected("not_allowed", "action")
        owner = world.actors[owner_of].owner if owner_of in world.actors else None
        if owner != session.user:
            return Rejected("not_allowed", "action")
    asked = tuple(_param_from_json(p) for p in follow["ask"])
    chosen = validate_params(asked, request.params) if asked else {}
    if request.params and not asked:
        validate_params((), request.params)
    spec = system.action_spec(follow["action"])
    if spec.gm_only and session.role != "gm":
        return Rejected("gm_only", "action")
    action = Action(
        follow["action"],
        follow["actor"],
        {**follow["params"], **chosen},
        tuple(follow["targets"]),
        by_gm=session.role == "gm",
        user=session.user,
    )
    new_world, resolution = _resolve(system, world, action, dice)
    ids = [follow["id"]] if follow["once"] else []
    ids += [sibling for sibling in siblings if sibling not in ids]
    marks = tuple((request.card, follow_id) for follow_id in ids)
    accepted = _accepted(system, world, new_world, resolution.cards)
    used_pushes = (
        [{"type": "card_update", "card_id": request.card, "used": ids, "released": []}]
        if ids
        else []
    )
    return replace(accepted, pushes=accepted.pushes + used_pushes, used_follow_ups=marks)


def _param_from_json(raw: Mapping[str, Any]) -> Param:
    return Param(
        name=raw["name"],
        kind=raw["kind"],
        required=raw["required"],
        default=raw["default"],
        minimum=raw["minimum"],
        maximum=raw["maximum"],
        choices=tuple(raw["choices"]),
    )


def _actor_upsert(system: RuleSystem, world: World, request: ActorUpsertRequest) -> Result:
    data = request.actor
    try:
        sheet = system.validate_sheet(data.sheet)
    except RulesError as error:
        return Rejected(
            error.code, f"actor.{error.field}" if error.field else "actor.sheet", error.message
        )
    existing = world.actors.get(data.id)
    if data.state is not None:
        state = system.validate_state(sheet, data.state)
    elif existing is not None:
        state = existing.state
    else:
        state = system.initial_state(sheet)
    actor = Actor(
        id=data.id,
        name=data.name,
        owner=data.owner,
        sheet=sheet,
        state=state,
        statuses=existing.statuses if existing else frozenset(),
        token=data.token,
        hidden=data.hidden,
    )
    return _accepted(system, world, world.with_actor(actor), ())


def _undo(system: RuleSystem, world: World, referenced: EventRow | None) -> Result:
    if referenced is None or referenced.undo is None or referenced.event == "undo":
        return Rejected("nothing_to_undo", "seq")
    before: Mapping[str, Any] = referenced.undo["before"]
    after: Mapping[str, Any] = referenced.undo["after"]
    for actor_id, expected in after.items():
        current = world.actors.get(actor_id)
        if (None if current is None else actor_to_json(current)) != expected:
            return Rejected("undo_conflict", "seq", detail={"actor": actor_id})
    if "data_after" in referenced.undo and dict(world.data) != referenced.undo["data_after"]:
        return Rejected("undo_conflict", "seq", detail={"data": True})
    restored = world
    for actor_id, previous in before.items():
        restored = (
            restored.without_actor(actor_id)
            if previous is None
            else restored.with_actor(actor_from_json(previous))
        )
    if "data_before" in referenced.undo:
        restored = replace(restored, data=referenced.undo["data_before"])
    accepted = _accepted(system, world, restored, ())
    released = tuple(
        (str(push["card_id"]), str(action))
        for push in referenced.pushes
        if push.get("type") == "card_update"
        for action in push.get("used", [])
    )
    pushes: list[dict[str, Any]] = [
        {
            "type": "card_update",
            "card_id": card_id,
            "used": [],
            "released": [a for c, a in released if c == card_id],
        }
        for card_id in dict.fromkeys(c for c, _ in released)
    ]
    pushes += [
        {
            "type": "card_update",
            "card_id": f"{referenced.seq}.{push['index']}",
            "used": [],
            "released": [],
            "undone": True,
        }
        for push in referenced.pushes
        if push.get("type") == "chat_card"
    ]
    return replace(accepted, pushes=accepted.pushes + pushes, released_follow_ups=released)


def _accepted(system: RuleSystem, old: World, new: World, cards: tuple[Any, ...]) -> Accepted:
    pushes: list[dict[str, Any]] = [
        {"type": "chat_card", "index": index, "card": card_to_json(card)}
        for index, card in enumerate(cards)
    ]
    if new is old:  # the very same frozen world: nothing changed, nothing to diff
        return Accepted(new, pushes, None)
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for actor_id in sorted(set(old.actors) | set(new.actors)):
        was, now = old.actors.get(actor_id), new.actors.get(actor_id)
        if was is now:  # the same frozen actor: nothing changed (most actors, most requests)
            continue
        was_json = None if was is None else actor_to_json(was)
        now_json = None if now is None else actor_json(now)
        if was_json == now_json:
            continue
        before[actor_id], after[actor_id] = was_json, now_json
        if now is None:
            pushes.append({"type": "actor_update", "removed": actor_id})
            continue
        pushes.append({"type": "actor_update", "actor": now_json})
        old_statuses = was.statuses if was else frozenset()
        old_numbers = dict(system.token_numbers(was)) if was else {}
        numbers = dict(system.token_numbers(now))
        if now.statuses != old_statuses or numbers != old_numbers:
            pushes.append(
                {
                    "type": "token_status",
                    "actor": now.id,
                    "token": now.token,
                    "name": now.name,
                    "statuses": sorted(now.statuses),
                    "added": sorted(now.statuses - old_statuses),
                    "removed": sorted(old_statuses - now.statuses),
                    "numbers": numbers,
                }
            )
    old_combat, new_combat = old.data.get(tracker.KEY), new.data.get(tracker.KEY)
    if old_combat != new_combat:
        pushes.append({"type": "combat_state", "combat": new_combat})
    undo: dict[str, Any] | None = None
    if before or old.data != new.data:
        undo = {"before": before, "after": after}
        if old.data != new.data:
            undo["data_before"] = dict(old.data)
            undo["data_after"] = dict(new.data)
    return Accepted(new, pushes, undo)
