"""Fixtures for the reliability campaign (helpers live in tests/support and here)."""

from support.live import env

__all__ = ["env"]
