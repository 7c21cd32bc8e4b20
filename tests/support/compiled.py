"""Tests that observe pure-Python internals (e.g. count calls by replacing a module function).

Compiled code calls functions of its own build directly, so replacing a module attribute
does not reach it: such a test is marked ``pure_only`` and runs in `make test`'s pure pass
(``VTT_PURE=1``, the rules tests). The compiled pass deselects it (tests/conftest.py), as
it could observe nothing there; it is never skipped, and in a pure pass whose module
turned out compiled the run fails instead of dropping it.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def is_compiled(module: ModuleType) -> bool:
    return not str(module.__file__).endswith(".py")


def pure_only(module: ModuleType) -> pytest.MarkDecorator:
    """Run only where ``module`` is pure Python (its calls can be observed)."""
    return pytest.mark.pure_only(module.__name__)


def deselect_compiled(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the ``pure_only`` tests whose module is compiled in this run."""
    keep, drop = [], []
    for item in items:
        mark = item.get_closest_marker("pure_only")
        if mark is not None and is_compiled(importlib.import_module(mark.args[0])):
            drop.append(item)
        else:
            keep.append(item)
    if not drop:
        return
    if os.environ.get("VTT_PURE") == "1":
        raise pytest.UsageError(f"VTT_PURE=1 yet {drop[0].nodeid} would run compiled code")
    config.hook.pytest_deselected(items=drop)
    items[:] = keep
