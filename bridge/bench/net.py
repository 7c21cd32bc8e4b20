"""Network benchmarks: the bridge against the floor, same machine, same run.

Servers run as child processes; the load comes from separate Node processes
(socket.io-client, msgpack parser, websocket transport). Server CPU comes from
/proc (user + system time during the measured window), memory from VmRSS.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LOADER = ROOT / "js-shim" / "bench" / "load.mjs"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class NetResult:
    scenario: str
    target: str
    connections: int
    requests: int
    errors: int
    throughput: float
    p50_ms: float
    p99_ms: float
    cpu_us_per_request: float
    rss_mb: float
    loader_cpu_share: float


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


class Server:
    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=_raise_fd_limit,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"server did not start: {' '.join(command)}")
        self.url = json.loads(line)["url"]

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _loaders(
    url: str,
    tokens: list[str],
    connections: int,
    seconds: float,
    idle: bool,
    payload: dict[str, Any],
    processes: int,
    peak: list[float] | None = None,
    pid: int = 0,
) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("the network benchmark needs Node.js (make setup installs js-shim)")
    per = [
        connections // processes + (1 if i < connections % processes else 0)
        for i in range(processes)
    ]
    children = []
    offset = 0
    for count in per:
        if count == 0:
            continue
        options = {
            "url": url,
            "tokens": tokens,
            "connections": count,
            "seconds": seconds,
            "idle": idle,
            "payload": payload,
            "offset": offset,
        }
        offset += count
        children.append(
            subprocess.Popen(
                [node, str(LOADER), json.dumps(options)],
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT / "js-shim",
                preexec_fn=_raise_fd_limit,
            )
        )
    if peak is not None:
        while any(child.poll() is None for child in children):
            peak.append(_rss_mb(pid))
            time.sleep(0.1)
    results = []
    for child in children:
        out, _ = child.communicate(timeout=seconds + 180)
        if child.returncode != 0:
            raise RuntimeError(f"load generator failed ({child.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def _merge(
    scenario: str, target: str, server: Server, results: list[dict[str, Any]], cpu: float
) -> NetResult:
    requests = sum(r["requests"] for r in results)
    elapsed = max(r["elapsed"] for r in results) or 1e-9
    latencies = sorted(x for r in results for x in (r.get("latencies_ms") or []))
    if latencies:
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    else:
        p50 = max(r["p50_ms"] for r in results)
        p99 = max(r["p99_ms"] for r in results)
    loader_share = max(r["cpu_seconds"] / r["elapsed"] for r in results if r["elapsed"])
    return NetResult(
        scenario,
        target,
        sum(r["connections"] for r in results),
        requests,
        sum(r["errors"] for r in results),
        requests / elapsed,
        p50,
        p99,
        cpu / requests * 1e6 if requests else 0.0,
        _rss_mb(server.pid),
        loader_share,
    )


def _setup_worlds(data: Path, count: int) -> list[dict[str, str]]:
    from bridge.store import SQLiteStore
    from bridge.worlds import create_world
    from rules.registry import default_registry

    registry = default_registry()
    store = SQLiteStore(data / "bridge.sqlite3")
    system = registry.get("o3d10")
    worlds = [
        create_world(
            store, registry, f"Bench {i}", "o3d10", actors=system.sample_actors()
        ).as_json()
        for i in range(count)
    ]
    store.close()
    return worlds


ROLL = {"actor": "aldara", "action": "skill", "params": {"skill": "sigilo", "level": "normal"}}


def _capture(url: str, token: str) -> dict[str, Any]:
    import asyncio

    import socketio

    async def go() -> dict[str, Any]:
        client = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        cards: list[Any] = []
        welcomed = asyncio.Event()

        async def on_welcome(data: Any) -> None:
            welcomed.set()

        async def on_card(data: Any) -> None:
            cards.append(data)

        client.on("welcome", on_welcome, namespace="/vtt")
        client.on("chat_card", on_card, namespace="/vtt")
        await client.connect(
            url,
            namespaces=["/vtt"],
            transports=["websocket"],
            auth={"token": token, "user": "capture", "protocol": 1},
        )
        await asyncio.wait_for(welcomed.wait(), 10)
        ack = await client.call("roll", {"id": "capture-0001", **ROLL}, namespace="/vtt")
        for _ in range(100):
            if cards:
                break
            await asyncio.sleep(0.01)
        await client.disconnect()
        return {"ack": ack, "card": cards[0]}

    return asyncio.run(go())


def run(quick: bool) -> list[NetResult]:
    seconds = 1.0 if quick else 4.0
    levels = (1, 50) if quick else (1, 50, 500)
    idle_levels = (200,) if quick else (2000, 10000)
    results: list[NetResult] = []
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        worlds = _setup_worlds(data, 10)
        bridge = Server(
            [
                sys.executable,
                "-m",
                "bridge",
                "serve",
                "--port",
                "0",
                "--data",
                str(data),
                "--rate-limit",
                "0",
            ]
        )
        floor: Server | None = None
        try:
            captured = _capture(bridge.url, worlds[0]["gm_token"])
            ack_file = data / "ack.json"
            ack_file.write_text(json.dumps(captured), "utf-8")
            floor = Server(
                [sys.executable, "-m", "bridge.bench.floor", "--port", "0", "--ack", str(ack_file)]
            )
            targets = {
                "floor": (floor, [w["world_id"] for w in worlds]),
                "bridge": (bridge, [w["gm_token"] for w in worlds]),
            }
            for connections in levels:
                processes = 1 if connections == 1 else 2
                for name, (server, tokens) in targets.items():
                    before = _cpu_seconds(server.pid)
                    loads = _loaders(
                        server.url, tokens, connections, seconds, False, ROLL, processes
                    )
                    cpu = _cpu_seconds(server.pid) - before
                    results.append(_merge(f"rolls x{connections}", name, server, loads, cpu))
            for count in idle_levels:
                for name, (server, tokens) in targets.items():
                    rss_before = _rss_mb(server.pid)
                    peak: list[float] = []
                    loads = _loaders(
                        server.url,
                        tokens,
                        count,
                        2.0,
                        True,
                        ROLL,
                        max(1, min(4, count // 2500)),
                        peak,
                        server.pid,
                    )
                    held = sum(r["connections"] for r in loads)
                    grown = (max(peak, default=rss_before) - rss_before) * 1024 / max(held, 1)
                    results.append(
                        NetResult(
                            f"idle x{count}", name, held, 0, 0, 0.0, 0.0, 0.0, 0.0, grown, 0.0
                        )
                    )
        finally:
            bridge.stop()
            if floor is not None:
                floor.stop()
    return results
