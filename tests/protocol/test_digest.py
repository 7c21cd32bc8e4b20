"""Request digests: the same canonical text, and so the same stored digests, whichever
encoder writes it."""

from __future__ import annotations

import hashlib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from protocol.v1.digest import NO_FLOAT_EVENTS, canonical_text, payload_digest
from protocol.v1.parse import parse_request


def standard(event: str, payload: Any) -> str:
    return hashlib.sha256(canonical_text(event, payload).encode("utf-8")).hexdigest()


def test_digests_stored_before_stay_the_same() -> None:
    """Digests taken by the standard encoder alone (before orjson) for these payloads:
    a retry after an upgrade must still match its stored event."""
    roll = {
        "id": "req-00000001",
        "actor": "aldara",
        "action": "skill",
        "params": {"skill": "sigilo", "n": 3, "ok": True, "x": None, "t": 'ñ"\n😀'},
        "targets": ["b"],
    }
    assert payload_digest("roll", roll) == (
        "d5fe50911a73133771ab6b211a28180a0a68b359e275d50590e9a37440941107"
    )
    upsert = {
        "id": "req-00000001",
        "actor": {"id": "a", "name": "A", "sheet": {"x": 1e16, "y": 0.1}},
    }
    assert payload_digest("actor_upsert", upsert) == (
        "d5871d76e5e0c92c4df2dbaeda0465ad80a9dd20037c38dd39cb3333da3acf59"
    )
    assert '"x":1e+16' in canonical_text("actor_upsert", upsert)


texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=st.characters(max_codepoint=0x40), max_size=12),
    st.sampled_from(["req-00000001", "aldara", "skill", "12.0", "damage", "gm", "b"]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**9), 10**9), texts)


@st.composite
def accepted(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    event = draw(st.sampled_from(sorted(NO_FLOAT_EVENTS)))
    request_id = draw(st.from_regex(r"\A[A-Za-z0-9_-]{8,20}\Z"))
    params = draw(st.dictionaries(texts, scalars, max_size=5))
    if event == "card_action":
        payload = {"id": request_id, "card": "3.0", "action": "damage", "params": params}
    else:
        payload = {"id": request_id, "action": "skill", "params": params}
        if draw(st.booleans()):
            payload["actor"] = draw(st.from_regex(r"\A[A-Za-z0-9_.:-]{1,10}\Z"))
        if draw(st.booleans()):
            payload["targets"] = draw(st.lists(st.from_regex(r"\A[a-z.]{1,8}\Z"), max_size=3))
        if draw(st.booleans()):
            payload["whisper"] = draw(st.lists(texts.filter(bool), min_size=1, max_size=3))
    return event, payload


@settings(max_examples=400, deadline=None)
@given(accepted())
def test_the_fast_digest_is_the_standard_one(drawn: tuple[str, dict[str, Any]]) -> None:
    event, payload = drawn
    if not isinstance(parse_request(event, (payload,)), BaseModel):
        return  # the fast path is only ever given payloads their model accepted
    assert payload_digest(event, payload) == standard(event, payload)


def test_other_events_and_what_orjson_refuses_take_the_standard_encoder() -> None:
    big = {"id": "req-00000001", "action": "skill", "params": {"n": 2**70}}
    assert payload_digest("roll", big) == standard("roll", big)
    floats = {"id": "req-00000001", "seq": 1, "x": 1e-7}
    assert payload_digest("undo", floats) == standard("undo", floats)
    assert '"x":1e-07' in canonical_text("undo", floats)
