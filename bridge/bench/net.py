"""Network benchmarks: the bridge against the floor, same machine, same run.

Servers run as child processes; the load comes from separate Node processes
(socket.io-client, msgpack parser, websocket transport). Server CPU comes from
/proc (user + system time during the measured window), memory from VmRSS.

Every scenario spreads its connections over worlds of five members (1 connection:
one world; 50: ten worlds; 500: a hundred), each member running the scenario's
operation in a closed loop, each card pushed to its world's room. The floor is
given, per scenario, a run of operations the bridge answered (each request's ack and
pushes, recorded by the same load generator first) and walks through them, so both
answer the same requests with the same bytes to the same rooms.
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
    operations: int
    requests: int
    errors: int
    throughput: float
    """Operations a second (an operation may take several requests: ``requests``)."""
    p50_ms: float
    p99_ms: float
    cpu_us_per_request: float
    rss_mb: float
    loader_cpu_share: float
    connect_errors: int = 0
    connect_seconds: float = 0.0
    loader_cpu_us_per_request: float = 0.0
    """The load generators' CPU (all of them) per request: their share of the machine."""
    pushes_per_request: float = 0.0
    """Pushes the connections received per request (the same on both sides of a row)."""

    @property
    def requests_per_second(self) -> float:
        return self.requests / self.operations * self.throughput if self.operations else 0.0


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
    def __init__(
        self, command: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT
    ) -> None:
        """``command`` started in ``cwd`` (this checkout) with ``env`` (default: this
        process's), once it printed the line that it listens (its URL)."""
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=_raise_fd_limit,
            cwd=cwd,
            env=env,
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


@dataclass(frozen=True)
class Scenario:
    """``name`` shown in the table; ``script`` is what one operation sends (load.mjs)."""

    name: str
    key: str
    system: str
    connections: int
    script: dict[str, Any]
    loaders: int = 2
    """Load generators for the row (one when it has a single connection)."""


MEMBERS = 5
IN_MEMORY_ROW = "o3d10 roll x50"
"""The row also played against the same bridge whose store lives in RAM: what durability costs."""
RAM_DISK = Path("/dev/shm")
"""A tmpfs (Linux): a store there is written the same way, and a sync returns at once."""
CAPTURED_OPERATIONS = 24
"""Operations recorded from the bridge per scenario, as they came, for the floor to walk
through: one recorded burst made the floor's operations all as long as that burst (an
attack, one damage and two undos: 4 requests; three hits: 8) while the bridge's averaged
~4.3 requests, so the RoF 3 row read 0.36x or 0.61x by which burst was recorded."""
SLICES = 2
"""Windows per target and row (full runs), floor and bridge alternating."""
WARMUP_SECONDS = 1.0
"""Each measured window's load first runs this long unmeasured (full runs; 0.2 s in quick
ones): the load generators' code compiled by V8 before the window, and the server
measured having just served, whatever the window before it measured. Without it a 2 s
window held V8's ~0.5 s of compilation, a fixed cost that weighed more beside the slower
server, and a server measured right after its own window ran warm while the other did
not: the A/B harness's old order read 1.028 for two identical bridges
(docs/performance.md, "Fifteenth pass")."""


def warmup_for(window_seconds: float) -> float:
    """The warm-up before a measured window: :data:`WARMUP_SECONDS` before a full window
    (2 s), 0.2 s before the short ones of quick runs and smoke tests."""
    return WARMUP_SECONDS if window_seconds >= 2 else 0.2


O3D10_ROLL = {
    "actor": "aldara",
    "action": "skill",
    "params": {"skill": "sigilo", "level": "normal"},
}
SW_ROLL = {"actor": "agente", "action": "trait", "params": {"trait": "disparar"}}
ROLL = {"event": "roll", "payload": O3D10_ROLL}  # the o3d10 roll as a load script (cluster.py)
# The attacks: in each world the GM fires while the four other members watch (every
# push reaches all five). The agent's SMG at RoF 3 on three targets, each hit's damage
# applied through its card's follow-up (Shaken, Wounds, out of the fight); then every
# step is undone, newest first, so the next burst finds the same table. An operation
# is the whole sequence; its latency runs from the attack to the last undo's ack.
SW_ROF3 = {
    "event": "attack",
    "payload": {
        "actor": "agente",
        "action": "attack",
        "params": {"weapon": "subfusil", "rof": 3},
        "targets": ["terrorista1", "terrorista2", "sectoide"],
    },
    "follow": "damage-",
    "undo": True,
    "active": 1,
}
OMERTA_BURST = {
    "event": "attack",
    "payload": {
        "actor": "frank",
        "action": "attack",
        "params": {"weapon": "thompson", "mode": "short_burst"},
        "targets": ["tony"],
    },
    "undo": True,
    "active": 1,
}


