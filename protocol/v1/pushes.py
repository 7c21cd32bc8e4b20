"""Protocol v1: what the server sends: acks, errors, cards, token statuses, actors, welcome."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ErrorBody(Model):
    code: str
    message: str
    field: str | None = None


class AckError(Model):
    ok: Literal[False] = False
    error: ErrorBody


class DieView(Model):
    sides: int
    faces: list[int]
    role: str
    kept: bool
    group: int
    total: int


class OutcomeView(Model):
    key: str
    label: str
    success: bool | None
    margin: int | None


class SectionView(Model):
    title: str | None
    lines: list[str]


class ParamView(Model):
    name: str
    kind: str
    label: str | None
    required: bool
    default: Any
    minimum: int
    maximum: int
    choices: list[str]
    choice_labels: list[str]


class FollowUpView(Model):
    id: str
    label: str
    actor: str
    allowed: str
    once: bool
    used: bool
    ask: list[ParamView]


class ChatCard(Model):
    """A chat card: structured, already in the receiver's locale, plus escaped HTML and text."""

    seq: int
    card_id: str
    world: str
    kind: str
    speaker: str | None
    speaker_name: str | None
    target: str | None
    visibility: Literal["public", "gm"]
    locale: str
    title: str
    outcome: OutcomeView | None
    dice: list[DieView]
    sections: list[SectionView]
    actions: list[FollowUpView]
    html: str
    text: str


class TokenStatus(Model):
    """An actor's statuses changed (or its token numbers did)."""

    seq: int
    world: str
    actor: str
    token: str | None
    name: str
    statuses: list[str]
    added: list[str]
    removed: list[str]
    labels: dict[str, str]
    numbers: dict[str, int]


class ButtonView(Model):
    label: str
    event: str
    action: str
    params: dict[str, Any]
    group: str | None
    ask: list[ParamView]
    min_targets: int
    max_targets: int
    gm_only: bool


class ActorView(Model):
    id: str
    name: str
    owner: str | None
    token: str | None
    sheet: dict[str, Any]
    state: dict[str, Any]
    statuses: list[str]
    labels: dict[str, str]
    numbers: dict[str, int]
    buttons: list[ButtonView]


class ActorUpdate(Model):
    """An actor was created, changed or removed (``removed`` true, ``actor`` holds its id)."""

    seq: int
    world: str
    actor: ActorView | None
    removed: str | None = None


class Synced(Model):
    """After ``welcome`` and the replayed pushes: everything up to ``seq`` has been sent."""

    seq: int
    world: str


class CardUpdate(Model):
    """Buttons of an earlier card were used (``used``: disable them) or, after an undo,
    are free again (``released``: enable them)."""

    seq: int
    world: str
    card_id: str
    used: list[str]
    released: list[str] = []
    undone: bool = False
    """The event that produced this card was undone: show the card struck through."""


class OrderActor(Model):
    id: str
    name: str


class OrderSlot(Model):
    actors: list[OrderActor]
    label: str | None
    data: dict[str, Any]


class CombatantView(Model):
    actor: str
    name: str
    group: str | None
    hidden: bool
    held: bool
    acted: bool
    declared: dict[str, Any]


class CombatState(Model):
    """The world's combat tracker after a change (``active`` false once it ended)."""

    seq: int
    world: str
    active: bool
    round: int
    phase: Literal["declare", "act"] | None
    turn: int | None
    current: list[str]
    next_to_declare: str | None
    order: list[OrderSlot]
    combatants: list[CombatantView]
    data: dict[str, Any]


class AckOk(Model):
    ok: Literal[True] = True
    seq: int
    duplicate: bool = False
    cards: list[ChatCard]
    tokens: list[TokenStatus]


class WorldView(Model):
    id: str
    name: str
    system: str
    system_name: str
    settings: dict[str, Any]


class Welcome(Model):
    protocol: int
    world: WorldView
    role: Literal["gm", "player"]
    user: str
    locale: str
    seq: int
    actors: list[ActorView]
    combat: CombatState | None = None


class ConnectError(Model):
    code: str
    message: str
