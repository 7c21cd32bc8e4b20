"""The lean checks (protocol/v1/lean.py) accept only what the limits and the models
accept, and build the very model the models build; anything else is left to them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from protocol.v1.lean import lean_action, lean_card_action
from protocol.v1.limits import check_payload
from protocol.v1.parse import parse_request
from protocol.v1.requests import ActionRequest, CardActionRequest

ROLL = {"id": "req-00000001", "actor": "aldara", "action": "skill", "params": {"skill": "sigilo"}}
CARD = {"id": "req-00000002", "card": "12.0", "action": "damage", "params": {"raise": True}}


def strict(model: type[BaseModel], payload: Any) -> BaseModel | None:
    """What the limits and the model make of ``payload`` (None: refused)."""
    if check_payload(payload) is not None or not isinstance(payload, dict):
        return None
    try:
        return model.model_validate(payload)
    except ValidationError:
        return None


def agrees(model: type[BaseModel], lean: Any, payload: Any) -> bool:
    """The lean check either leaves the payload to the models, or makes what they make:
    equal fields of the same types, the same fields set, and lists/dicts of its own."""
    made = lean(payload)
    if made is None:
        return True
    expected = strict(model, payload)
    assert expected is not None, f"lean accepted what the model refuses: {payload!r}"
    assert type(made) is model
    assert made == expected
    assert made.model_fields_set == expected.model_fields_set
    assert made.model_dump() == expected.model_dump()
    for name in model.model_fields:
        ours, theirs = getattr(made, name), getattr(expected, name)
        assert type(ours) is type(theirs), name
        if isinstance(ours, dict):
            assert [type(v) for v in ours.values()] == [type(v) for v in theirs.values()]
        if isinstance(ours, list | dict) and isinstance(payload, dict) and name in payload:
            assert ours is not payload[name], "the request must not share the payload's lists"
    assert made.model_dump_json() == expected.model_dump_json()
    return True


def test_the_shapes_clients_send_take_the_lean_path() -> None:
    """The fast path is used (a check that always declined would agree with anything)."""
    for payload in (
        ROLL,
        {**ROLL, "targets": ["b", "c.1"], "whisper": ["gm"]},
        {"id": "x" * 64, "action": "next_round", "actor": None},
        {**ROLL, "params": {"n": -(10**9), "on": False, "k": None, "t": "ñ" * 200}},
    ):
        assert lean_action(payload) is not None, payload
        assert agrees(ActionRequest, lean_action, payload)
        assert parse_request("roll", (payload,)) == ActionRequest.model_validate(payload)
    assert lean_card_action(CARD) is not None
    assert lean_card_action({k: v for k, v in CARD.items() if k != "params"}) is not None
    assert agrees(CardActionRequest, lean_card_action, CARD)


@pytest.mark.parametrize(
    "payload",
    [
        {**ROLL, "id": "short"},
        {**ROLL, "id": "x" * 65},
        {**ROLL, "id": "abcdefgh\n"},  # the models' $ is the end of the text
        {**ROLL, "actor": ""},
        {**ROLL, "actor": "a b"},
        {**ROLL, "actor": 3},
        {**ROLL, "action": "Skill"},
        {**ROLL, "action": "s" * 41},
        {**ROLL, "params": {"n": 10**9 + 1}},
        {**ROLL, "params": {"n": 2**60}},
        {**ROLL, "params": {"n": 1.0}},
        {**ROLL, "params": {"n": float("nan")}},
        {**ROLL, "params": {"n": [1]}},
        {**ROLL, "params": {"k" * 41: 1}},
        {**ROLL, "params": {3: 1}},
        {**ROLL, "params": {"t": "x" * 201}},
        {**ROLL, "params": {"t": "\ud800"}},
        {**ROLL, "params": {f"p{i}": i for i in range(33)}},
        {**ROLL, "params": None},
        {**ROLL, "targets": ("a",)},
        {**ROLL, "targets": ["a"] * 21},
        {**ROLL, "targets": [""]},
        {**ROLL, "whisper": []},
        {**ROLL, "whisper": [""]},
        {**ROLL, "whisper": ["x" * 101]},
        {**ROLL, "whisper": ["\udfff"]},
        {**ROLL, "extra": 1},
        {k: v for k, v in ROLL.items() if k != "id"},
        {k: v for k, v in ROLL.items() if k != "action"},
        ["not", "an", "object"],
        None,
    ],
)
def test_anything_doubtful_is_left_to_the_models(payload: Any) -> None:
    assert lean_action(payload) is None
    assert agrees(ActionRequest, lean_action, payload)
    refused = parse_request("roll", (payload,))
    expected = strict(ActionRequest, payload)
    assert refused == expected or (expected is None and not isinstance(refused, BaseModel))


@pytest.mark.parametrize(
    "payload",
    [
        {**CARD, "card": "12"},
        {**CARD, "card": "1.1234"},
        {**CARD, "action": "Damage"},
        {**CARD, "params": {"x": 1.5}},
        {**CARD, "actor": "a"},
        {k: v for k, v in CARD.items() if k != "card"},
    ],
)
def test_doubtful_card_actions_are_left_to_the_model(payload: Any) -> None:
    assert lean_card_action(payload) is None


texts = st.one_of(
    st.sampled_from(["", "a", "aldara", "req-0001", "abcdefgh", "x" * 64, "x" * 65, "ñ", "a b"]),
    st.text(max_size=70),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.sampled_from([10**9, -(10**9), 10**9 + 1, 0, 1.0, 2**53]),
    st.floats(allow_nan=True),
    texts,
)
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(texts, scalars))


@st.composite
def near_valid(draw: st.DrawFn, base: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    payload = dict(base)
    for key in draw(st.lists(st.sampled_from([*keys, "extra"]), max_size=3)):
        if draw(st.booleans()):
            payload.pop(key, None)
        else:
            payload[key] = draw(values)
    if draw(st.booleans()):
        payload["params"] = draw(st.dictionaries(texts, scalars, max_size=4))
    if draw(st.booleans()):
        payload["targets"] = draw(st.lists(texts, max_size=3))
    if draw(st.booleans()):
        payload["whisper"] = draw(st.one_of(st.none(), st.lists(texts, max_size=3)))
    return payload


@settings(max_examples=400, deadline=None)
@given(near_valid(ROLL, ["id", "actor", "action", "params", "targets", "whisper"]))
def test_lean_actions_agree_with_the_model(payload: dict[str, Any]) -> None:
    assert agrees(ActionRequest, lean_action, payload)


@settings(max_examples=200, deadline=None)
@given(near_valid(CARD, ["id", "card", "action", "params"]))
def test_lean_card_actions_agree_with_the_model(payload: dict[str, Any]) -> None:
    payload.pop("targets", None)
    payload.pop("whisper", None)
    assert agrees(CardActionRequest, lean_card_action, payload)


def test_names_that_matched_are_remembered_and_only_those() -> None:
    """Actor ids, action names and follow-up ids that matched are remembered (a set
    lookup instead of the pattern next time); a name that did not match is never
    remembered and is refused again; past the bound the sets start over, still right."""
    from protocol.v1 import lean

    good = {**ROLL, "actor": "remembered.actor", "action": "remembered_slug"}
    assert lean_action(good) is not None
    assert "remembered.actor" in lean._ACTOR_IDS and "remembered_slug" in lean._SLUGS
    for bad in ({**good, "actor": "remembered actor"}, {**good, "action": "Remembered"}):
        assert lean_action(bad) is None
        assert lean_action(bad) is None  # refused again: never remembered
    assert "remembered actor" not in lean._ACTOR_IDS and "Remembered" not in lean._SLUGS
    assert lean_action({**good, "targets": ["remembered.actor", "x y"]}) is None
    assert lean_card_action({**CARD, "action": "Bad"}) is None
    assert "Bad" not in lean._FOLLOW_UP_IDS
    for index in range(lean._KNOWN_SIZE + 5):
        assert lean_action({**ROLL, "actor": f"actor{index}"}) is not None
    assert len(lean._ACTOR_IDS) <= lean._KNOWN_SIZE
    assert lean_action({**good, "actor": "remembered actor"}) is None
    assert agrees(ActionRequest, lean_action, good)
