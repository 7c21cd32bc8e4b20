"""``vtt-bridge bench``: run every benchmark once, print a table with ratios, write JSON."""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bridge.bench import cluster, core, net

TARGETS = "targets (issue 12)"


def _check(label: str, ok: bool, detail: str) -> dict[str, Any]:
    return {"target": label, "met": ok, "detail": detail}


def run(quick: bool, json_path: Path | None) -> int:
    seconds = 0.3 if quick else 2.0
    rules = core.rules_rates(seconds)
    replay = core.replay_rate(seconds, events=200 if quick else 2000)
    store = core.store_rates(seconds)
    network = net.run(quick)

    print(
        f"vtt-bridge bench ({'quick' if quick else 'full'}) on {platform.node()},"
        f" {platform.python_implementation()} {platform.python_version()}"
    )
    print("\nRules core and store (one core, no I/O unless said):")
    print(f"  {'benchmark':40} {'per second':>12}")
    for rate in [*rules.values(), replay, *store.values()]:
        print(f"  {rate.name:40} {rate.per_second:12.0f}")

    print("\nNetwork (load from separate Node processes; ratio = bridge / floor):")
    header = (
        f"  {'scenario':14} {'target':7} {'conns':>6} {'req/s':>9} {'p50 ms':>8}"
        f" {'p99 ms':>8} {'cpu us/req':>10} {'rss MB':>8} {'loader cpu':>10}"
    )
    print(header)
    by_key = {(r.scenario, r.target): r for r in network}
    for result in network:
        memory = (
            f"{result.rss_mb:8.1f}"
            if not result.scenario.startswith("idle")
            else f"{result.rss_mb:6.1f}kB"
        )
        print(
            f"  {result.scenario:14} {result.target:7} {result.connections:6d}"
            f" {result.throughput:9.0f} {result.p50_ms:8.2f} {result.p99_ms:8.2f}"
            f" {result.cpu_us_per_request:10.0f} {memory} {result.loader_cpu_share:10.2f}"
        )
    ratios: dict[str, dict[str, float]] = {}
    for (scenario, target), result in by_key.items():
        floor = by_key.get((scenario, "floor"))
        if target != "bridge" or floor is None:
            continue
        ratios[scenario] = {
            "throughput": result.throughput / floor.throughput if floor.throughput else 0.0,
            "p50": result.p50_ms / floor.p50_ms if floor.p50_ms else 0.0,
            "p99": result.p99_ms / floor.p99_ms if floor.p99_ms else 0.0,
            "cpu": result.cpu_us_per_request / floor.cpu_us_per_request
            if floor.cpu_us_per_request
            else 0.0,
            "memory": result.rss_mb / floor.rss_mb if floor.rss_mb else 0.0,
        }
    print("\n  bridge / floor ratios:")
    for scenario, ratio in ratios.items():
        print("  " + f"{scenario:14} " + "  ".join(f"{k} {v:5.2f}x" for k, v in ratio.items()))

    checks = []
    median = rules.get("1o3d10 kept median")
    d20 = rules.get("d20 library median")
    checks.append(
        _check(
            "o3d10 skill rolls >= 100k/s",
            rules["o3d10 skill roll"].per_second >= 100_000,
            f"{rules['o3d10 skill roll'].per_second:.0f}/s",
        )
    )
    sw = rules["savage_worlds RoF 3 attack + damage"]
    checks.append(
        _check(
            "SW RoF 3 attacks with damage >= 20k/s",
            sw.per_second >= 20_000,
            f"{sw.per_second:.0f}/s",
        )
    )
    if median and d20:
        speed = median.per_second / d20.per_second
        checks.append(_check("1o3d10 median >= 5x d20's", speed >= 5, f"{speed:.1f}x"))
    checks.append(
        _check("replay >= 20k events/s", replay.per_second >= 20_000, f"{replay.per_second:.0f}/s")
    )
    durable = store["store durable"].per_second / store["store in memory"].per_second
    checks.append(_check("durable store >= 0.8x in-memory", durable >= 0.8, f"{durable:.2f}x"))
    fifty = ratios.get("rolls x50")
    if fifty:
        checks.append(
            _check(
                "rolls x50 throughput >= 0.7x floor",
                fifty["throughput"] >= 0.7,
                f"{fifty['throughput']:.2f}x",
            )
        )
        checks.append(
            _check("rolls x50 p99 <= 1.5x floor", fifty["p99"] <= 1.5, f"{fifty['p99']:.2f}x")
        )
    idle = [r for r in network if r.scenario.startswith("idle") and r.target == "bridge"]
    for result in idle:
        checks.append(
            _check(
                f"{result.scenario}: <= 40 kB per connection",
                result.rss_mb <= 40,
                f"{result.rss_mb:.1f} kB",
            )
        )
    clustered = cluster.report(quick)  # two processes on one Redis and PostgreSQL
    print(f"\n{TARGETS}:")
    for check in checks:
        print(f"  [{'met' if check['met'] else 'MISSED'}] {check['target']}: {check['detail']}")
    loaders_busy = [r for r in network if r.loader_cpu_share > 0.9]
    if loaders_busy:
        print("  warning: a load generator used over 90 % of a core: figures may be capped")
    if json_path is not None:
        json_path.write_text(
            json.dumps(
                {
                    "quick": quick,
                    "rules": {
                        k: asdict(v) for k, v in {**rules, "replay": replay, **store}.items()
                    },
                    "network": [asdict(r) for r in network],
                    "ratios": ratios,
                    "targets": checks,
                    "cluster": clustered,
                },
                indent=2,
            ),
            "utf-8",
        )
        print(f"\nwrote {json_path}")
    return 0


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    json_path = Path(argv[argv.index("--json") + 1]) if "--json" in argv else None
    return run(quick, json_path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
