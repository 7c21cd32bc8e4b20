"""Several real ``vtt-bridge serve`` processes on one PostgreSQL (and Redis), for tests."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any

import redis

from bridge.cluster import CHANNEL
from bridge.store_pg import PgStore
from bridge.worlds import CreatedWorld, create_world
from rules.registry import default_registry
from support.live import Client

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}


@dataclass
class Node:
    """One bridge process."""

    process: subprocess.Popen[str]
    url: str

    @classmethod
    def start(cls, store: str, redis: str | None, seed: int, poll: float = 0.2) -> Node:
        args = [sys.executable, "-m", "bridge", "serve", "--port", "0", "--store", store]
        args += ["--dice-seed", str(seed), "--rate-limit", "0", "--poll-seconds", str(poll)]
        if redis:
            args += ["--redis", redis]
        logs = os.environ.get("VTT_TEST_NODE_LOGS")  # a folder: each process's log there
        err: Any = subprocess.DEVNULL
        if logs:
            err = open(os.path.join(logs, f"node-{os.getpid()}-{time.monotonic_ns()}.log"), "w")  # noqa: SIM115
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=err, text=True)
        if logs:
            err.close()
        stdout: IO[str] | None = process.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            process.kill()
            process.wait(timeout=10)
            raise RuntimeError("the bridge process did not start")
        return cls(process, json.loads(line)["url"])

    def kill9(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.close_pipe()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.close_pipe()

    def close_pipe(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()


@dataclass
class Cluster:
    store_url: str
    redis: str | None
    world: CreatedWorld
    poll: float = 10.0
    """The store sweep's period: long, so that live pushes must come through Redis."""
    nodes: list[Node] = field(default_factory=list)

    def start(self, count: int) -> None:
        for _ in range(count):
            self.add()
        if self.redis:
            self.wait_subscribed(count)

    def wait_subscribed(self, count: int, timeout: float = 30) -> None:
        """Until ``count`` processes listen on Redis (they subscribe just after starting)."""
        client = redis.Redis.from_url(self.redis or "")
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                ((_, listening),) = client.pubsub_numsub(CHANNEL)
                if listening >= count:
                    return
                time.sleep(0.05)
            raise RuntimeError(f"{count} bridge processes expected on Redis")
        finally:
            client.close()

    def add(self) -> Node:
        node = Node.start(self.store_url, self.redis, seed=len(self.nodes) + 1, poll=self.poll)
        self.nodes.append(node)
        return node

    def auth(self, role: str = "gm", user: str = "dm", **extra: Any) -> dict[str, Any]:
        token = self.world.gm_token if role == "gm" else self.world.player_token
        return {"token": token, "user": user, "name": user, "protocol": 1, **extra}

    def store(self) -> PgStore:
        return PgStore(self.store_url)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def new_world(store_url: str) -> CreatedWorld:
    registry = default_registry()
    store = PgStore(store_url)
    try:
        return create_world(
            store, registry, "Mesa", "o3d10", actors=registry.get("o3d10").sample_actors()
        )
    finally:
        store.close()


async def collect(client: Client, count: int, timeout: float = 15) -> list[int]:
    """The ``seq`` of the chat cards this client receives, until it has ``count``."""
    seqs: list[int] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(seqs) < count:
        left = deadline - loop.time()
        if left <= 0:
            break
        try:
            name, body = await asyncio.wait_for(client.pushes.get(), left)
        except TimeoutError:
            break
        if name == "chat_card":
            seqs.append(body["seq"])
    return seqs
