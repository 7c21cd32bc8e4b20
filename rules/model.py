"""The data the rules core works on and returns: worlds, actors, actions, resolutions, cards.

Everything here is a frozen dataclass. Sheets, per-actor state and per-world
system data are JSON-like mappings (they are stored and sent as they are);
each system parses them into its own typed records. Nothing here renders
text: a :class:`Text` is a message key and its parameters, turned into
Spanish or English words by the bridge from the system's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rules.dice import Die
from rules.records import fast_init

JsonMap = Mapping[str, Any]
Scalar = str | int | float | bool


@fast_init
@dataclass(frozen=True)
class Text:
    """A message key in a system's catalogue with its parameters.

    Parameters are shown as they are, escaped; a parameter whose value is itself
    a :class:`Text` is translated first.
    """

    key: str
    params: Mapping[str, TextParam] = field(default_factory=dict)


TextParam = Scalar | Text | tuple[Text, ...]
"""A Text parameter: shown as it is, a Text translated, a tuple of Texts joined by commas."""


def t(key: str, **params: TextParam) -> Text:
    return Text(key, params)


class RulesError(Exception):
    """An action the rules refuse. ``code`` is stable; ``field`` names the bad input."""

    def __init__(self, code: str, message: Text, field: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.field = field


@fast_init
@dataclass(frozen=True)
class Actor:
    """A character or creature in a world, owned by one VTT user (or by the GM: ``None``)."""

    id: str
    name: str
    owner: str | None
    sheet: JsonMap
    state: JsonMap = field(default_factory=dict)
    statuses: frozenset[str] = frozenset()
    token: str | None = None
    hidden: bool = False
    """The GM hides this actor's name (and sheet) from players."""


@fast_init
@dataclass(frozen=True)
class World:
    """Everything the rules may read: settings, actors and system-wide data (decks, timers)."""

    id: str
    name: str
    system: str
    settings: JsonMap
    actors: Mapping[str, Actor] = field(default_factory=dict)
    data: JsonMap = field(default_factory=dict)

    def actor(self, actor_id: str, field_name: str = "actor") -> Actor:
        try:
            return self.actors[actor_id]
        except KeyError:
            raise RulesError(
                "unknown_actor", t("error.unknown_actor", actor=actor_id), field_name
            ) from None

    def with_actor(self, actor: Actor) -> World:
        actors = dict(self.actors)
        actors[actor.id] = actor
        return World(self.id, self.name, self.system, self.settings, actors, self.data)

    def without_actor(self, actor_id: str) -> World:
        actors = {key: value for key, value in self.actors.items() if key != actor_id}
        return replace(self, actors=actors)

    def setting(self, key: str) -> Any:
        return self.settings[key]


@fast_init
@dataclass(frozen=True)
class Action:
    """A validated request to act: who acts, what kind of action, its parameters and targets."""

    kind: str
    actor_id: str
    params: JsonMap = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    by_gm: bool = False
    user: str = ""


@fast_init
@dataclass(frozen=True)
class ActorChange:
    """Effect: set keys of an actor's state, add and remove statuses."""

    actor_id: str
    state: JsonMap = field(default_factory=dict)
    add: frozenset[str] = frozenset()
    remove: frozenset[str] = frozenset()


@fast_init
@dataclass(frozen=True)
class WorldChange:
    """Effect: set keys of the world's system data."""

    data: JsonMap


Effect = ActorChange | WorldChange


@fast_init
@dataclass(frozen=True)
class Outcome:
    """How a roll went: a stable ``key`` (critical, success, failure, fumble...) and its label."""

    key: str
    label: Text
    success: bool | None = None
    margin: int | None = None


@fast_init
@dataclass(frozen=True)
class Line:
    """One line of a card: a label and an optional value."""

    label: Text
    value: Text | Scalar | None = None


@fast_init
@dataclass(frozen=True)
class Section:
    title: Text | None
    lines: tuple[Line, ...]


Allowed = Literal["owner", "gm", "target_owner"]


@fast_init
@dataclass(frozen=True)
class FollowUp:
    """A button on a card: pressing it runs ``action`` for ``actor_id``.

    ``allowed`` says who may press it: the owner of ``actor_id`` (and the GM),
    or the GM only. ``once`` buttons work a single time.
    """

    id: str
    label: Text
    action: str
    actor_id: str
    params: JsonMap = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    allowed: Allowed = "owner"
    once: bool = True
    ask: tuple[Any, ...] = ()
    """Parameters (``rules.params.Param``) the presser chooses; they override ``params``."""
    group: str | None = None
    """Buttons of one card sharing a group exclude each other: pressing one uses them all
    (parry, dodge or take the blow)."""


Visibility = Literal["public", "gm"]


@fast_init
@dataclass(frozen=True)
class Card:
    """The content of a chat card, before any rendering."""

    kind: str
    title: Text
    speaker: str | None
    dice: tuple[Die, ...] = ()
    outcome: Outcome | None = None
    sections: tuple[Section, ...] = ()
    actions: tuple[FollowUp, ...] = ()
    visibility: Visibility = "public"
    target: str | None = None


@fast_init
@dataclass(frozen=True)
class Resolution:
    """What an action did: every die rolled, the cards to show and the effects to apply."""

    action: Action
    cards: tuple[Card, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(die for card in self.cards for die in card.dice)


@fast_init
@dataclass(frozen=True)
class TimeStep:
    """Time that passes for a world: ``count`` rounds, minutes, hours or days."""

    unit: Literal["round", "minute", "hour", "day"]
    count: int = 1
    rest: bool = True
    """Whether the characters rest meanwhile (natural recovery needs it where a system has it)."""
