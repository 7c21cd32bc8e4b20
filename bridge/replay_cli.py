"""``vtt-bridge replay``: the report on stdout (the same bytes every run), timing on stderr."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from bridge.replay import replay
from bridge.sessions import SessionFileError, load_session
from rules.registry import default_registry


def _bar(width: int = 30) -> Callable[[int, int], None]:
    def draw(index: int, total: int) -> None:
        if total and (index == total or index % max(1, total // 200) == 0):
            done = int(width * index / total)
            sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {index}/{total}")
            if index == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return draw


def run_replay(
    path: Path,
    *,
    reroll: bool = False,
    seed: int = 0,
    stop_at: int | None = None,
    first_only: bool = False,
    progress: bool = False,
) -> int:
    registry = default_registry()
    try:
        with path.open(encoding="utf-8") as handle:
            session = load_session(handle, registry)
    except (OSError, SessionFileError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    print(
        f"replaying {len(session.lines)} events of world {session.world.id}"
        f" ({session.world.system}){' with fresh dice' if reroll else ''}"
    )
    show = progress or sys.stderr.isatty()
    started = time.perf_counter()
    report = replay(
        session,
        registry,
        reroll=reroll,
        seed=seed,
        stop_at=stop_at,
        first_only=first_only,
        on_event=_bar() if show else None,
    )
    elapsed = time.perf_counter() - started
    for divergence in report.divergences:
        print(divergence.describe())
    print(report.summary())
    rate = report.events / elapsed if elapsed > 0 else float("inf")
    print(f"{report.events} events in {elapsed:.3f} s: {rate:.0f} events/s", file=sys.stderr)
    return 1 if report.divergences else 0


def run_live(
    path: Path, url: str, gm_token: str, player_token: str | None, stop_at: int | None
) -> int:
    import asyncio

    from bridge.replay_live import replay_live

    registry = default_registry()
    try:
        with path.open(encoding="utf-8") as handle:
            session = load_session(handle, registry)
    except (OSError, SessionFileError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    print(f"replaying {len(session.lines)} events against {url} (the server's own dice)")
    report = asyncio.run(replay_live(session, url, gm_token, player_token, stop_at=stop_at))
    for divergence in report.divergences:
        print(divergence)
    print(report.summary())
    return 1 if report.divergences else 0