def scenarios(quick: bool) -> list[Scenario]:
    levels = (1, 50) if quick else (1, 50, 500)
    found = []
    for system, roll in (("o3d10", O3D10_ROLL), ("savage_worlds", SW_ROLL)):
        for connections in levels:
            found.append(
                Scenario(
                    f"{system} roll x{connections}",
                    f"{system}-roll",
                    system,
                    connections,
                    {"event": "roll", "payload": roll},
                )
            )
    # The attacks push each target's whole actor to its room (~12-14 kB of msgpack, most
    # of it the sheet's buttons): decoding them is most of a generator's work, 0.84-0.94
    # of a core with two generators on the floor's rows. Three keep each one well short of
    # its core (see the check on the generators in ``bridge.bench.run``).
    found.append(Scenario("sw rof3+dmg x50", "sw-rof3", "savage_worlds", 50, SW_ROF3, loaders=3))
    found.append(
        Scenario("omerta burst x50", "omerta-burst", "omerta", 50, OMERTA_BURST, loaders=3)
    )
    return found


def generator_connections(connections: int, worlds: int, processes: int) -> list[list[int]]:
    """The connections each load generator holds, by index.

    Connection i is member i // W of world i % W (W: ``worlds``, the tokens given). It
    goes to generator (world + member) % ``processes``: each world's members are spread
    over the generators, as a table's players are separate browsers (a generator holding
    a whole world reads its five copies of each push at once, for less than five clients
    would: the floor's generators took a third less CPU a request that way, the bridge's
    answers coming in groups already), and so is each world's active member of a row with
    ``active``. (In blocks, 0-24 and 25-49, the first generator held all ten active
    members of the attack rows and did all their requests: 0.91 of a core on the floor's
    RoF 3 and burst rows on a faster machine.)"""
    worlds = max(1, worlds)
    held: list[list[int]] = [[] for _ in range(processes)]
    for index in range(connections):
        held[(index % worlds + index // worlds) % processes].append(index)
    return held


def _loaders(
    url: str,
    tokens: list[str],
    connections: int,
    seconds: float,
    idle: bool,
    script: dict[str, Any],
    processes: int,
    peak: list[float] | None = None,
    pid: int = 0,
    capture: bool = False,
    window: Window | None = None,
    warmup: float = 0.0,
) -> list[dict[str, Any]]:
    """Run the load generators and return their result lines.

    With ``window`` (the measured rows), every generator connects first; then
    ``window.start()`` is called and all of them start their timed loop at once; once
    every result is in, ``window.end()`` is called before any of them disconnects. The
    servers' CPU is thus taken over the measured window alone, for bridge and floor alike
    (before, it included every connection's welcome and disconnect, and one generator's
    window could overlap the other's connection storm). With ``warmup`` (seconds, with a
    window only), each generator first runs the scenario that long, unmeasured, before it
    says it is connected (:data:`WARMUP_SECONDS`)."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("the network benchmark needs Node.js (make setup installs js-shim)")
    held = generator_connections(connections, len(tokens), processes)
    children = []
    for indices in held:
        if not indices:
            continue
        options = {
            "url": url,
            "tokens": tokens,
            "connections": len(indices),
            "indices": indices,
            "seconds": seconds,
            "idle": idle,
            "script": script,
            "capture": capture,
            "captureOps": CAPTURED_OPERATIONS if capture else 0,
            "barrier": window is not None,
            "warmup": warmup if window is not None else 0.0,
        }
        children.append(
            subprocess.Popen(
                [node, str(LOADER), json.dumps(options)],
                stdin=subprocess.PIPE if window is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT / "js-shim",
                preexec_fn=_raise_fd_limit,
            )
        )
    try:
        if window is not None:
            return _windowed(children, window)
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
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=10)
    return results


class Window:
    """What to do when the measured window of a row starts and ends (see ``_loaders``)."""

    def start(self) -> None:
        """Called once every load generator is connected, just before they start."""

    def end(self) -> None:
        """Called once every load generator reported, before any disconnects."""


class CpuWindow(Window):
    """A server's CPU seconds over the measured window."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = 0.0
        self.cpu = 0.0

    def start(self) -> None:
        self.before = _cpu_seconds(self.pid)

    def end(self) -> None:
        self.cpu = _cpu_seconds(self.pid) - self.before


def _line(child: subprocess.Popen[str]) -> dict[str, Any]:
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line:
        raise RuntimeError(f"load generator ended early ({child.wait(timeout=10)})")
    found: dict[str, Any] = json.loads(line)
    return found


def _windowed(children: list[subprocess.Popen[str]], window: Window) -> list[dict[str, Any]]:
    for child in children:
        _line(child)  # {"ready": true}: connected
    window.start()
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = [_line(child) for child in children]
    window.end()
    for child in children:
        assert child.stdin is not None
        child.stdin.close()
    for child in children:
        if child.wait(timeout=60) != 0:
            raise RuntimeError(f"load generator failed ({child.returncode})")
        if child.stdout is not None:
            child.stdout.close()
    return results


def _merge(
    scenario: str,
    target: str,
    server: Server,
    results: list[dict[str, Any]],
    cpu: float,
    slices: list[list[dict[str, Any]]] | None = None,
) -> NetResult:
    """One row from the load generators' results (of one window, or of several
    ``slices`` of the same row, whose windows add up)."""
    if slices is not None:
        results = [r for part in slices for r in part]
    parts = slices if slices is not None else [results]
    operations = sum(r["operations"] for r in results)
    requests = sum(r["requests"] for r in results)
    elapsed = sum(max(r["elapsed"] for r in part) for part in parts) or 1e-9
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
        max(sum(r["connections"] for r in part) for part in parts),
        operations,
        requests,
        sum(r["errors"] for r in results),
        operations / elapsed,
        p50,
        p99,
        cpu / requests * 1e6 if requests else 0.0,
        _rss_mb(server.pid),
        loader_share,
        sum(r["connect_errors"] for r in results),
        max(r["connect_seconds"] for r in results),
        sum(r["cpu_seconds"] for r in results) / requests * 1e6 if requests else 0.0,
        sum(r.get("pushes", 0) for r in results) / requests if requests else 0.0,
    )


def _setup_worlds(data: Path, plan: dict[str, int]) -> dict[str, list[str]]:
    """GM tokens of ``count`` new worlds (with the system's sample actors) per system."""
    from bridge.store import SQLiteStore
    from bridge.worlds import create_world
    from rules.registry import default_registry

    registry = default_registry()
    store = SQLiteStore(data / "bridge.sqlite3")
    tokens: dict[str, list[str]] = {}
    try:
        for system_id, count in plan.items():
            actors = registry.get(system_id).sample_actors()
            tokens[system_id] = [
                create_world(
                    store, registry, f"Bench {system_id} {i}", system_id, actors=actors
                ).gm_token
                for i in range(count)
            ]
    finally:
        store.close()
    return tokens


def _world_count(connections: int) -> int:
    return max(1, connections // MEMBERS)


def run(quick: bool, only: str | None = None) -> list[NetResult]:
    """Every scenario (``only``: those whose name contains it, and no idle rows unless
    it names them), bridge and floor, in one run."""
    seconds = 1.0 if quick else 4.0
    idle_levels: tuple[int, ...] = (200,) if quick else (2000, 10000)
    chosen = scenarios(quick)
    if only is not None:
        chosen = [s for s in chosen if only in s.name]
        idle_levels = tuple(n for n in idle_levels if only in f"idle x{n}")
    plan: dict[str, int] = {"o3d10": 10} if idle_levels else {}  # idle rows join o3d10 worlds
    for scenario in chosen:
        plan[scenario.system] = max(
            plan.get(scenario.system, 0), _world_count(scenario.connections)
        )
    results: list[NetResult] = []
    in_memory = any(s.name == IN_MEMORY_ROW for s in chosen) and RAM_DISK.is_dir()
    with (
        tempfile.TemporaryDirectory() as folder,
        tempfile.TemporaryDirectory(dir=RAM_DISK if in_memory else None) as ram_folder,
    ):
        data = Path(folder)
        tokens = _setup_worlds(data, plan)
        ram_bridge: Server | None = None
        if in_memory:
            # The same worlds, copied before any server opens them, for the same bridge
            # with its store on a RAM disk (written the same way; its syncs cost nothing).
            ram_data = Path(ram_folder) / "data"
            shutil.copytree(data, ram_data)
            ram_bridge = Server(_bridge_command(ram_data))
        bridge = Server(_bridge_command(data))
        floor: Server | None = None
        try:
            captured: dict[str, dict[str, Any]] = {}
            for scenario in chosen:
                if scenario.key in captured:
                    continue
                world_tokens = tokens[scenario.system]
                (recorded,) = _loaders(
                    bridge.url, world_tokens[:1], 1, 0, False, scenario.script, 1, capture=True
                )
                if recorded["errors"]:
                    raise RuntimeError(
                        f"{scenario.name}: the bridge refused {recorded['first_error']}"
                    )
                captured[scenario.key] = recorded["captured"]
            if ram_bridge is not None:  # warmed as the bridge just was, by one operation
                ram_script = next(s.script for s in chosen if s.name == IN_MEMORY_ROW)
                _loaders(
                    ram_bridge.url, tokens["o3d10"][:1], 1, 0, False, ram_script, 1, capture=True
                )
            captured_file = data / "captured.json"
            captured_file.write_text(json.dumps(captured), "utf-8")
            floor = Server(
                [
                    sys.executable,
                    "-m",
                    "bridge.bench.floor",
                    "--port",
                    "0",
                    "--captured",
                    str(captured_file),
                ]
            )
            for scenario in chosen:
                count = _world_count(scenario.connections)
                world_tokens = tokens[scenario.system][:count]
                targets = {
                    "floor": (floor, [f"{scenario.key}|room-{i}" for i in range(count)]),
                    "bridge": (bridge, world_tokens),
                }
                if ram_bridge is not None and scenario.name == IN_MEMORY_ROW:
                    targets["in-memory"] = (ram_bridge, world_tokens)
                processes = 1 if scenario.connections == 1 else scenario.loaders
                # The row's time in slices, floor and bridge alternating (floor, bridge,
                # bridge, floor): other work on a shared machine comes and goes, and one
                # window each, floor first, let that drift favour one side.
                slices: dict[str, list[list[dict[str, Any]]]] = {name: [] for name in targets}
                cpu = dict.fromkeys(targets, 0.0)
                for turn in range(SLICES if not quick else 1):
                    order = list(targets) if turn % 2 == 0 else list(reversed(targets))
                    for name in order:
                        server, server_tokens = targets[name]
                        window = CpuWindow(server.pid)
                        slices[name].append(
                            _loaders(
                                server.url,
                                server_tokens,
                                scenario.connections,
                                seconds / (SLICES if not quick else 1),
                                False,
                                scenario.script,
                                processes,
                                window=window,
                                warmup=warmup_for(seconds / (SLICES if not quick else 1)),
                            )
                        )
                        cpu[name] += window.cpu
                for name, (server, _tokens) in targets.items():
                    results.append(_merge(scenario.name, name, server, [], cpu[name], slices[name]))
            idle_script = {"event": "roll", "payload": O3D10_ROLL}
            idle_tokens = tokens.get("o3d10", [])
            for count in idle_levels:
                for name, (server, server_tokens) in {
                    "floor": (floor, [f"idle|room-{i}" for i in range(len(idle_tokens))]),
                    "bridge": (bridge, idle_tokens),
                }.items():
                    rss_before = _rss_mb(server.pid)
                    peak: list[float] = []
                    loads = _loaders(
                        server.url,
                        server_tokens,
                        count,
                        2.0,
                        True,
                        idle_script,
                        max(1, min(4, count // 2500)),
                        peak,
                        server.pid,
                    )
                    held = sum(r["connections"] for r in loads)
                    refused = [r["connect_error"] for r in loads if r.get("connect_error")]
                    if refused:
                        print(f"  (idle x{count} {name}: {count - held} not made: {refused[0]})")
                    grown = (max(peak, default=rss_before) - rss_before) * 1024 / max(held, 1)
                    results.append(
                        NetResult(
                            f"idle x{count}",
                            name,
                            held,
                            0,
                            0,
                            0,
                            0.0,
                            0.0,
                            0.0,
                            0.0,
                            grown,
                            0.0,
                            sum(r["connect_errors"] for r in loads),
                            max(r["connect_seconds"] for r in loads),
                        )
                    )
        finally:
            bridge.stop()
            if ram_bridge is not None:
                ram_bridge.stop()
            if floor is not None:
                floor.stop()
    return results


def _bridge_command(data: Path) -> list[str]:
    return [
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
