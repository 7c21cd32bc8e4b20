"""Protocol v1: what clients send (the auth payload and every event's request)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rules.statuses import CANONICAL_STATUSES

PROTOCOL_VERSION = 1

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
RequestId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
ActorId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
UserId = Annotated[str, StringConstraints(min_length=1, max_length=100)]
FollowUpId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.:-]{0,63}$")]
CardId = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,15}\.[0-9]{1,3}$")]
StatusId = Literal[CANONICAL_STATUSES]  # type: ignore[valid-type]
SafeInt = Annotated[int, Field(ge=-(2**53) + 1, le=2**53 - 1)]
ParamValue = (
    Annotated[bool, Field(strict=True)]
    | Annotated[int, Field(strict=True, ge=-(10**9), le=10**9)]
    | Annotated[str, StringConstraints(max_length=200)]
    | None
)
Params = Annotated[
    dict[Annotated[str, StringConstraints(max_length=40)], ParamValue], Field(max_length=32)
]


def _empty_list() -> Any:
    """An empty list default made by a factory: pydantic deep-copies a mutable default
    for every request that leaves the field out (~3 us each); the schema still says
    ``"default": []``."""
    return Field(default_factory=list, json_schema_extra={"default": []})


def _empty_dict() -> Any:
    """An empty object default made by a factory (see ``_empty_list``)."""
    return Field(default_factory=dict, json_schema_extra={"default": {}})


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Auth(Model):
    """The Socket.IO ``auth`` payload: the world token opens one world as GM or player."""

    token: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    user: UserId
    name: Annotated[str, StringConstraints(max_length=100)] = ""
    protocol: SafeInt
    last_seq: Annotated[int, Field(ge=0, le=2**53 - 1)] | None = None
    locale: Literal["es", "en"] | None = None


class ActionRequest(Model):
    """``roll``, ``attack``, ``damage_apply``, ``soak``, ``heal``, ``gm_action``.

    ``actor`` may be left out (null) only for a GM-only action that concerns the
    whole world (start combat, next round...).
    """

    id: RequestId
    actor: ActorId | None = None
    action: Slug
    params: Params = _empty_dict()
    targets: Annotated[list[ActorId], Field(max_length=20)] = _empty_list()
    whisper: Annotated[list[UserId], Field(min_length=1, max_length=20)] | None = None
    """Whisper the cards: ``["gm"]`` to the GM only (anyone may), or to these users (GM)."""


class CardActionRequest(Model):
    """``card_action``: press the button ``action`` of card ``card`` (``"<seq>.<index>"``)."""

    id: RequestId
    card: CardId
    action: FollowUpId
    params: Params = _empty_dict()


class StatusSetRequest(Model):
    """``status_set`` (GM): add and remove canonical statuses on an actor."""

    id: RequestId
    actor: ActorId
    add: Annotated[list[StatusId], Field(max_length=20)] = _empty_list()
    remove: Annotated[list[StatusId], Field(max_length=20)] = _empty_list()


class ActorData(Model):
    id: ActorId
    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    owner: UserId | None = None
    token: Annotated[str, StringConstraints(max_length=100)] | None = None
    sheet: dict[str, Any]
    state: dict[str, Any] | None = None
    hidden: bool = False


class ActorUpsertRequest(Model):
    """``actor_upsert`` (GM): create or replace an actor's sheet and say which user owns it."""

    id: RequestId
    actor: ActorData


class ActorRemoveRequest(Model):
    """``actor_remove`` (GM)."""

    id: RequestId
    actor: ActorId


class ActorStateRequest(Model):
    """``actor_state`` (GM): adjust numbers of an actor's state (hit points, wounds, ammo,
    bennies...); the keys are merged over the current state and checked by the system."""

    id: RequestId
    actor: ActorId
    state: Annotated[
        dict[Annotated[str, StringConstraints(max_length=40)], Any],
        Field(min_length=1, max_length=40),
    ]


class TimeAdvanceRequest(Model):
    """``time_advance`` (GM): rounds, minutes, hours or days pass (bleeding, healing...)."""

    id: RequestId
    unit: Literal["round", "minute", "hour", "day"]
    count: Annotated[int, Field(ge=1, le=1000)] = 1
    rest: bool = True


class UndoRequest(Model):
    """``undo`` (GM): put back the actors an earlier event changed, if nothing changed since."""

    id: RequestId
    seq: Annotated[int, Field(ge=1, le=2**53 - 1)]


class CombatStartRequest(Model):
    """``combat_start`` (GM): these actors fight; ``groups`` puts Extras on one initiative;
    ``hidden`` actors show no name to players."""

    id: RequestId
    actors: Annotated[list[ActorId], Field(min_length=1, max_length=100)]
    groups: Annotated[
        dict[ActorId, Annotated[str, StringConstraints(max_length=40)]], Field(max_length=100)
    ] = _empty_dict()
    hidden: Annotated[list[ActorId], Field(max_length=100)] = _empty_list()


class CombatRequest(Model):
    """``combat_end``, ``combat_next_turn``, ``combat_next_round``."""

    id: RequestId


class CombatActorsRequest(Model):
    """``combat_add`` (GM, with ``groups``/``hidden`` as at start), ``combat_remove`` (GM)."""

    id: RequestId
    actors: Annotated[list[ActorId], Field(min_length=1, max_length=100)]
    groups: Annotated[
        dict[ActorId, Annotated[str, StringConstraints(max_length=40)]], Field(max_length=100)
    ] = _empty_dict()
    hidden: Annotated[list[ActorId], Field(max_length=100)] = _empty_list()


class CombatActorRequest(Model):
    """``combat_hold``, ``combat_interrupt``, ``combat_delay`` (the actor's owner or the GM)."""

    id: RequestId
    actor: ActorId


class CombatDeclareRequest(Model):
    """``combat_declare``: an actor's declared actions before the round (systems that want it)."""

    id: RequestId
    actor: ActorId
    params: Params = _empty_dict()


COMBAT_EVENTS: dict[str, type[Model]] = {
    "combat_start": CombatStartRequest,
    "combat_end": CombatRequest,
    "combat_add": CombatActorsRequest,
    "combat_remove": CombatActorsRequest,
    "combat_next_turn": CombatRequest,
    "combat_next_round": CombatRequest,
    "combat_hold": CombatActorRequest,
    "combat_interrupt": CombatActorRequest,
    "combat_delay": CombatActorRequest,
    "combat_declare": CombatDeclareRequest,
}

ACTION_EVENTS: tuple[str, ...] = ("roll", "attack", "damage_apply", "soak", "heal", "gm_action")

REQUEST_MODELS: dict[str, type[Model]] = {
    **{event: ActionRequest for event in ACTION_EVENTS},
    "card_action": CardActionRequest,
    "status_set": StatusSetRequest,
    "actor_upsert": ActorUpsertRequest,
    "actor_remove": ActorRemoveRequest,
    "actor_state": ActorStateRequest,
    "time_advance": TimeAdvanceRequest,
    "undo": UndoRequest,
    **COMBAT_EVENTS,
}

GM_EVENTS: frozenset[str] = frozenset(
    {
        "status_set",
        "actor_upsert",
        "actor_remove",
        "actor_state",
        "time_advance",
        "undo",
        "combat_start",
        "combat_end",
        "combat_add",
        "combat_remove",
        "combat_next_round",
    }
)
