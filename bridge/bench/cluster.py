"""Cluster benchmark: two bridge processes behind one Redis and one PostgreSQL.

Measured in the same run, with the same Node load generators as the network bench
(``rolls x50``: closed-loop ``roll`` requests over ten worlds):

* ``1 process, SQLite``: the embedded default, the baseline of the ratios;
* ``1 process, PG+Redis``: the same process on the shared engines;
* ``2 processes, PG+Redis``: half the connections on each process, every world
  with clients on both, so each event is also fanned out to the other process.

PostgreSQL runs with fsync on (as SQLite runs with synchronous=FULL); both
servers are throw-away ones on free loopback ports. CPU is the bridge processes'
(user + system) and, apart, the engines' own.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.bench import net
from bridge.bench.services import LocalPostgres, LocalRedis, ServiceMissing


@dataclass(frozen=True)
class ClusterResult:
    setup: str
    processes: int
    connections: int
    requests: int
    errors: int
    throughput: float
    p50_ms: float
    p99_ms: float
    cpu_us_per_request: float
    engines_cpu_us_per_request: float
    lost_races_per_request: float = 0.0


def _serve(extra: list[str]) -> net.Server:
    return net.Server(
        [sys.executable, "-m", "bridge", "serve", "--port", "0", "--rate-limit", "0", *extra]
    )


def _pg_worlds(url: str, count: int) -> list[dict[str, str]]:
    from bridge.store_pg import PgStore
    from bridge.worlds import create_world
    from rules.registry import default_registry

    registry = default_registry()
    store = PgStore(url)
    system = registry.get("o3d10")
    worlds = [
        create_world(
            store, registry, f"Bench {i}", "o3d10", actors=system.sample_actors()
        ).as_json()
        for i in range(count)
    ]
    store.close()
    return worlds


def _lost_races(server: net.Server) -> int:
    """Appends this process lost to another one so far (from its /healthz)."""
    with urllib.request.urlopen(server.url + "healthz", timeout=10) as response:
        cluster = json.loads(response.read()).get("cluster")
    return int(cluster["lost_races"]) if cluster else 0


def _measure(
    setup: str,
    servers: list[net.Server],
    tokens: list[str],
    connections: int,
    seconds: float,
    engines: list[int],
) -> ClusterResult:
    races_before = [_lost_races(s) for s in servers]
    before = [net._cpu_seconds(s.pid) for s in servers]
    engines_before = [net._cpu_seconds(pid) for pid in engines]
    share = connections // len(servers)
    # One load generator per process, all running at once (threads wait on the children).
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(servers)) as pool:
        futures = [
            pool.submit(net._loaders, s.url, tokens, share, seconds, False, net.ROLL, 1)
            for s in servers
        ]
        loads = [r for f in futures for r in f.result()]
    races = sum(_lost_races(s) - b for s, b in zip(servers, races_before, strict=True))
    cpu = sum(net._cpu_seconds(s.pid) - b for s, b in zip(servers, before, strict=True))
    engines_cpu = sum(
        net._cpu_seconds(pid) - b for pid, b in zip(engines, engines_before, strict=True)
    )
    merged = net._merge(setup, "bridge", servers[0], loads, cpu)
    return ClusterResult(
        setup,
        len(servers),
        merged.connections,
        merged.requests,
        merged.errors,
        merged.throughput,
        merged.p50_ms,
        merged.p99_ms,
        merged.cpu_us_per_request,
        engines_cpu / merged.requests * 1e6 if merged.requests else 0.0,
        races / merged.requests if merged.requests else 0.0,
    )


def run(quick: bool) -> list[ClusterResult]:
    """Raises ServiceMissing when redis-server or PostgreSQL is not installed."""
    seconds = 1.0 if quick else 4.0
    connections = 50
    results: list[ClusterResult] = []
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        tokens = net._setup_worlds(data, {"o3d10": 10})["o3d10"]
        single = _serve(["--data", str(data)])
        try:
            results.append(
                _measure("1 process, SQLite", [single], tokens, connections, seconds, [])
            )
        finally:
            single.stop()
        postgres = LocalPostgres.start(durable=True)
        redis = LocalRedis.start(data / "redis")
        servers: list[net.Server] = []
        try:
            url = postgres.database("bench")
            tokens = [w["gm_token"] for w in _pg_worlds(url, 10)]
            shared = ["--store", url, "--redis", redis.url]
            servers.append(_serve(shared))
            engines = [postgres.process.pid, redis.process.pid]
            results.append(
                _measure("1 process, PG+Redis", servers, tokens, connections, seconds, engines)
            )
            servers.append(_serve(shared))
            results.append(
                _measure("2 processes, PG+Redis", servers, tokens, connections, seconds, engines)
            )
        finally:
            for server in servers:
                server.stop()
            redis.stop()
            postgres.stop()
    return results


def report(quick: bool) -> dict[str, Any]:
    """Run and print the cluster figures; what ``vtt-bridge bench`` adds to its JSON."""
    print("\nCluster (rolls x50 over 10 worlds; ratio = against 1 process on SQLite, same run):")
    try:
        results = run(quick)
    except ServiceMissing as exc:
        if os.environ.get("CI") == "true":
            raise
        print(f"  not measured: {exc}")
        return {"skipped": str(exc)}
    print(
        f"  {'setup':24} {'req/s':>8} {'ratio':>6} {'p50 ms':>8} {'p99 ms':>8}"
        f" {'cpu us/req':>10} {'engines us/req':>14} {'races/req':>9} {'errors':>6}"
    )
    base = results[0].throughput or 1e-9
    for r in results:
        print(
            f"  {r.setup:24} {r.throughput:8.0f} {r.throughput / base:5.2f}x {r.p50_ms:8.2f}"
            f" {r.p99_ms:8.2f} {r.cpu_us_per_request:10.0f}"
            f" {r.engines_cpu_us_per_request:14.0f} {r.lost_races_per_request:9.2f}"
            f" {r.errors:6d}"
        )
    return {
        "results": [r.__dict__ for r in results],
        "throughput_ratios": {r.setup: r.throughput / base for r in results},
    }
