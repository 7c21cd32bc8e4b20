"""Arbitrary payloads at every event: always a clean ack, never a crash, never silence."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.v1.errors import ERRORS
from protocol.v1.requests import REQUEST_MODELS
from support.live import Env

EVENTS = sorted(REQUEST_MODELS)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=50)
    | st.binary(max_size=20)
)
json_like = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)
field_names = st.sampled_from(
    [
        "id",
        "actor",
        "action",
        "params",
        "targets",
        "card",
        "add",
        "remove",
        "unit",
        "count",
        "seq",
        "name",
        "sheet",
        "owner",
        "skill",
        "attribute",
        "level",
    ]
)


@st.composite
def shaped(draw: st.DrawFn) -> dict[str, Any]:
    """Payloads that look almost right, to get past the first checks."""
    payload: dict[str, Any] = {"id": draw(st.sampled_from(["abcdefgh1", "x", "", "0" * 70]))}
    payload["actor"] = draw(st.sampled_from(["aldara", "bruno", "ghost", ""]) | json_like)
    payload["action"] = draw(
        st.sampled_from(["skill", "attribute", "oppose", "token_return"]) | json_like
    )
    payload["params"] = draw(st.dictionaries(field_names, json_like, max_size=4) | json_like)
    extra = draw(st.dictionaries(field_names, json_like, max_size=3))
    return {**payload, **extra}


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    event=st.sampled_from([*EVENTS, "nope", "connect", "disconnect", "connect_error"]),
    payload=shaped() | json_like,
)
async def test_every_payload_gets_a_clean_ack(env: Env, event: str, payload: Any) -> None:
    if not env.clients:
        await env.join()
    gm = env.clients[0]
    ack = await gm.call(event, payload, timeout=10)
    assert ack["ok"] in (True, False)
    if ack["ok"] is False:
        error = ack["error"]
        assert error["code"] != "internal_error"
        assert isinstance(error["message"], str) and error["message"]
        assert error["code"] in ERRORS or error["code"].isidentifier()
    else:
        assert isinstance(ack["seq"], int)
