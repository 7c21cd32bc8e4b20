"""A real bridge on 127.0.0.1 and real python-socketio clients, for the bridge tests."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import socketio
from aiohttp import web

from bridge.limits import RateLimit, WorldLimit
from bridge.server import BRIDGE_KEY, create_app
from bridge.store import AsyncStore, SQLiteStore
from bridge.worlds import CreatedWorld, create_world
from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.registry import Registry, default_registry

NS = "/vtt"
TESTS_RATE = RateLimit(10_000, 10_000)
"""Tests fire requests as fast as they can; the limit itself is tested on its own."""
TESTS_WORLD = WorldLimit(0, 0.0, 0.0)
"""Likewise the per-world limits (tests/reliability/test_limits.py tests them)."""


class DiceQueue:
    """Hands each request the next scripted dice, or seeded dice when none are queued."""

    def __init__(self) -> None:
        self.queued: list[DiceSource] = []
        self._seed = 0

    def script(self, *faces: int) -> None:
        self.queued.append(ScriptedDice(faces))

    def next(self) -> DiceSource:
        if self.queued:
            return self.queued.pop(0)
        self._seed += 1
        return SeededDice(self._seed)


def rid() -> str:
    return uuid.uuid4().hex


@dataclass
class Client:
    sio: socketio.AsyncClient
    pushes: asyncio.Queue[tuple[str, dict[str, Any]]] = field(default_factory=asyncio.Queue)
    welcome: dict[str, Any] | None = None

    async def call(self, event: str, payload: Any, timeout: float = 10) -> dict[str, Any]:
        result = await self.sio.call(event, payload, namespace=NS, timeout=timeout)
        assert isinstance(result, dict)
        return result

    async def next_push(self, kind: str | None = None, timeout: float = 5) -> dict[str, Any]:
        while True:
            name, body = await asyncio.wait_for(self.pushes.get(), timeout)
            if kind is None or name == kind:
                return body

    def drain(self) -> list[tuple[str, dict[str, Any]]]:
        items = []
        while not self.pushes.empty():
            items.append(self.pushes.get_nowait())
        return items

    async def close(self) -> None:
        await self.sio.disconnect()


class Refused(Exception):
    """The server refused the connection; ``data`` is its connect_error payload."""

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.data = data


async def connect(
    url: str,
    auth: Any,
    *,
    wait_welcome: bool = True,
    headers: dict[str, str] | None = None,
) -> Client:
    sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    client = Client(sio)
    welcomed = asyncio.Event()
    refusal: list[Any] = []

    async def on_refused(data: Any) -> None:
        refusal.append(data.get("data", data) if isinstance(data, dict) else data)

    sio.on("connect_error", on_refused, namespace=NS)

    async def on_welcome(data: dict[str, Any]) -> None:
        client.welcome = data
        welcomed.set()

    def recorder(name: str) -> Any:
        async def record(data: dict[str, Any]) -> None:
            client.pushes.put_nowait((name, data))

        return record

    sio.on("welcome", on_welcome, namespace=NS)
    for name in ("chat_card", "token_status", "actor_update", "card_update", "combat_state"):
        sio.on(name, recorder(name), namespace=NS)
    try:
        await sio.connect(
            url,
            headers=headers or {},
            namespaces=[NS],
            auth=auth,
            transports=["websocket"],
            wait_timeout=5,
        )
    except socketio.exceptions.ConnectionError:
        await sio.disconnect()
        if refusal:
            raise Refused(refusal[0]) from None
        raise
    if wait_welcome:
        await asyncio.wait_for(welcomed.wait(), 5)
    return client


@dataclass
class Env:
    url: str
    world: CreatedWorld
    dice: DiceQueue
    store: SQLiteStore
    app: web.Application
    clients: list[Client] = field(default_factory=list)

    async def join(
        self,
        role: str = "gm",
        user: str = "dm",
        *,
        last_seq: int | None = None,
        locale: str | None = None,
    ) -> Client:
        token = self.world.gm_token if role == "gm" else self.world.player_token
        auth: dict[str, Any] = {"token": token, "user": user, "name": user, "protocol": 1}
        if last_seq is not None:
            auth["last_seq"] = last_seq
        if locale is not None:
            auth["locale"] = locale
        client = await connect(self.url, auth)
        self.clients.append(client)
        return client

    server: Any = None
    registry: Any = None
    factory: Any = None

    def seq(self) -> int:
        row = self.store.load_world(self.world.world_id)
        assert row is not None
        return row.seq

    async def restart(self) -> None:
        """Stop the server (its clients drop) and start a new one on the same database.

        Everything in memory is gone; the new server loads the world from the store.
        Join again afterwards (with ``last_seq`` to get the missed pushes)."""
        for client in self.clients:
            if client.sio.connected:
                await client.close()
        self.clients.clear()
        path = self.store.path
        # The old server stops taking requests and is closed with the fixture at the end
        # (closing it here hangs under pytest-asyncio). Its memory is simply not used again.
        self.app[BRIDGE_KEY].shutting_down = True
        self.store = SQLiteStore(path)
        app = create_app(
            AsyncStore(self.store),
            self.registry,
            dice_factory=self.dice.next,
            rate_limit=TESTS_RATE,
            world_limit=TESTS_WORLD,
        )
        self.server = await self.factory(app, host="127.0.0.1")
        self.app = app
        self.url = str(self.server.make_url("/"))


async def give(gm: Client, actor_id: str, owner: str, welcome: dict[str, Any]) -> None:
    """Make ``owner`` the owner of a demo actor (through the protocol, as a GM would)."""
    actor = next(a for a in welcome["actors"] if a["id"] == actor_id)
    ack = await gm.call(
        "actor_upsert",
        {
            "id": rid(),
            "actor": {
                "id": actor_id,
                "name": actor["name"],
                "owner": owner,
                "sheet": actor["sheet"],
            },
        },
    )
    assert ack["ok"], ack


@pytest.fixture
async def env(tmp_path: Path, aiohttp_server: Any) -> AsyncIterator[Env]:
    async for value in make_env(tmp_path, aiohttp_server, "o3d10"):
        yield value


async def make_env(
    tmp_path: Path,
    aiohttp_server: Any,
    system_id: str,
    settings: dict[str, Any] | None = None,
    actors: Iterable[Any] | None = None,
    registry: Registry | None = None,
) -> AsyncIterator[Env]:
    registry = registry or default_registry()
    store = SQLiteStore(tmp_path / "bridge.sqlite3")
    system = registry.get(system_id)
    created = create_world(
        store,
        registry,
        "Mesa de prueba",
        system_id,
        settings=settings,
        actors=tuple(actors) if actors is not None else system.sample_actors(),
    )
    dice = DiceQueue()
    app = create_app(
        AsyncStore(store),
        registry,
        dice_factory=dice.next,
        rate_limit=TESTS_RATE,
        world_limit=TESTS_WORLD,
    )
    server = await aiohttp_server(app, host="127.0.0.1")
    env = Env(str(server.make_url("/")), created, dice, store, app)
    env.server, env.registry, env.factory = server, registry, aiohttp_server
    try:
        yield env
    finally:
        for client in env.clients:
            if client.sio.connected:
                await client.close()
