"""Fixtures for the bridge tests (helpers live in tests/support/live.py)."""

from support.live import env
from support.services import pg_url, postgres_server

__all__ = ["env", "pg_url", "postgres_server"]
