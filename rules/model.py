"""The data the rules core works on and returns: worlds, actors, actions, resolutions, cards.

Everything here is a frozen dataclass; each writes its own ``__init__`` and is
finished by :func:`rules.records.native_record` (a native class when compiled:
see that module). Sheets, per-actor state and per-world
system data are JSON-like mappings (they are stored and sent as they are);
each system parses them into its own typed records. Nothing here renders
text: a :class:`Text` is a message key and its parameters, turned into
Spanish or English words by the bridge from the system's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, final

from rules.dice import Die
from rules.records import NEW_DICT, native_record

JsonMap = Mapping[str, Any]
Scalar = str | int | float | bool


@final
@dataclass(frozen=True)
class Text:
    """A message key in a system's catalogue with its parameters.

    Parameters are shown as they are, escaped; a parameter whose value is itself
    a :class:`Text` is translated first.
    """

    key: str
    params: Mapping[str, TextParam] = field(default_factory=dict)

    def __init__(self, key: str, params: Mapping[str, TextParam] = NEW_DICT) -> None:
        self.key = key  # type: ignore[misc]
        self.params = {} if params is NEW_DICT else params  # type: ignore[misc]


native_record(Text)


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


@final
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

    def __init__(
        self,
        id: str,
        name: str,
        owner: str | None,
        sheet: JsonMap,
        state: JsonMap = NEW_DICT,
        statuses: frozenset[str] = frozenset(),
        token: str | None = None,
        hidden: bool = False,
    ) -> None:
        self.id = id  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.owner = owner  # type: ignore[misc]
        self.sheet = sheet  # type: ignore[misc]
        self.state = {} if state is NEW_DICT else state  # type: ignore[misc]
        self.statuses = statuses  # type: ignore[misc]
        self.token = token  # type: ignore[misc]
        self.hidden = hidden  # type: ignore[misc]


native_record(Actor)


@final
@dataclass(frozen=True)
class World:
    """Everything the rules may read: settings, actors and system-wide data (decks, timers)."""

    id: str
    name: str
    system: str
    settings: JsonMap
    actors: Mapping[str, Actor] = field(default_factory=dict)
    data: JsonMap = field(default_factory=dict)

    def __init__(
        self,
        id: str,
        name: str,
        system: str,
        settings: JsonMap,
        actors: Mapping[str, Actor] = NEW_DICT,
        data: JsonMap = NEW_DICT,
    ) -> None:
        self.id = id  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.system = system  # type: ignore[misc]
        self.settings = settings  # type: ignore[misc]
        self.actors = {} if actors is NEW_DICT else actors  # type: ignore[misc]
        self.data = {} if data is NEW_DICT else data  # type: ignore[misc]

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


native_record(World)


@final
@dataclass(frozen=True)
class Action:
    """A validated request to act: who acts, what kind of action, its parameters and targets."""

    kind: str
    actor_id: str
    params: JsonMap = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    by_gm: bool = False
    user: str = ""

    def __init__(
        self,
        kind: str,
        actor_id: str,
        params: JsonMap = NEW_DICT,
        targets: tuple[str, ...] = (),
        by_gm: bool = False,
        user: str = "",
    ) -> None:
        self.kind = kind  # type: ignore[misc]
        self.actor_id = actor_id  # type: ignore[misc]
        self.params = {} if params is NEW_DICT else params  # type: ignore[misc]
        self.targets = targets  # type: ignore[misc]
        self.by_gm = by_gm  # type: ignore[misc]
        self.user = user  # type: ignore[misc]


native_record(Action)


@final
@dataclass(frozen=True)
class ActorChange:
    """Effect: set keys of an actor's state, add and remove statuses."""

    actor_id: str
    state: JsonMap = field(default_factory=dict)
    add: frozenset[str] = frozenset()
    remove: frozenset[str] = frozenset()

    def __init__(
        self,
        actor_id: str,
        state: JsonMap = NEW_DICT,
        add: frozenset[str] = frozenset(),
        remove: frozenset[str] = frozenset(),
    ) -> None:
        self.actor_id = actor_id  # type: ignore[misc]
        self.state = {} if state is NEW_DICT else state  # type: ignore[misc]
        self.add = add  # type: ignore[misc]
        self.remove = remove  # type: ignore[misc]


native_record(ActorChange)


