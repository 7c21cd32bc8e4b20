"""Collection for the whole suite: ``pure_only`` tests leave the compiled pass (support/compiled.py)."""

from __future__ import annotations

import pytest

from support.compiled import deselect_compiled


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    deselect_compiled(config, items)
