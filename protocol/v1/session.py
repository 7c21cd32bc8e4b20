"""Session files: a world's event log as JSON lines, for export, replay and scenarios.

Line 1 is a :class:`SessionHeader`; every other line a :class:`SessionEvent`.
An exported file carries everything (``seq``, ``dice`` as ``[sides, face]``
pairs, the ``pushes`` each event produced); a hand-written scenario may leave
``seq`` and ``pushes`` out, give ``dice`` as bare faces, describe its world by
system and actors, and state what it expects with ``expect`` (dotted paths into
the ack, as the sender would receive it) or ``expect_error`` (a refusal code).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SESSION_FORMAT = 1


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioActor(Model):
    id: str
    name: str
    owner: str | None = None
    token: str | None = None
    sheet: dict[str, Any]
    state: dict[str, Any] | None = None
    statuses: list[str] = []


class ScenarioWorld(Model):
    """A world described by hand: its system, settings and actors ("sample" for the demo's)."""

    system: str
    name: str = "Escenario"
    settings: dict[str, Any] = {}
    locale: Literal["es", "en"] = "es"
    actors: Literal["sample"] | list[ScenarioActor] = "sample"
    extra_actors: list[ScenarioActor] = []


class SessionHeader(Model):
    type: Literal["session"]
    format: Literal[1] = 1
    protocol: Literal[1] = 1
    title: str | None = None
    source: str | None = Field(None, description="where the example comes from (a seed passage)")
    world: ScenarioWorld | dict[str, Any] = Field(
        union_mode="left_to_right",
        description="the world at seq 0 as exported (id, name, system, settings, actors, data),"
        " or a ScenarioWorld",
    )


class SessionEvent(Model):
    type: Literal["event"]
    seq: int | None = None
    event: str
    user: str = "gm"
    role: Literal["gm", "player"] = "gm"
    request: dict[str, Any]
    dice: list[int | tuple[int, int]] | None = Field(
        None, description="faces served to this request: [sides, face] pairs or bare faces"
    )
    pushes: list[dict[str, Any]] | None = None
    at: str | None = None
    note: str | None = None
    expect: dict[str, Any] | None = None
    expect_error: str | None = None
