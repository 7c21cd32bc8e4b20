"""Memoizing pure functions of immutable inputs by identity.

Sheets are plain mappings that nothing mutates once an actor holds them (every
change makes a new actor), so parsing one can be remembered for as long as the
same object is passed again. The cache keeps a reference to each input, so an
``id`` is never reused while its entry lives; it is bounded and forgets the
oldest entries first.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")


def by_identity(size: int = 512) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    def decorate(fn: Callable[[Any], T]) -> Callable[[Any], T]:
        cache: OrderedDict[int, tuple[Any, T]] = OrderedDict()

        @wraps(fn)
        def wrapper(value: Any) -> T:
            key = id(value)
            hit = cache.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            result = fn(value)
            cache[key] = (value, result)
            if len(cache) > size:
                cache.popitem(last=False)
            return result

        return wrapper

    return decorate


def forget_oldest(cache: dict[Any, Any]) -> None:
    """Drop a bounded cache's oldest entry (dicts keep insertion order); never fails, even
    when another thread emptied it first."""
    with contextlib.suppress(KeyError, StopIteration, RuntimeError):
        del cache[next(iter(cache))]
