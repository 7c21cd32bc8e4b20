import math

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.v1.limits import MAX_DEPTH, MAX_NODES, MAX_STRING, check_payload


def test_plain_payload_passes() -> None:
    assert check_payload({"id": "abc", "params": {"skill": "sigilo", "n": 3, "ok": True}}) is None


@pytest.mark.parametrize(
    ("payload", "code", "field"),
    [
        ({"a": msgpack.ExtType(0, b"")}, "ext_type", "a"),
        ({"when": msgpack.Timestamp(0)}, "ext_type", "when"),
        ({"blob": b"\x00\x01"}, "ext_type", "blob"),
        ({"n": 2**53}, "invalid_field", "n"),
        ({"n": -(2**64)}, "invalid_field", "n"),
        ({"x": math.inf}, "invalid_field", "x"),
        ({"x": math.nan}, "invalid_field", "x"),
        ({"s": "x" * (MAX_STRING + 1)}, "payload_too_large", "s"),
        ({1: "numeric key"}, "invalid_field", None),
    ],
)
def test_refusals(payload: object, code: str, field: str | None) -> None:
    error = check_payload(payload)
    assert error is not None
    assert (error.code, error.field) == (code, field)


def test_depth_limit() -> None:
    payload: object = "leaf"
    for _ in range(MAX_DEPTH + 1):
        payload = [payload]
    error = check_payload(payload)
    assert error is not None and error.code == "payload_too_large"


def test_node_and_size_limits() -> None:
    many = check_payload({"list": list(range(MAX_NODES + 1))})
    assert many is not None and many.code == "payload_too_large"
    big = check_payload({"list": ["y" * 3000] * 30})
    assert big is not None and big.code == "payload_too_large"


def test_the_quick_walk_never_accepts_what_the_full_walk_refuses() -> None:
    from protocol.v1.limits import MAX_DEPTH, _find_problem, _plainly_within

    deep: object = "x"
    for _ in range(MAX_DEPTH + 1):
        deep = {"k": deep}
    cases: list[object] = [
        {"id": "abc", "params": {"skill": "sigilo", "n": 3}, "targets": ["a", "b"]},
        deep,
        {"k": "x" * 4001},
        {"k": 2**53},
        {"k": -(2**53)},
        {"k": float("nan")},
        {"k": 1.5},
        {"k" * 201: 1},
        {1: "x"},
        {"k": ("a", "b")},
        {"k": b"bytes"},
        ["x"] * 5000,
        ["é" * 3999] * 20,
        {"k": [None, True, False, 0]},
    ]
    for case in cases:
        if _plainly_within(case):
            assert _find_problem(case) is None, case
    assert _plainly_within(cases[0])


_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text(max_size=8), inner, max_size=6)
        | st.tuples(inner, inner)
    ),
    max_leaves=60,
)


@given(_values)
def test_check_payload_answers_as_the_full_walk(value: object) -> None:
    from protocol.v1.limits import _find_problem

    assert check_payload(value) == _find_problem(value)
