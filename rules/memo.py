"""Memoizing pure functions of immutable inputs by identity.

Sheets are plain mappings that nothing mutates once an actor holds them (every
change makes a new actor), so parsing one can be remembered for as long as the
same object is passed again. The cache keeps a reference to each input, so an
``id`` is never reused while its entry lives; it is bounded: at its bound it
forgets first the entries whose input nothing else holds (never to be passed
again), then the oldest.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, MutableMapping
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")


def _references(entry: tuple[Any, ...]) -> int:
    """``sys.getrefcount`` of the object an entry holds. Calibrated below through this very
    function (compiled code counts borrowed references apart from the interpreter)."""
    return sys.getrefcount(entry[0])


_LONE = _references((object(), None))
"""What :func:`_references` says of an object only its entry holds."""


def forget_unheld(cache: MutableMapping[Any, tuple[Any, ...]], size: int) -> None:
    """Make room in a table whose entries ``(held, ...)`` are found by the identity of
    ``held`` (the entry holds it, so its ``id`` is not reused while the entry lives).

    An entry whose ``held`` nothing else holds any more can never be found again (nobody
    can pass that object): those go first, whatever their age. If that freed less than an
    eighth of ``size``, the oldest entries go too, down to seven eighths, so the next
    sweep is at least ``size / 8`` insertions away (amortized O(1) a miss). Entries still
    in use stay, so a smaller bound keeps the same hits (docs/reliability.md, item 10)."""
    keep = size - size // 8
    for key, entry in list(cache.items()):
        if _references(entry) <= _LONE:
            with contextlib.suppress(KeyError):
                del cache[key]
    while len(cache) > keep:
        forget_oldest(cache)


def by_identity(size: int = 256) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    def decorate(fn: Callable[[Any], T]) -> Callable[[Any], T]:
        # a plain dict (insertion ordered, as forget_oldest needs): its ``get`` is a dict
        # primitive in compiled code, where an OrderedDict's is a generic method call
        cache: dict[int, tuple[Any, T]] = {}

        @wraps(fn)
        def wrapper(value: Any) -> T:
            key = id(value)
            hit = cache.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            return remember_by_identity(cache, value, fn(value), size)

        return wrapper

    return decorate


def remember_by_identity(cache: dict[int, tuple[Any, T]], value: Any, result: T, size: int) -> T:
    """Put ``result`` in a :func:`by_identity` table under ``value`` (held, so its ``id`` is
    not reused while the entry lives), making room past ``size`` as :func:`forget_unheld`
    says; the result. For a hot function compiled code calls natively: it looks its table up
    itself (``hit = cache.get(id(value))``, a hit only when ``hit[0] is value``) and calls
    this on a miss, the very rule the decorator follows."""
    cache[id(value)] = (value, result)
    if len(cache) > size:
        forget_unheld(cache, size)
    return result


def forget_oldest(cache: MutableMapping[Any, Any]) -> None:
    """Drop a bounded cache's oldest entry (dicts keep insertion order); never fails, even
    when another thread emptied it first."""
    with contextlib.suppress(KeyError, StopIteration, RuntimeError):
        del cache[next(iter(cache))]
