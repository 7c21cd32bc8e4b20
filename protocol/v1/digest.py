"""A request's digest: SHA-256 of its canonical JSON, what idempotency compares.

The canonical text is the standard encoder's, keys sorted, compact, UTF-8 as it is:
``[event, payload]``. A retry, after a restart too, is compared with the digest of the
request its id names: the one written with that event (every event before the eleventh
performance pass; the cluster's still), else worked out then from its stored payload
(``bridge.server.digest_of``), so the text must never change. For the events whose models
admit only text, integers, booleans, null, lists and objects with text keys (no float,
nothing free-form), orjson writes exactly those bytes (same escapes, keys in code point
order, which is UTF-8 byte order), ~5x faster; anything else, or anything orjson
refuses, takes the standard encoder (``tests/protocol/test_digest.py`` holds both to
the same text).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

from protocol.v1.requests import ACTION_EVENTS

_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
_SORTED = orjson.OPT_SORT_KEYS
_SHA256 = hashlib.sha256
"""The constructor, looked up once (``hashlib.sha256`` is a module attribute read and a
generic call each time it is named)."""
_DUMPS = orjson.dumps

NO_FLOAT_EVENTS: frozenset[str] = frozenset({*ACTION_EVENTS, "card_action"})
"""Events whose models accept no float and no free-form value (``Params`` are booleans,
integers, texts or null; ids, actors and targets are texts)."""


def canonical_text(event: str, payload: Any) -> str:
    """The standard encoder's canonical text of ``[event, payload]``."""
    return _CANONICAL.encode([event, payload])


def payload_digest(event: str, payload: Any) -> str:
    """The hex SHA-256 of the canonical text of ``[event, payload]``. ``payload`` must be
    one its event's model accepted (the fast path relies on what the model admits)."""
    if event in NO_FLOAT_EVENTS:
        try:
            return _SHA256(_DUMPS([event, payload], None, _SORTED)).hexdigest()
        except TypeError:  # orjson.JSONEncodeError: the standard encoder decides
            pass
    return _SHA256(canonical_text(event, payload).encode("utf-8")).hexdigest()
