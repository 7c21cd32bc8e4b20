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
