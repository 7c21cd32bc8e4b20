"""Copying the JSON-like values of actor states and world data.

States and world data hold dicts, lists and scalars (they are stored and sent
as JSON). A resolution that wants to change one works on a copy; this copy
walks only those shapes, several times cheaper than :func:`copy.deepcopy`'s
general protocol (no memo, no reductions). Anything else is handed to
``copy.deepcopy`` so an unexpected value is still copied, never shared.
"""

from __future__ import annotations

import copy
from typing import Any

_IMMUTABLE = (str, int, float, bool, type(None))


def copy_json(value: Any) -> Any:
    """A deep copy of ``value`` (dicts, lists and tuples rebuilt, scalars shared)."""
    kind = type(value)
    if kind is dict:
        return {key: copy_json(item) for key, item in value.items()}
    if kind is list:
        return [copy_json(item) for item in value]
    if kind in _IMMUTABLE:
        return value
    if kind is tuple:
        return tuple(copy_json(item) for item in value)
    return copy.deepcopy(value)