@final
@dataclass(frozen=True)
class WorldChange:
    """Effect: set keys of the world's system data."""

    data: JsonMap

    def __init__(self, data: JsonMap) -> None:
        self.data = data  # type: ignore[misc]


native_record(WorldChange)


Effect = ActorChange | WorldChange


@final
@dataclass(frozen=True)
class Outcome:
    """How a roll went: a stable ``key`` (critical, success, failure, fumble...) and its label."""

    key: str
    label: Text
    success: bool | None = None
    margin: int | None = None

    def __init__(
        self, key: str, label: Text, success: bool | None = None, margin: int | None = None
    ) -> None:
        self.key = key  # type: ignore[misc]
        self.label = label  # type: ignore[misc]
        self.success = success  # type: ignore[misc]
        self.margin = margin  # type: ignore[misc]


native_record(Outcome)


@final
@dataclass(frozen=True)
class Line:
    """One line of a card: a label and an optional value."""

    label: Text
    value: Text | Scalar | None = None

    def __init__(self, label: Text, value: Text | Scalar | None = None) -> None:
        self.label = label  # type: ignore[misc]
        self.value = value  # type: ignore[misc]


native_record(Line)


@final
@dataclass(frozen=True)
class Section:
    title: Text | None
    lines: tuple[Line, ...]

    def __init__(self, title: Text | None, lines: tuple[Line, ...]) -> None:
        self.title = title  # type: ignore[misc]
        self.lines = lines  # type: ignore[misc]


native_record(Section)


Allowed = Literal["owner", "gm", "target_owner"]


@final
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

    def __init__(
        self,
        id: str,
        label: Text,
        action: str,
        actor_id: str,
        params: JsonMap = NEW_DICT,
        targets: tuple[str, ...] = (),
        allowed: Allowed = "owner",
        once: bool = True,
        ask: tuple[Any, ...] = (),
        group: str | None = None,
    ) -> None:
        self.id = id  # type: ignore[misc]
        self.label = label  # type: ignore[misc]
        self.action = action  # type: ignore[misc]
        self.actor_id = actor_id  # type: ignore[misc]
        self.params = {} if params is NEW_DICT else params  # type: ignore[misc]
        self.targets = targets  # type: ignore[misc]
        self.allowed = allowed  # type: ignore[misc]
        self.once = once  # type: ignore[misc]
        self.ask = ask  # type: ignore[misc]
        self.group = group  # type: ignore[misc]


native_record(FollowUp)


Visibility = Literal["public", "gm"]


@final
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

    def __init__(
        self,
        kind: str,
        title: Text,
        speaker: str | None,
        dice: tuple[Die, ...] = (),
        outcome: Outcome | None = None,
        sections: tuple[Section, ...] = (),
        actions: tuple[FollowUp, ...] = (),
        visibility: Visibility = "public",
        target: str | None = None,
    ) -> None:
        self.kind = kind  # type: ignore[misc]
        self.title = title  # type: ignore[misc]
        self.speaker = speaker  # type: ignore[misc]
        self.dice = dice  # type: ignore[misc]
        self.outcome = outcome  # type: ignore[misc]
        self.sections = sections  # type: ignore[misc]
        self.actions = actions  # type: ignore[misc]
        self.visibility = visibility  # type: ignore[misc]
        self.target = target  # type: ignore[misc]


native_record(Card)


@final
@dataclass(frozen=True)
class Resolution:
    """What an action did: every die rolled, the cards to show and the effects to apply."""

    action: Action
    cards: tuple[Card, ...] = ()
    effects: tuple[Effect, ...] = ()

    def __init__(
        self, action: Action, cards: tuple[Card, ...] = (), effects: tuple[Effect, ...] = ()
    ) -> None:
        self.action = action  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]
        self.effects = effects  # type: ignore[misc]

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(die for card in self.cards for die in card.dice)


native_record(Resolution)


@final
@dataclass(frozen=True)
class TimeStep:
    """Time that passes for a world: ``count`` rounds, minutes, hours or days."""

    unit: Literal["round", "minute", "hour", "day"]
    count: int = 1
    rest: bool = True
    """Whether the characters rest meanwhile (natural recovery needs it where a system has it)."""

    def __init__(
        self, unit: Literal["round", "minute", "hour", "day"], count: int = 1, rest: bool = True
    ) -> None:
        self.unit = unit  # type: ignore[misc]
        self.count = count  # type: ignore[misc]
        self.rest = rest  # type: ignore[misc]


native_record(TimeStep)
