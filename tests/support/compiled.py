"""Tests that observe pure-Python internals (e.g. count calls by replacing a module function).

Compiled code calls functions of its own build directly, so replacing a module attribute
does not reach it: such a test runs in `make test`'s pure pass (``VTT_PURE=1``, the rules
tests) and is skipped in the compiled pass, where it could not observe anything.
"""

from __future__ import annotations

from types import ModuleType

import pytest


def is_compiled(module: ModuleType) -> bool:
    return not str(module.__file__).endswith(".py")


def pure_only(module: ModuleType) -> pytest.MarkDecorator:
    """Skip in the compiled pass: the test replaces a function ``module`` calls directly there."""
    return pytest.mark.skipif(
        is_compiled(module),
        reason=f"{module.__name__} is compiled (calls are direct): run by make test's pure pass",
    )
