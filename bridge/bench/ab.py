"""Two variants of the served bridge against each other and the floor, in one run.

``python -m bridge.bench.ab --b="--sync normal"`` serves one network scenario (default ``o3d10 roll x50``) from three servers at once: the
floor, bridge A and bridge B, each B's worlds a copy of A's. It then runs ``--rounds``
rounds of one ``--seconds`` window each, in the order floor, A, B and then floor, B, A
(:func:`round_orders`), and prints each window's requests a second, the totals, and B
against A. All three servers stay up for the whole run; the ones not measured sit idle,
holding their memory and not their CPU.

This is how a change is judged on a shared machine. Before the fourteenth pass, changes
were judged from runs made one after another, and this machine's speed drifts by 10-25 %
within minutes (the floor alone has gone from 8,200 to 6,400 requests a second within one
run). Until the fifteenth pass the rounds went floor, A, B and then B, A, floor: B ran two
windows in a row at each turn (the second one warm) and A never did, and two bridges that
are the same read 1.002-1.051, 1.028 over 12 rounds (docs/performance.md, "Fifteenth
pass"). Now A and B each follow the floor in half the rounds and the other bridge in the
other half, and no server runs two windows in a row.

A variant is written as words. ``NAME=VALUE`` with an upper-case name is set in that
server's environment: for example ``VTT_PURE=1``, or ``VTT_COMPILED_DIR=...`` for another
compiled build. ``ROOT=/path/to/checkout`` runs another checkout with its own
``.venv/bin/python``, from its own folder. ``BOUND=no-log-index+no-cards`` serves the
bridge through :mod:`bridge.bench.bounds`, with those parts of its store's work taken away
(upper bounds: never a design). Every other word is passed on to ``vtt-bridge serve``,
for example ``--sync normal``. An empty variant is the bridge as ``make bench`` runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bridge.bench import bounds
from bridge.bench.net import (
    ROOT,
    CpuWindow,
    Scenario,
    Server,
    _bridge_command,
    _loaders,
    _setup_worlds,
    _world_count,
    scenarios,
    warmup_for,
)

_ENV_WORD = re.compile(r"^([A-Z_][A-Z0-9_]*)=(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Variant:
    """One bridge to serve: its environment's additions, its extra ``serve`` arguments,
    the checkout it runs from, and the bounds it is served with (``+``-joined names of
    :data:`bridge.bench.bounds.BOUNDS`; none: the bridge as it is)."""

    text: str
    env: dict[str, str] = field(default_factory=dict)
    args: tuple[str, ...] = ()
    root: Path = ROOT
    bound: str = ""

    def command(self, data: Path) -> list[str]:
        command = _bridge_command(data) + list(self.args)
        if self.bound:  # python -m bridge ... -> python -m bridge.bench.bounds --bound B ...
            command[1:3] = ["-m", "bridge.bench.bounds", "--bound", self.bound]
        if self.root != ROOT:
            command[0] = str(self.root / ".venv" / "bin" / "python")
        return command

    def environment(self) -> dict[str, str]:
        return {**os.environ, **self.env}


def parse_variant(text: str) -> Variant:
    """A variant from its words (see the module's doc); ValueError for a ``ROOT`` that is
    not a checkout with its virtualenv, or a ``BOUND`` that names no bound."""
    env: dict[str, str] = {}
    args: list[str] = []
    root = ROOT
    bound = ""
    for word in shlex.split(text):
        found = _ENV_WORD.match(word)
        if found is None:
            args.append(word)
        elif found.group(1) == "BOUND":
            bound = "+".join(bounds.parse(found.group(2)))
        elif found.group(1) == "ROOT":
            root = Path(found.group(2)).resolve()
            if not (root / ".venv" / "bin" / "python").exists():
                raise ValueError(f"ROOT={root}: no .venv/bin/python there (make setup in it)")
        else:
            env[found.group(1)] = found.group(2)
    return Variant(text, env, tuple(args), root, bound)


@dataclass(frozen=True)
class LoopTime:
    """The loop thread's time over a window (seconds), from ``/proc/PID/task/PID/schedstat``:
    on a CPU, waiting in the run queue for one, and the window's wall time. The rest of the
    wall time the thread was off both: asleep in ``epoll_wait`` with nothing to do, or
    waiting for the GIL. The floor's loop is off ~0-5 % of a roll window; the bridge's
    ~15 %, asleep while a group's write is on its way to disk (docs/performance.md,
    "Fifteenth pass")."""

    running: float = 0.0
    queued: float = 0.0
    wall: float = 0.0

    def __add__(self, other: LoopTime) -> LoopTime:
        return LoopTime(
            self.running + other.running, self.queued + other.queued, self.wall + other.wall
        )

    def shares(self) -> tuple[float, float, float]:
        """On a CPU, in the run queue, off both: fractions of the wall time."""
        if self.wall <= 0:
            return (0.0, 0.0, 0.0)
        running, queued = self.running / self.wall, self.queued / self.wall
        return running, queued, max(0.0, 1.0 - running - queued)


def _schedstat(pid: int) -> tuple[float, float]:
    """The main thread's time on a CPU and in the run queue so far (seconds)."""
    fields = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    return int(fields[0]) / 1e9, int(fields[1]) / 1e9


