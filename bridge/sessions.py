"""Export a world's event log as a session file, and read session or scenario files back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
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
    header: SessionHeader
    world: World
    events: list[SessionEvent]
    texts: list[str] = field(default_factory=list)
    """Each event's line as it is in the file (replay compares exported pushes as text)."""


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


def load_session(lines: Iterable[str], registry: Registry) -> SessionFile:
    header: SessionHeader | None = None
    events: list[SessionEvent] = []
    texts: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            raw = _loads(line)
        except json.JSONDecodeError as error:
            raise SessionFileError(number, f"not JSON: {error.msg}") from None
        try:
            if header is None:
                header = SessionHeader.model_validate(raw)
            else:
                events.append(SessionEvent.model_validate(raw))
                texts.append(line)
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
    return SessionFile(header, world, events, texts)
