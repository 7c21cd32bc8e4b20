"""Declared parameters of actions and world settings, and their validation.

A system declares what each action takes (a skill name, a difficulty, a
choice among modes) as :class:`Param` data; :func:`validate_params` checks a
request against it and raises :class:`RulesError` naming the bad field. The
same declarations tell a front end which inputs to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.memo import by_identity, forget_oldest
from rules.model import RulesError, Text, t

ParamKind = Literal["int", "str", "bool", "choice"]

MAX_INT = 1_000_000


@dataclass(frozen=True)
class Param:
    name: str
    kind: ParamKind
    label: Text | None = None
    required: bool = False
    default: Any = None
    minimum: int = -MAX_INT
    maximum: int = MAX_INT
    choices: tuple[str, ...] = ()
    max_length: int = 100


def _bad(prefix: str, param: Param, key: str, **extra: Any) -> RulesError:
    return RulesError(
        "invalid_param",
        t(f"error.param.{key}", param=param.name, **extra),
        f"{prefix}.{param.name}",
    )


@by_identity(1024)
def _names(declared: tuple[Param, ...]) -> frozenset[str]:
    return frozenset(param.name for param in declared)


class CheckedParams(dict[str, Any]):
    """Validated parameters, shared by every request with the same values: read-only.

    A ``dict`` (it encodes, compares and copies as one) whose changing methods raise, so
    one object can be handed to every action that asked for the same values and the rules
    may remember work by its identity (``rules.o3d10.prepared``). ``dict(params)`` gives a
    copy to change.
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("checked parameters are shared and read-only: change dict(params)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _read_only
    __ior__ = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (CheckedParams, (dict(self),))


_CHECKED: dict[tuple[Any, ...], tuple[tuple[Param, ...], CheckedParams]] = {}
_CHECKED_SIZE = 4096


def check_params(
    declared: tuple[Param, ...], raw: Mapping[str, Any], prefix: str = "params"
) -> CheckedParams:
    """Check ``raw`` against ``declared``; the values with defaults filled in, read-only.

    Valid requests are remembered by their values (each with its type, so ``True`` is never
    taken for ``1``) and by the identity of ``declared`` (declarations are constants; the
    entry holds a reference, so the id is not reused): a request that repeats one already
    seen costs one lookup and gets the same object. Bounded, oldest entries dropped first;
    refusals and unhashable values are worked out each time.
    """
    try:
        # One flat tuple: the pairs, then each value's type (n pairs and n types).
        key = (id(declared), prefix, *raw.items(), *map(type, raw.values()))
        hit = _CHECKED.get(key)
    except TypeError:  # a list or a mapping among the values: not remembered
        return CheckedParams(_validate(declared, raw, prefix))
    if hit is not None and hit[0] is declared:
        return hit[1]
    values = CheckedParams(_validate(declared, raw, prefix))
    if len(_CHECKED) >= _CHECKED_SIZE:
        forget_oldest(_CHECKED)
    _CHECKED[key] = (declared, values)
    return values


def validate_params(
    declared: tuple[Param, ...], raw: Mapping[str, Any], prefix: str = "params"
) -> dict[str, Any]:
    """Check ``raw`` against ``declared``; return the values with defaults filled in (a new
    dict the caller may change; :func:`check_params` shares one read-only)."""
    return dict(check_params(declared, raw, prefix))


def _validate(declared: tuple[Param, ...], raw: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    known = _names(declared)
    for name in raw:
        if name not in known:
            raise RulesError(
                "invalid_param", t("error.param.unknown", param=str(name)[:100]), f"{prefix}.{name}"
            )
    values: dict[str, Any] = {}
    for param in declared:
        name = param.name
        value = raw.get(name)
        if value is None:
            if param.required:
                raise _bad(prefix, param, "missing")
            if param.default is not None:
                values[name] = param.default
            continue
        kind = param.kind
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise _bad(prefix, param, "not_int")
            if not param.minimum <= value <= param.maximum:
                raise _bad(prefix, param, "range", minimum=param.minimum, maximum=param.maximum)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise _bad(prefix, param, "not_bool")
        elif kind == "str":
            if not isinstance(value, str):
                raise _bad(prefix, param, "not_str")
            if len(value) > param.max_length:
                raise _bad(prefix, param, "too_long", maximum=param.max_length)
        elif kind == "choice" and (not isinstance(value, str) or value not in param.choices):
            raise _bad(prefix, param, "choice", choices=", ".join(param.choices))
        values[name] = value
    return values
