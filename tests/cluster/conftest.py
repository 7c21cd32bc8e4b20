"""Fixtures for the multi-process tests (helpers live in tests/support/cluster.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.cluster import Cluster, new_world
from support.services import new_database, pg_url, postgres_server, redis_url

__all__ = ["pg_url", "postgres_server", "redis_url"]


@pytest.fixture
def cluster(postgres_server: str, redis_url: str) -> Iterator[Cluster]:
    """Three bridge processes on a fresh database and the session's Redis."""
    url = new_database(postgres_server)
    made = Cluster(url, redis_url, new_world(url))
    try:
        made.start(3)
        yield made
    finally:
        made.stop()
