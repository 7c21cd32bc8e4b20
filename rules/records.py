"""Frozen records that are cheap to build.

``@fast_init`` goes above ``@dataclass(frozen=True)`` and changes one thing: the
``__init__`` stores each field straight into the new instance's ``__dict__``
instead of calling ``object.__setattr__`` once per field (which is how
dataclasses get past their own frozen ``__setattr__``). The record is as
frozen as before (assigning an attribute still raises
``FrozenInstanceError``), compares, hashes, prints and ``replace``s the same;
only building one costs less, and the rules core builds many (every die,
text, line and card of every roll).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_NO_VALUE = object()


def _fast_init(cls: type) -> Callable[..., None]:
    parameters: list[str] = []
    body: list[str] = ["    store = self.__dict__"]
    namespace: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    for item in fields(cls):
        if not item.init:
            raise TypeError(f"@fast_init does not handle init=False fields ({cls.__name__})")
        name = item.name
        if item.default is not MISSING:
            namespace[f"_default_{name}"] = item.default
            parameters.append(f"{name}=_default_{name}")
            body.append(f"    store[{name!r}] = {name}")
        elif item.default_factory is not MISSING:
            namespace[f"_factory_{name}"] = item.default_factory
            parameters.append(f"{name}=_NO_VALUE")
            body.append(
                f"    store[{name!r}] = _factory_{name}() if {name} is _NO_VALUE else {name}"
            )
        else:
            parameters.append(name)
            body.append(f"    store[{name!r}] = {name}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body)
    exec(source, namespace)  # the technique dataclasses itself uses to build __init__
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen dataclass a cheaper ``__init__`` (see the module's text)."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"@fast_init goes above @dataclass(frozen=True), not on {cls.__name__}")
    if "__slots__" in cls.__dict__:
        raise TypeError(f"@fast_init needs an instance __dict__ ({cls.__name__} has slots)")
    setattr(cls, "__init__", _fast_init(cls))  # noqa: B010 - a method set on the class
    return cls
