"""Fixtures for the bridge tests (helpers live in tests/support/live.py)."""

from support.live import env

__all__ = ["env"]
