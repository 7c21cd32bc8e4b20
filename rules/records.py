"""Frozen records that are cheap to build.

Two kinds, both frozen dataclasses that compare, hash, print, ``replace`` and
list their ``fields()`` as any dataclass does:

- ``@fast_init`` goes above ``@dataclass(frozen=True)`` and changes one thing:
  the ``__init__`` stores each field straight into the new instance's
  ``__dict__`` instead of calling ``object.__setattr__`` once per field (which
  is how dataclasses get past their own frozen ``__setattr__``). The record is
  as frozen as before (assigning an attribute still raises
  ``FrozenInstanceError``); only building one costs less.
- :func:`native_record` is for the hot records of the compiled rules core
  (``rules/model.py``, ``rules/dice.py``): the class is ``@final`` and
  ``@dataclass(frozen=True)`` only (mypyc compiles a class with any other
  decorator as a plain Python class) and writes its own ``__init__``, storing
  every field (``self.name = name  # type: ignore[misc]``: a frozen field is
  read-only to the type checker). Compiled by mypyc it is a native class: its
  ``__init__`` is native code storing into the instance's own struct and its
  fields are read straight from it (~7x cheaper to build from compiled code than a
  ``@fast_init`` record). ``native_record(cls)`` is called after the class body:
  pure, where that ``__init__`` would meet the frozen ``__setattr__``, it gives
  the class ``@fast_init``'s ``__init__`` (the same arguments, the same stores);
  compiled, it gives the class a ``__reduce__`` by its fields, so ``copy`` and
  ``pickle`` work as they do for the pure record (a native instance has no
  ``__dict__`` to copy).

A field with a ``default_factory`` takes :data:`NEW_DICT` as its default in the
written ``__init__`` and stores a new ``{}`` when given it, as the factory would:
a value passed explicitly (even ``None``) is stored as it is, in both modes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, Final, TypeVar

T = TypeVar("T")

_NO_VALUE = object()

NEW_DICT: Final[dict[str, Any]] = {}
"""The written ``__init__``'s default for a ``default_factory=dict`` field (never stored)."""


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


def is_native(cls: type) -> bool:
    """Whether ``cls`` was compiled as a native class (its instances have no ``__dict__``)."""
    return not getattr(cls, "__dictoffset__", 0)


def _reduce(record: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(record), tuple(getattr(record, item.name) for item in fields(record))


def _reduce_method() -> Callable[..., Any]:
    # A Python function, so that it binds as a method (a compiled one would not).
    namespace: dict[str, Any] = {"_reduce": _reduce}
    exec("def __reduce__(self):\n    return _reduce(self)", namespace)
    method: Callable[..., Any] = namespace["__reduce__"]
    return method


def native_record(cls: type[T]) -> type[T]:
    """Finish a record that writes its own ``__init__`` (see the module's text)."""
    if not is_native(cls):
        return fast_init(cls)
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"native_record takes a frozen dataclass, not {cls.__name__}")
    setattr(cls, "__reduce__", _reduce_method())  # noqa: B010 - a method set on the class
    return cls
