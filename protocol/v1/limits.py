"""Structural limits checked on a decoded payload before any model sees it.

msgpack can carry things no JSON model expects (extension types such as the
JS parser's ``undefined``/``Date``, timestamps, bytes) and sizes that would make
work for the server (deep nesting, huge arrays, integers past 2**53). This
walk refuses them with a stable code and the path of the first offending
value, without recursion, in time linear in the payload.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 8
MAX_NODES = 4000
MAX_STRING = 4000
MAX_TOTAL_BYTES = 64 * 1024
MAX_SAFE_INT = 2**53 - 1


@dataclass(frozen=True)
class LimitError:
    code: str
    field: str | None
    detail: str


def check_payload(payload: Any) -> LimitError | None:
    """The first limit ``payload`` breaks, with its path, or None.

    Most payloads are well within every limit, so a walk that builds no paths answers
    first; only a payload it doubts is walked again to name the problem and its path.
    """
    if _plainly_within(payload):
        return None
    return _find_problem(payload)


def _plainly_within(payload: Any) -> bool:
    """True only if :func:`_find_problem` would find nothing (it may say False when it
    would, too): the same walk, without paths, giving up at anything unusual."""
    nodes = 0
    size = 0
    stack: list[tuple[Any, int]] = [(payload, 0)]
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return False
        kind = type(value)
        if kind is str:
            if len(value) > MAX_STRING:
                return False
            # UTF-8 takes at most 4 bytes a character (3 for a lone surrogate).
            size += 4 * len(value) + 5
        elif kind is int:
            if not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
                return False
            size += 9
        elif kind is dict:
            if depth >= MAX_DEPTH:
                return False
            size += 5
            for key, item in value.items():
                if type(key) is not str or len(key) > 200:
                    return False
                size += len(key) + 5
                stack.append((item, depth + 1))
        elif kind is list:
            if depth >= MAX_DEPTH:
                return False
            size += 5
            stack.extend((item, depth + 1) for item in value)
        elif value is None or kind is bool:
            size += 1
        else:  # floats, tuples, extension types...: the full walk decides
            return False
    return nodes <= MAX_NODES and size <= MAX_TOTAL_BYTES


def _find_problem(payload: Any) -> LimitError | None:
    nodes = 0
    size = 0
    stack: list[tuple[Any, str, int]] = [(payload, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return LimitError("payload_too_large", None, f"more than {MAX_NODES} values")
        if depth > MAX_DEPTH:
            return LimitError("payload_too_large", path or None, f"nested deeper than {MAX_DEPTH}")
        if value is None or isinstance(value, bool):
            size += 1
        elif isinstance(value, int):
            if not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
                return LimitError("invalid_field", path or None, "integer beyond ±2**53")
            size += 9
        elif isinstance(value, float):
            if not math.isfinite(value):
                return LimitError("invalid_field", path or None, "number is not finite")
            size += 9
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                return LimitError("payload_too_large", path or None, f"text over {MAX_STRING}")
            size += len(value.encode("utf-8", "surrogatepass")) + 5
        elif isinstance(value, dict):
            size += 5
            for key, item in value.items():
                if not isinstance(key, str):
                    return LimitError("invalid_field", path or None, "object keys must be text")
                if len(key) > 200:
                    return LimitError("payload_too_large", path or None, "object key over 200")
                size += len(key) + 5
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif type(value) in (list, tuple):  # not ExtType, a namedtuple
            size += 5
            for index, item in enumerate(value):
                stack.append((item, f"{path}.{index}" if path else str(index), depth + 1))
        else:
            # msgpack ExtType, Timestamp, bytes...: nothing a JSON model accepts.
            return LimitError("ext_type", path or None, type(value).__name__)
        if size > MAX_TOTAL_BYTES:
            return LimitError("payload_too_large", None, f"over {MAX_TOTAL_BYTES} bytes")
    return None
