import math

import msgpack
import pytest

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
