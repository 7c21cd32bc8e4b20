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

from rules.memo import by_identity
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


def validate_params(
    declared: tuple[Param, ...], raw: Mapping[str, Any], prefix: str = "params"
) -> dict[str, Any]:
    """Check ``raw`` against ``declared``; return the values with defaults filled in."""
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