class LoopWindow(CpuWindow):
    """A server's CPU over the window (:class:`CpuWindow`) and its loop thread's time."""

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self._started = (0.0, 0.0, 0.0)
        self.loop = LoopTime()

    def start(self) -> None:
        self._started = (*_schedstat(self.pid), time.monotonic())
        super().start()

    def end(self) -> None:
        super().end()
        running, queued = _schedstat(self.pid)
        before = self._started
        self.loop = LoopTime(running - before[0], queued - before[1], time.monotonic() - before[2])


@dataclass(frozen=True)
class Window:
    """One measured window of one server."""

    target: str
    requests: int
    errors: int
    seconds: float
    cpu_seconds: float
    p99_ms: float = 0.0
    """The window's 99th percentile latency (of its operations)."""
    loader_cpu_seconds: float = 0.0
    """The load generators' CPU over the window (all of them): beside a server that
    answers later they spend more a request (docs/performance.md, "Fourteenth pass")."""
    loop: LoopTime = field(default_factory=LoopTime)
    """Where the server's loop thread (its main thread) spent the window."""

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class Comparison:
    scenario: str
    a: str
    b: str
    rounds: list[dict[str, Window]]

    def total(self, target: str) -> Window:
        windows = [r[target] for r in self.rounds]
        return Window(
            target,
            sum(w.requests for w in windows),
            sum(w.errors for w in windows),
            sum(w.seconds for w in windows),
            sum(w.cpu_seconds for w in windows),
            statistics.median(w.p99_ms for w in windows),
            sum(w.loader_cpu_seconds for w in windows),
            sum((w.loop for w in windows), LoopTime()),
        )

    def b_over_a(self) -> list[float]:
        """B's rate over A's, round by round."""
        return [r["B"].rate / r["A"].rate if r["A"].rate else 0.0 for r in self.rounds]


def _scenario(name: str) -> Scenario:
    for scenario in scenarios(False):
        if scenario.name == name:
            return scenario
    known = ", ".join(s.name for s in scenarios(False))
    raise ValueError(f"no scenario {name!r} (known: {known})")


def round_orders(rounds: int) -> list[list[str]]:
    """The windows of each round: the floor first, then A and B, in turns. Each bridge is
    second in half the rounds and third in the others, follows the floor and the other
    bridge as often, and no server serves two windows in a row (a window right after its
    own runs warm: the order floor, A, B / B, A, floor gave B that every other round)."""
    return [["floor", "A", "B"] if turn % 2 == 0 else ["floor", "B", "A"] for turn in range(rounds)]


