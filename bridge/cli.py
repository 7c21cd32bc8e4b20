"""The ``vtt-bridge`` command: serve, world create, world list, store copy, demo."""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import ipaddress
import json
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from bridge.limits import DEFAULT_WORLD, RateLimit, WorldLimit
from bridge.server import create_app
from bridge.store import AsyncStore, StoreError
from bridge.store_api import Store, open_store
from bridge.transport import exposure_warning
from bridge.worlds import create_world
from rules.dice import SeededDice, SystemDice
from rules.registry import default_registry

DEFAULT_DATA = Path("data")


def _store(data: Path, sync: str = "FULL", location: str | None = None) -> Store:
    """``--store`` when given (``postgresql://...`` or a SQLite path), else SQLite in ``--data``."""
    return open_store(location or str(data / "bridge.sqlite3"), sync=sync)


def _is_postgres(location: str | None) -> bool:
    return bool(location) and str(location).startswith(("postgresql://", "postgres://"))


def _parse_settings(pairs: list[str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--setting takes key=value, not {pair!r}")
        try:
            settings[key] = json.loads(value)
        except json.JSONDecodeError:
            settings[key] = value
    return settings


class _SeededStream:
    """One seeded stream shared by every request, for repeatable test and soak servers."""

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice(seed)

    def __call__(self) -> SeededDice:
        return self._dice


def _ip_address(text: str) -> str:
    """An IP address for ``--trusted-proxy``, in canonical form."""
    try:
        return ipaddress.ip_address(text.strip("[]")).compressed
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {text!r}") from None


async def serve(
    host: str,
    port: int,
    data: Path,
    sync: str,
    dice_seed: int | None,
    rate: float = 50.0,
    location: str | None = None,
    redis: str | None = None,
    poll_seconds: float = 1.0,
    world: WorldLimit = DEFAULT_WORLD,
    trusted_proxies: frozenset[str] = frozenset(),
) -> None:
    registry = default_registry()
    store = AsyncStore(_store(data, sync, location))
    limit = RateLimit(rate, rate * 2)
    if rate <= 0:  # benchmarks: no rate or count limits at all
        world = WorldLimit(0, 0.0, 0.0)
    warning = exposure_warning(host)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    cluster = None
    if _is_postgres(location):
        from bridge.cluster import ClusterFeed

        cluster = ClusterFeed(redis, poll_seconds=poll_seconds)
    app = create_app(
        store,
        registry,
        dice_factory=SystemDice if dice_seed is None else _SeededStream(dice_seed),
        rate_limit=limit,
        cluster=cluster,
        world_limit=world,
        trusted_proxies=trusted_proxies,
        freeze_gc=True,
    )
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server
    sockets = getattr(server, "sockets", None) or []
    bound = sockets[0].getsockname()[1] if sockets else port
    print(
        json.dumps({"event": "listening", "url": f"http://{host}:{bound}/", "port": bound}),
        flush=True,
    )
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # kill -USR1 dumps the stacks
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    def dump_tasks() -> None:  # kill -USR2: what every asyncio task is waiting on
        for task in asyncio.all_tasks(loop):
            task.print_stack(limit=8, file=sys.stderr)

    loop.add_signal_handler(signal.SIGUSR2, dump_tasks)
    await stop.wait()
    print(json.dumps({"event": "stopping"}), flush=True)
    await runner.cleanup()
    print(json.dumps({"event": "stopped"}), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vtt-bridge", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_serve = sub.add_parser("serve", help="run the bridge server")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8765)
    p_serve.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p_serve.add_argument(
        "--store",
        default=None,
        metavar="URL",
        help="postgresql://user:password@host/db to share worlds between several processes"
        " (default: SQLite in --data)",
    )
    p_serve.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="redis://host:port/0: push events made by the other processes at once"
        " (needs --store postgresql://...)",
    )
    p_serve.add_argument(
        "--poll-seconds",
        type=float,
        default=1.0,
        help="with --store postgresql: how often to look for events Redis did not bring",
    )
    p_serve.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite synchronous mode: full survives power loss, normal only crashes",
    )
    p_serve.add_argument(
        "--dice-seed",
        type=int,
        default=None,
        help="FOR TESTS AND SOAK RUNS ONLY: seeded dice instead of the OS's CSPRNG",
    )
    p_serve.add_argument(
        "--rate-limit",
        type=float,
        default=50.0,
        metavar="PER_SECOND",
        help="requests per second per connection (bursts of twice that); 0 switches every"
        " rate and connection limit off (benchmarks)",
    )
    p_serve.add_argument(
        "--world-connections",
        type=int,
        default=DEFAULT_WORLD.max_connections,
        metavar="N",
        help="open connections per world (world_full past that); 0: no limit",
    )
    p_serve.add_argument(
        "--world-rate",
        type=float,
        default=DEFAULT_WORLD.per_second,
        metavar="PER_SECOND",
        help="requests per second of one world's connections together (bursts of twice that)",
    )
    p_serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        type=_ip_address,
        metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For is believed (repeatable); the"
        " wrong-token throttle then counts the client's address, not the proxy's",
    )

    p_world = sub.add_parser("world", help="manage worlds")
    wsub = p_world.add_subparsers(dest="world_command", required=True)
    p_create = wsub.add_parser("create", help="create a world and print its tokens")
    p_create.add_argument("name")
    p_create.add_argument("--system", required=True)
    p_create.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p_create.add_argument("--store", default=None, metavar="URL")
    p_create.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    p_create.add_argument("--locale", choices=("es", "en"), default="es")
    p_create.add_argument("--demo", action="store_true", help="add the system's sample actors")
    p_list = wsub.add_parser("list", help="list worlds")
    p_list.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p_list.add_argument("--store", default=None, metavar="URL")

    p_export = sub.add_parser("export", help="print a world's event log as a session file")
    p_export.add_argument("world")
    p_export.add_argument("--data", type=Path, default=DEFAULT_DATA)
    p_export.add_argument("--store", default=None, metavar="URL")

    p_store = sub.add_parser("store", help="manage stores")
    ssub = p_store.add_subparsers(dest="store_command", required=True)
    p_copy = ssub.add_parser(
        "copy", help="copy worlds into a PostgreSQL store, verified event by event"
    )
    p_copy.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="URL",
        help="sqlite:///path/bridge.sqlite3 (or postgresql://...)",
    )
    p_copy.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="postgresql://..."
    )
    p_copy.add_argument(
        "--world",
        action="append",
        default=None,
        metavar="ID",
        help="only this world (repeatable; default: every world)",
    )
    p_migrate = ssub.add_parser("migrate", help="apply the schema migrations and exit")
    p_migrate.add_argument("--store", required=True, metavar="URL")

    p_replay = sub.add_parser("replay", help="replay a session or scenario file and compare")
    p_replay.add_argument("file", type=Path)
    p_replay.add_argument(
        "--reroll",
        action="store_true",
        help="roll fresh (seeded) dice instead of the recorded ones: a soak run",
    )
    p_replay.add_argument("--seed", type=int, default=0, help="the seed for --reroll")
    p_replay.add_argument("--stop-at", type=int, default=None, metavar="SEQ")
    p_replay.add_argument("--first", action="store_true", help="stop at the first divergence")
    p_replay.add_argument(
        "--url", default=None, help="replay against this live server as real Socket.IO clients"
    )
    p_replay.add_argument("--gm-token", default=None)
    p_replay.add_argument("--player-token", default=None)
    p_replay.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar on stderr (default: when it is a terminal)",
    )

    p_bots = sub.add_parser("bots", help="drive a live server with simulated players and a GM")
    p_bots.add_argument("--url", required=True)
    p_bots.add_argument("--gm-token", required=True)
    p_bots.add_argument("--player-token", default=None)
    p_bots.add_argument("--players", type=int, default=4)
    p_bots.add_argument("--requests", type=int, default=200, help="stop after this many")
    p_bots.add_argument("--seconds", type=float, default=30.0, help="stop after this long")
    p_bots.add_argument("--seed", type=int, default=0)

    p_bench = sub.add_parser("bench", help="measure the bridge against the floor, same run")
    p_bench.add_argument("--quick", action="store_true", help="a short smoke run")
    p_bench.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p_bench.add_argument(
        "--only",
        default=None,
        help="only the network rows whose scenario contains this text; 'core': the rules core alone",
    )

    p_demo = sub.add_parser("demo", help="create (once) a demo world per system")
    p_demo.add_argument("--data", type=Path, default=DEFAULT_DATA)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if args.command == "serve":
        if args.redis and not _is_postgres(args.store):
            print("--redis needs a shared store: --store postgresql://...", file=sys.stderr)
            return 2
        if args.redis and not args.redis.startswith(
            ("redis://", "rediss://", "unix://", "redis+sentinel://")
        ):
            print(
                "--redis takes redis://, rediss://, unix:// or redis+sentinel://", file=sys.stderr
            )
            return 2
        if not 0.05 <= args.poll_seconds <= 60:
            print("--poll-seconds takes 0.05-60", file=sys.stderr)
            return 2
        try:
            asyncio.run(
                serve(
                    args.host,
                    args.port,
                    args.data,
                    args.sync.upper(),
                    args.dice_seed,
                    args.rate_limit,
                    args.store,
                    args.redis,
                    args.poll_seconds,
                    WorldLimit(args.world_connections, args.world_rate, args.world_rate * 2),
                    frozenset(args.trusted_proxy),
                )
            )
        except StoreError as exc:
            print(f"store: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "store":
        return _store_command(args)
    if args.command == "bench":
        from bridge.bench.run import run as run_bench

        return run_bench(args.quick, args.json, args.only)
    if args.command == "bots":
        from bridge.bots import run_bots

        if not 0 <= args.players <= 200 or not 1 <= args.requests <= 1_000_000:
            print("--players takes 0-200 and --requests 1-1000000", file=sys.stderr)
            return 2
        result = asyncio.run(
            run_bots(
                args.url,
                args.gm_token,
                args.player_token,
                players=args.players,
                requests=args.requests,
                seconds=min(args.seconds, 3600.0),
                seed=args.seed,
            )
        )
        print(json.dumps(result))
        return 0 if "internal_error" not in result["refused"] else 1
    if args.command == "replay":
        from bridge.replay_cli import run_live, run_replay

        if args.url:
            if not args.gm_token:
                print(
                    "--url needs --gm-token (and --player-token for player requests)",
                    file=sys.stderr,
                )
                return 2
            return run_live(args.file, args.url, args.gm_token, args.player_token, args.stop_at)
        return run_replay(
            args.file,
            reroll=args.reroll,
            seed=args.seed,
            stop_at=args.stop_at,
            first_only=args.first,
            progress=args.progress,
        )
    if args.command == "export":
        from bridge.sessions import export_lines

        store = _store(args.data, location=args.store)
        try:
            for line in export_lines(store, args.world):
                sys.stdout.write(line + "\n")
        except KeyError:
            print(f"no world {args.world!r} in {args.data}", file=sys.stderr)
            return 2
        finally:
            store.close()
        return 0
    if args.command == "demo":
        from bridge.demo import ensure_demo_worlds

        print(
            json.dumps(
                ensure_demo_worlds(_store(args.data), args.data), ensure_ascii=False, indent=2
            )
        )
        return 0
    registry = default_registry()
    store = _store(args.data, location=args.store)
    try:
        if args.world_command == "create":
            if args.system not in registry:
                print(
                    f"unknown system {args.system!r}; known: {', '.join(sorted(registry.systems))}",
                    file=sys.stderr,
                )
                return 2
            system = registry.get(args.system)
            created = create_world(
                store,
                registry,
                args.name,
                args.system,
                settings=_parse_settings(args.setting),
                actors=system.sample_actors() if args.demo else (),
                locale=args.locale,
            )
            print(json.dumps(created.as_json()))
            return 0
        for row in store.list_worlds():
            print(
                json.dumps(
                    {
                        "world_id": row.id,
                        "name": row.name,
                        "system": row.system,
                        "seq": row.seq,
                        "created_at": row.created_at,
                    },
                    ensure_ascii=False,
                )
            )
        return 0
    finally:
        store.close()


def _store_command(args: argparse.Namespace) -> int:
    try:
        if args.store_command == "migrate":
            store = open_store(args.store)
            version = getattr(store, "schema_version", lambda: None)()
            store.close()
            print(json.dumps({"store": "migrated", "schema_version": version}))
            return 0
        from bridge.store_copy import copy_worlds

        failed = False
        for copied in copy_worlds(args.source, args.target, args.world):
            print(json.dumps(copied.as_json(), ensure_ascii=False), flush=True)
            failed = failed or copied.status == "mismatch"
        return 1 if failed else 0
    except StoreError as exc:
        print(f"store: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
