"""Export a world's event log as a session file, and read session or scenario files back."""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import orjson
from pydantic import ValidationError

from bridge.serialize import world_from_json
from bridge.store_api import Store
from protocol.v1.session import ScenarioWorld, SessionEvent, SessionHeader
from rules.model import Actor, World
from rules.registry import Registry


class SessionFileError(Exception):
    """The file is not a valid session file; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def export_lines(store: Store, world_id: str) -> Iterator[str]:
    row = store.load_world(world_id)
    if row is None:
        raise KeyError(world_id)
    initial = store.initial_state(world_id)
    if initial is None:
        raise SessionFileError(0, f"world {world_id} predates recorded initial states")
    yield _dumps({"type": "session", "format": 1, "protocol": 1, "world": initial})
    after = 0
    while True:
        events = store.events_after(world_id, after, 1000)
        if not events:
            return
        for event in events:
            yield _dumps(
                {
                    "type": "event",
                    "seq": event.seq,
                    "event": event.event,
                    "user": event.user,
                    "role": event.role,
                    "request": event.payload,
                    "dice": event.draws,
                    "pushes": event.pushes,
                    "at": event.created_at,
                }
            )
        after = events[-1].seq


@dataclass(frozen=True)
class SessionFile:
    """A read session file. ``lines`` are its event lines as read, except that a line's
    recorded pushes may be left in its text (``pushes_in_text[i]``: its ``pushes`` is
    then None here, and :meth:`recorded_pushes` reads them); ``events`` gives every
    line whole, as the models validate it (built on first use)."""

    header: SessionHeader
    world: World
    lines: list[SessionEvent]
    texts: list[str] = field(default_factory=list)
    """Each event's line as it is in the file (replay compares exported pushes as text)."""
    pushes_in_text: list[bool] = field(default_factory=list)

    def recorded_pushes(self, index: int) -> list[dict[str, Any]] | None:
        """The pushes recorded on event line ``index`` (0-based), or None."""
        if self.pushes_in_text and self.pushes_in_text[index]:
            return _whole(self.texts[index]).pushes
        return self.lines[index].pushes

    @cached_property
    def events(self) -> list[SessionEvent]:
        if not any(self.pushes_in_text):
            return self.lines
        return [
            _whole(self.texts[index]) if in_text else line
            for index, (line, in_text) in enumerate(
                zip(self.lines, self.pushes_in_text, strict=True)
            )
        ]


def _scenario_world(registry: Registry, spec: ScenarioWorld) -> World:
    system = registry.get(spec.system)
    settings = system.validate_settings(spec.settings)
    settings["locale"] = spec.locale
    world = World("scenario", spec.name, spec.system, settings)
    actors: list[Actor] = list(system.sample_actors()) if spec.actors == "sample" else []
    for raw in ([] if spec.actors == "sample" else spec.actors) + spec.extra_actors:
        sheet = system.validate_sheet(raw.sheet)
        state = (
            system.validate_state(sheet, raw.state)
            if raw.state is not None
            else system.initial_state(sheet)
        )
        actors.append(
            Actor(raw.id, raw.name, raw.owner, sheet, state, frozenset(raw.statuses), raw.token)
        )
    for actor in actors:
        world = world.with_actor(actor)
    return world


def _loads(line: str) -> Any:
    """A line's JSON value: orjson (several times faster on long lines), and the standard
    parser for what orjson refuses (integers past 64 bits, NaN) or to name the error."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


_EVENT_TEXT = {"event": False, "user": False, "at": True, "note": True, "expect_error": True}
"""The event line's text fields, and whether each may be null."""


_DEFAULTS: dict[str, Any] = {
    name: info.default for name, info in SessionEvent.model_fields.items() if not info.is_required()
}


def _construct(fields: dict[str, Any]) -> SessionEvent:
    """What ``SessionEvent.model_construct(**fields)`` makes (the fields given are
    those set; the others take their defaults), without its per-field Python loop."""
    event = SessionEvent.__new__(SessionEvent)
    object.__setattr__(event, "__dict__", {**_DEFAULTS, **fields})
    object.__setattr__(event, "__pydantic_fields_set__", set(fields))
    object.__setattr__(event, "__pydantic_extra__", None)
    object.__setattr__(event, "__pydantic_private__", None)
    return event