def compare(name: str, a: Variant, b: Variant, rounds: int, seconds: float) -> Comparison:
    """Serve ``name`` from the floor, A and B in alternating windows (see the module)."""
    scenario = _scenario(name)
    count = _world_count(scenario.connections)
    processes = 1 if scenario.connections == 1 else scenario.loaders
    with tempfile.TemporaryDirectory() as folder:
        data_a = Path(folder) / "a"
        tokens = _setup_worlds(data_a, {scenario.system: count})[scenario.system][:count]
        data_b = Path(folder) / "b"
        shutil.copytree(data_a, data_b)
        servers: dict[str, Server] = {}
        try:
            servers["A"] = Server(a.command(data_a), a.environment(), a.root)
            servers["B"] = Server(b.command(data_b), b.environment(), b.root)
            captured: dict[str, Any] = {}
            for target in ("B", "A"):  # each warmed by one operation; the floor gets A's
                (recorded,) = _loaders(
                    servers[target].url, tokens[:1], 1, 0, False, scenario.script, 1, capture=True
                )
                if recorded["errors"]:
                    raise RuntimeError(f"bridge {target} refused {recorded['first_error']}")
                captured[scenario.key] = recorded["captured"]
            captured_file = Path(folder) / "captured.json"
            captured_file.write_text(json.dumps(captured), "utf-8")
            floor = [sys.executable, "-m", "bridge.bench.floor", "--port", "0"]
            servers["floor"] = Server([*floor, "--captured", str(captured_file)])
            floor_tokens = [f"{scenario.key}|room-{i}" for i in range(count)]
            measured: list[dict[str, Window]] = []
            for turn, order in enumerate(round_orders(rounds)):
                row: dict[str, Window] = {}
                for target in order:
                    server = servers[target]
                    window = LoopWindow(server.pid)
                    results = _loaders(
                        server.url,
                        floor_tokens if target == "floor" else tokens,
                        scenario.connections,
                        seconds,
                        False,
                        scenario.script,
                        processes,
                        window=window,
                        warmup=warmup_for(seconds),
                    )
                    row[target] = Window(
                        target,
                        sum(r["requests"] for r in results),
                        sum(r["errors"] + r["connect_errors"] for r in results),
                        max(r["elapsed"] for r in results),
                        window.cpu,
                        _p99(results),
                        sum(r["cpu_seconds"] for r in results),
                        window.loop,
                    )
                measured.append(row)
                print(_round_line(turn, row), flush=True)
        finally:
            for server in servers.values():
                server.stop()
    return Comparison(name, a.text, b.text, measured)


def _p99(results: list[dict[str, Any]]) -> float:
    """The 99th percentile of the generators' latencies together (the highest of their own
    when they did not send them all)."""
    latencies = sorted(x for r in results for x in (r.get("latencies_ms") or []))
    if not latencies:
        return float(max(r["p99_ms"] for r in results))
    return float(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))])


def _round_line(turn: int, row: dict[str, Window]) -> str:
    floor = row["floor"].rate
    parts = [f"round {turn + 1}: floor {floor:7.0f}/s"]
    for target in ("A", "B"):
        rate = row[target].rate
        parts.append(f"{target} {rate:7.0f}/s ({rate / floor if floor else 0:.3f}x)")
    return "  ".join(parts)


def report(comparison: Comparison) -> str:
    """The totals and B against A, as printed."""
    lines = [f"{comparison.scenario}: A = [{comparison.a}], B = [{comparison.b}]"]
    floor = comparison.total("floor")
    for target in ("floor", "A", "B"):
        total = comparison.total(target)
        per = 1e6 / total.requests if total.requests else 0.0
        ratio = f"  {total.rate / floor.rate:.3f}x the floor" if floor.rate else ""
        running, queued, off = total.loop.shares()
        lines.append(
            f"  {target:5} {total.rate:8.0f} requests/s  {total.cpu_seconds * per:6.1f} us CPU"
            f" a request (generators {total.loader_cpu_seconds * per:6.1f})"
            f"  p99 {total.p99_ms:6.2f} ms (median of rounds)  {total.errors} errors{ratio}"
        )
        lines.append(
            f"        loop thread: on a CPU {running:4.0%}, waiting for one {queued:4.0%},"
            f" off both {off:4.0%} (asleep or waiting for the GIL)"
        )
    a, b = comparison.total("A"), comparison.total("B")
    rounds = comparison.b_over_a()
    lines.append(
        f"  B / A: {b.rate / a.rate if a.rate else 0:.3f} over the run; by round median"
        f" {statistics.median(rounds):.3f}, {min(rounds):.3f}-{max(rounds):.3f}"
        f" ({len(rounds)} rounds)"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bridge.bench.ab", description=__doc__)
    parser.add_argument("--scenario", default="o3d10 roll x50")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--a", default="", metavar="VARIANT", help="default: the bridge as is")
    parser.add_argument("--b", default="", metavar="VARIANT")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.rounds < 1 or not 0.1 <= args.seconds <= 60:
        parser.error("--rounds takes 1 or more, --seconds 0.1-60")
    try:
        a, b = parse_variant(args.a), parse_variant(args.b)
        comparison = compare(args.scenario, a, b, args.rounds, args.seconds)
    except ValueError as exc:
        parser.error(str(exc))
    print(report(comparison))
    if args.json is not None:
        args.json.write_text(json.dumps(asdict(comparison), indent=2, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
