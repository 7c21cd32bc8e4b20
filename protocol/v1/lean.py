"""The most common requests checked in plain Python, for the shapes clients send.

Every request goes through :func:`protocol.v1.parse.parse_request`: the structural
limits walk (:mod:`protocol.v1.limits`), then the pydantic model. For the action events
(``roll``, ``attack``...) and ``card_action`` that was ~10 us of a request whose rules
take ~9. The functions here check such a payload field by field against what its model
states (exact types, as the models are strict; the same patterns, lengths and bounds)
and build the model's instance directly. They answer None for anything else (a missing
or unknown key, a value of another type, a float, a text that is not valid Unicode...):
the limits walk and the model then decide as before, and name the error. So this path
accepts only payloads the limits and the model accept, with the same values
(``tests/protocol/test_lean.py`` holds them to it with a table and Hypothesis).

An accepted payload is always within the limits: at most 32 parameters of at most 40 +
200 characters, 20 targets of 64 and 20 whisper names of 100 are under 45 kB as UTF-8
(the limit is 64 kB), the nesting is 2 deep (limit 8), ~80 values (limit 4,000) and
the integers within ±10**9 (limit 2**53).
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

from protocol.v1.requests import ActionRequest, CardActionRequest, Model

M = TypeVar("M", bound=Model)

# The models' patterns: ``fullmatch`` of the pattern without its anchors is what the
# models' ``^...$`` mean (the pydantic regex engine's ``$`` is the end of the text only).
_ACTOR_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}").fullmatch
_SLUG = re.compile(r"[a-z][a-z0-9_]{0,39}").fullmatch
_FOLLOW_UP_ID = re.compile(r"[a-z][a-z0-9_.:-]{0,63}").fullmatch
_CARD_ID = re.compile(r"[0-9]{1,15}\.[0-9]{1,3}").fullmatch

_KNOWN_SIZE = 4096
"""Actor ids and action names that matched their pattern, remembered (emptied at the
bound): a table sends the same few again and again, and a set lookup is ~5x cheaper
than the pattern. Request ids are new each time and always matched."""
_ACTOR_IDS: set[str] = set()
_SLUGS: set[str] = set()
_FOLLOW_UP_IDS: set[str] = set()


def _known(value: str, known: set[str], pattern: Any) -> bool:
    """Whether ``value`` (a ``str``) matches ``pattern`` in full, remembering the ones
    that did in ``known``."""
    if value in known:
        return True
    if pattern(value) is None:
        return False
    if len(known) >= _KNOWN_SIZE:
        known.clear()
    known.add(value)
    return True


_ACTION_KEYS = frozenset({"id", "actor", "action", "params", "targets", "whisper"})
_CARD_ACTION_KEYS = frozenset({"id", "card", "action", "params"})
_PARAM_INT = 10**9


def _request_id(value: str) -> bool:
    """Whether ``value`` (a ``str``) is a request id: 8 to 64 ASCII letters, digits,
    ``_`` or ``-`` (the models' ``^[A-Za-z0-9_-]{8,64}$``). Checked by ``str``'s own
    loops, not the pattern: an ASCII text's ``isalnum`` is exactly ``[A-Za-z0-9]``."""
    if not 8 <= len(value) <= 64 or not value.isascii():
        return False
    return value.isalnum() or value.replace("-", "0").replace("_", "0").isalnum()


def _keys_within(payload: dict[Any, Any], keys: frozenset[str]) -> bool:
    """Whether every key of ``payload`` is one of ``keys`` (a loop over the few keys a
    payload has, which mypyc compiles to a plain loop: no method call on the set)."""
    return all(key in keys for key in payload)


def _text(value: str) -> bool:
    """Whether pydantic takes this ``str`` as text: not when it holds a lone surrogate."""
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _params(raw: Any) -> dict[str, Any] | None:
    """The ``Params`` field: at most 32 keys of at most 40 characters, each value a
    bool, an int within ±10**9, a text of at most 200 characters, or null."""
    if type(raw) is not dict or len(raw) > 32:
        return None
    for key, value in raw.items():
        if type(key) is not str or len(key) > 40 or not _text(key):
            return None
        kind = type(value)
        if kind is str:
            if len(value) > 200 or not _text(value):
                return None
        elif kind is int:
            if not -_PARAM_INT <= value <= _PARAM_INT:
                return None
        elif value is not None and kind is not bool:
            return None
    return dict(raw)


# BaseModel's four slots, set through their descriptors (each a direct slot store; what
# ``object.__setattr__`` does after looking the name up each time).
_SET_DICT = BaseModel.__dict__["__dict__"].__set__
_SET_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__
_NEW = object.__new__  # what ``model.__new__`` is for these models (BaseModel has none)


def _build(model: type[M], fields: dict[str, Any], given: set[str]) -> M:
    """What ``model.model_validate`` makes of a payload whose checked values are
    ``fields`` (every field, in the model's order) and whose keys were ``given``."""
    made: M = _NEW(model)
    _SET_DICT(made, fields)
    _SET_FIELDS_SET(made, given)
    _SET_EXTRA(made, None)
    _SET_PRIVATE(made, None)
    return made


def lean_action(payload: Any) -> ActionRequest | None:
    """``ActionRequest.model_validate(payload)`` for a plainly valid payload, else None."""
    if type(payload) is not dict or not _keys_within(payload, _ACTION_KEYS):
        return None
    request_id = payload.get("id")
    action = payload.get("action")
    if (
        type(request_id) is not str
        or not _request_id(request_id)
        or type(action) is not str
        or not _known(action, _SLUGS, _SLUG)
    ):
        return None
    actor = payload.get("actor")
    if actor is not None and (type(actor) is not str or not _known(actor, _ACTOR_IDS, _ACTOR_ID)):
        return None
    if "params" in payload:
        params = _params(payload["params"])
        if params is None:
            return None
    else:
        params = {}
    if "targets" in payload:
        raw_targets = payload["targets"]
        if type(raw_targets) is not list or len(raw_targets) > 20:
            return None
        for target in raw_targets:
            if type(target) is not str or not _known(target, _ACTOR_IDS, _ACTOR_ID):
                return None
        targets = list(raw_targets)
    else:
        targets = []
    whisper = payload.get("whisper")
    if whisper is not None:
        if type(whisper) is not list or not 1 <= len(whisper) <= 20:
            return None
        for user in whisper:
            if type(user) is not str or not 1 <= len(user) <= 100 or not _text(user):
                return None
        whisper = list(whisper)
    fields = {
        "id": request_id,
        "actor": actor,
        "action": action,
        "params": params,
        "targets": targets,
        "whisper": whisper,
    }
    return _build(ActionRequest, fields, set(payload))


def lean_card_action(payload: Any) -> CardActionRequest | None:
    """``CardActionRequest.model_validate(payload)`` for a plainly valid payload, else
    None."""
    if type(payload) is not dict or not _keys_within(payload, _CARD_ACTION_KEYS):
        return None
    request_id, card, action = payload.get("id"), payload.get("card"), payload.get("action")
    if (
        type(request_id) is not str
        or not _request_id(request_id)
        or type(card) is not str
        or not _CARD_ID(card)
        or type(action) is not str
        or not _known(action, _FOLLOW_UP_IDS, _FOLLOW_UP_ID)
    ):
        return None
    if "params" in payload:
        params = _params(payload["params"])
        if params is None:
            return None
    else:
        params = {}
    fields = {"id": request_id, "card": card, "action": action, "params": params}
    return _build(CardActionRequest, fields, set(payload))