def _whole(text: str) -> SessionEvent:
    """An event line read whole again (it passed the same check when the file was read)."""
    event = _lean_event(_loads(text), keep_pushes=True)
    assert event is not None
    return event


def _lean_event(raw: Any, *, keep_pushes: bool) -> SessionEvent | None:
    """The event line as :class:`SessionEvent` would validate it, for the shape the
    exporter writes and scenarios use, checked field by field in plain Python (values
    kept as parsed, the dice pairs made tuples as the model makes them); None for
    anything else (a missing or unknown key, a value of another type, a number given
    as text...): the model then decides, and names the error. So this path accepts
    only lines the model accepts, with the same values (tests/bridge/test_sessions.py
    holds both to it). Unless ``keep_pushes``, the pushes (checked: a list of objects)
    are left in the line's text, to be read when asked for."""
    if type(raw) is not dict or raw.get("type") != "event":
        return None
    for key, value in raw.items():
        if key in _EVENT_TEXT:
            if type(value) is not str and (value is not None or not _EVENT_TEXT[key]):
                return None
        elif key == "request":
            if type(value) is not dict:
                return None
        elif key == "seq":
            if value is not None and type(value) is not int:
                return None
        elif key == "role":
            if value != "gm" and value != "player":
                return None
        elif key == "dice":
            if value is None:
                continue
            if type(value) is not list:
                return None
            dice: list[int | tuple[int, int]] = []
            for item in value:
                kind = type(item)
                if kind is int:
                    dice.append(item)
                elif (
                    kind is list
                    and len(item) == 2
                    and type(item[0]) is int
                    and type(item[1]) is int
                ):
                    dice.append((item[0], item[1]))
                else:
                    return None
            raw = {**raw, "dice": dice}
        elif key == "pushes":
            if value is not None and (
                type(value) is not list or any(type(push) is not dict for push in value)
            ):
                return None
        elif key == "expect":
            if value is not None and type(value) is not dict:
                return None
        elif key != "type":
            return None
    if "event" not in raw or "request" not in raw:
        return None
    if not keep_pushes and raw.get("pushes") is not None:
        raw = {**raw, "pushes": None}
    return _construct(raw)


def load_session(lines: Iterable[str], registry: Registry) -> SessionFile:
    """Read a session or scenario file: the header, then every event line, each checked
    against its model (the first bad line raises :class:`SessionFileError`).

    The cyclic garbage collector is paused while the lines are read: a long file makes
    hundreds of thousands of containers (the recorded pushes) and none of them in a
    cycle, yet each few thousand would start a collection that walks them all again
    (it was most of the time of reading a long file). Memory is still freed as usual."""
    with collector_paused():
        return _load_session(lines, registry)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block, back as it was after (a caller that
    had it off keeps it off); a cycle made meanwhile is collected when it resumes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load_session(lines: Iterable[str], registry: Registry) -> SessionFile:
    header: SessionHeader | None = None
    events: list[SessionEvent] = []
    texts: list[str] = []
    in_text: list[bool] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            raw = _loads(line)
        except json.JSONDecodeError as error:
            raise SessionFileError(number, f"not JSON: {error.msg}") from None
        if header is not None:
            lean = _lean_event(raw, keep_pushes=False)
            if lean is not None:
                events.append(lean)
                texts.append(line)
                in_text.append(raw.get("pushes") is not None)
                continue
        try:
            if header is None:
                header = SessionHeader.model_validate(raw)
            else:
                events.append(SessionEvent.model_validate(raw))
                texts.append(line)
                in_text.append(False)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise SessionFileError(number, f"{where}: {first['msg']}") from None
    if header is None:
        raise SessionFileError(1, "empty file: the first line must be the session header")
    if isinstance(header.world, ScenarioWorld):
        world = _scenario_world(registry, header.world)
    else:
        world = world_from_json(header.world)
    if world.system not in registry:
        raise SessionFileError(1, f"unknown system {world.system!r}")
    return SessionFile(header, world, events, texts, in_text)
