"""From a decoded Socket.IO argument to a validated request model, or a refusal.

Shared by the server and the replay harness so both refuse exactly alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from protocol.v1.lean import lean_action, lean_card_action
from protocol.v1.limits import check_payload
from protocol.v1.requests import ACTION_EVENTS, REQUEST_MODELS


@dataclass(frozen=True)
class ParseError:
    code: str
    field: str | None = None


def field_of(error: ValidationError) -> str | None:
    """The path of the bad field: the common prefix of every error's location."""
    locs = [tuple(str(p) for p in e["loc"]) for e in error.errors()]
    if not locs:
        return None
    prefix = list(locs[0])
    for loc in locs[1:]:
        common = 0
        while common < min(len(prefix), len(loc)) and prefix[common] == loc[common]:
            common += 1
        prefix = prefix[:common]
    if len(locs) == 1 and len(prefix) > 1 and prefix[-1] in ("bool", "int", "str", "none"):
        prefix = prefix[:-1]
    return ".".join(prefix) or None


def parse_request(event: str, args: Sequence[Any]) -> BaseModel | ParseError:
    if len(args) != 1:
        return ParseError("bad_payload")
    payload = args[0]
    # The plainly valid payloads of the usual events, checked in plain Python (each called
    # by name: a direct call once compiled, not one through a table of functions).
    made: BaseModel | None = None
    if event in ACTION_EVENTS:
        made = lean_action(payload)
    elif event == "card_action":
        made = lean_card_action(payload)
    if made is not None:
        return made
    problem = check_payload(payload)
    if problem is not None:
        return ParseError(problem.code, problem.field)
    if not isinstance(payload, dict):
        return ParseError("bad_payload")
    model = REQUEST_MODELS.get(event)
    if model is None:
        return ParseError("unknown_event", "event")
    try:
        return model.model_validate(payload)
    except ValidationError as error:
        return ParseError("invalid_field", field_of(error))
