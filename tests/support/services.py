"""Redis and PostgreSQL for the tests: ``REDIS_URL`` / ``DATABASE_URL`` when given,
else our own throw-away servers on free loopback ports, stopped (by PID) at the end.

Without the programs the tests that need them are skipped locally and FAIL under
``CI=true`` (``.ci/run`` installs Debian's ``redis-server`` and ``postgresql``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from bridge.bench.services import LocalPostgres, LocalRedis, ServiceMissing


def missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: required under CI", pytrace=False)
    pytest.skip(reason)


def start_redis(folder: Path) -> LocalRedis:
    try:
        return LocalRedis.start(folder)
    except ServiceMissing as exc:
        missing(str(exc))
        raise


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server where the tests may create databases."""
    given = os.environ.get("DATABASE_URL")
    if given:
        yield given
        return
    try:
        server = LocalPostgres.start()
    except ServiceMissing as exc:
        missing(str(exc))
        raise
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("REDIS_URL")
    if given:
        yield given
        return
    server = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


def new_database(server_url: str) -> str:
    """A fresh, empty database on the server; its URL."""
    name = f"vtt_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def pg_url(postgres_server: str) -> str:
    """An empty database of its own for one test."""
    return new_database(postgres_server)
