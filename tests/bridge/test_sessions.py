"""load_session's lean path for event lines agrees with the models: same lines accepted,
same errors for the refused ones, the same values for the accepted ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bridge.sessions import SessionFile, SessionFileError, _loads, load_session
from protocol.v1.session import SessionEvent
from rules.registry import default_registry

REGISTRY = default_registry()
HEADER = json.dumps({"type": "session", "world": {"system": "o3d10"}})
PUSHES = [{"type": "chat_card", "card": {"dice": [{"faces": [3], "sides": 10}]}, "index": 0}]


def _reference(line: str) -> SessionEvent | str:
    """What the loader did before the lean path: the models validate the parsed line."""
    try:
        raw = _loads(line)
    except json.JSONDecodeError as error:
        return f"line 2: not JSON: {error.msg}"
    try:
        return SessionEvent.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        return f"line 2: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}"


def _loaded(line: str) -> tuple[SessionFile, SessionEvent] | str:
    try:
        session = load_session([HEADER, line], REGISTRY)
    except SessionFileError as error:
        return str(error)
    (event,) = session.events
    return session, event


def _agree(line: str) -> None:
    expected = _reference(line)
    got = _loaded(line)
    if isinstance(expected, str):
        assert got == expected
        return
    assert not isinstance(got, str), got
    session, event = got
    assert event == expected
    assert event.model_dump() == expected.model_dump()
    assert event.model_fields_set == expected.model_fields_set
    assert session.recorded_pushes(0) == expected.pushes
    assert session.lines[0].model_dump(exclude={"pushes"}) == expected.model_dump(
        exclude={"pushes"}
    )


BASE: dict[str, Any] = {
    "type": "event",
    "seq": 3,
    "event": "roll",
    "user": "ana",
    "role": "player",
    "request": {"id": "r1", "actor": "aldara", "params": {"skill": "sigilo"}},
    "dice": [[10, 3], [10, 7]],
    "pushes": PUSHES,
    "at": "2026-11-30T12:00:00+00:00",
}

TABLE: list[dict[str, Any]] = [
    BASE,
    {**BASE, "dice": [3, 7]},
    {**BASE, "dice": [3, [6, 2]]},
    {**BASE, "dice": None, "pushes": None, "seq": None},
    {k: v for k, v in BASE.items() if k not in ("seq", "user", "role", "dice", "pushes", "at")},
    {**BASE, "note": "a", "expect": {"ok": True}, "expect_error": None},
    {**BASE, "expect_error": "rate_limited", "pushes": []},
    # Values the model converts or refuses: the lean path leaves them to the model.
    {**BASE, "seq": "3"},
    {**BASE, "seq": 3.0},
    {**BASE, "seq": True},
    {**BASE, "seq": 3.5},
    {**BASE, "dice": [[10, 3, 1]]},
    {**BASE, "dice": [["10", 3]]},
    {**BASE, "dice": [1.0]},
    {**BASE, "dice": [True]},
    {**BASE, "dice": "3"},
    {**BASE, "role": "admin"},
    {**BASE, "role": None},
    {**BASE, "user": None},
    {**BASE, "user": 5},
    {**BASE, "event": None},
    {**BASE, "type": "session"},
    {**BASE, "pushes": [1]},
    {**BASE, "pushes": {"type": "x"}},
    {**BASE, "request": []},
    {**BASE, "request": None},
    {**BASE, "expect": []},
    {**BASE, "extra": 1},
    {k: v for k, v in BASE.items() if k != "request"},
    {k: v for k, v in BASE.items() if k != "event"},
]


@pytest.mark.parametrize("raw", TABLE)
def test_lean_path_agrees_with_the_models(raw: dict[str, Any]) -> None:
    _agree(json.dumps(raw))


@pytest.mark.parametrize(
    "line",
    [
        "[1, 2]",
        '"event"',
        "{not json",
        json.dumps(BASE).replace("3,", "NaN,", 1),
        json.dumps({**BASE, "seq": 2**70}),
        json.dumps({**BASE, "user": "\ud800"}),
    ],
)
def test_odd_lines_agree_with_the_models(line: str) -> None:
    _agree(line)


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.sampled_from(["gm", "player", "event", "roll", "3", ""]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "a", "card"]), inner, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = [*BASE, "note", "expect", "expect_error", "extra"]


@settings(max_examples=300, deadline=None)
@given(
    drop=st.sets(st.sampled_from(_KEYS)),
    changes=st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=3),
)
def test_any_line_agrees_with_the_models(drop: set[str], changes: dict[str, Any]) -> None:
    raw = {k: v for k, v in BASE.items() if k not in drop}
    raw.update(changes)
    _agree(json.dumps(raw))


def test_exported_pushes_stay_in_the_text_until_read() -> None:
    session = load_session([HEADER, json.dumps(BASE)], REGISTRY)
    assert session.pushes_in_text == [True]
    assert session.lines[0].pushes is None
    assert session.recorded_pushes(0) == PUSHES
    assert session.events[0].pushes == PUSHES
