"""``vtt-bridge store copy``: a played SQLite world moves to PostgreSQL, verified."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg

from support.cluster import ROLL, Node
from support.live import connect, rid
from support.process import ServerProcess, cli


def copy(source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bridge", "store", "copy", "--from", source, "--to", target],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_a_world_moves_from_sqlite_to_postgresql_event_by_event(
    tmp_path: Path, pg_url: str
) -> None:
    world = cli("world", "create", "Mesa", "--system", "o3d10", "--data", str(tmp_path), "--demo")
    auth = {"token": world["gm_token"], "user": "dm", "protocol": 1}
    server = ServerProcess.start(tmp_path)
    try:
        gm = await connect(server.url, auth)
        acks = [await gm.call("roll", {"id": rid(), **ROLL}) for _ in range(6)]
        retried = {"id": rid(), **ROLL}
        first = await gm.call("roll", retried)
        await gm.close()
    finally:
        server.kill9()  # what was acknowledged is on disk; the copy reads it from there
    source = f"sqlite://{tmp_path / 'bridge.sqlite3'}"
    done = copy(source, pg_url)
    assert done.returncode == 0, done.stderr
    assert '"status": "copied"' in done.stdout and '"events": 7' in done.stdout
    again = copy(source, pg_url)  # re-running verifies, writes nothing
    assert again.returncode == 0 and '"status": "verified"' in again.stdout

    node = Node.start(pg_url, None, seed=9)
    try:
        back = await connect(node.url, {**auth, "last_seq": 0})
        assert back.welcome is not None and back.welcome["seq"] == 7
        replayed = [await back.next_push("chat_card") for _ in range(7)]
        assert [c["dice"] for c in replayed[:6]] == [a["cards"][0]["dice"] for a in acks]
        duplicate = await back.call("roll", retried)  # idempotency keys came along
        assert duplicate["duplicate"] and duplicate["seq"] == first["seq"] == 7
        assert (await back.call("roll", {"id": rid(), **ROLL}))["seq"] == 8
        await back.close()
    finally:
        node.stop()

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE events SET draws = '[]' WHERE seq = 3")
    tampered = copy(source, pg_url)
    assert tampered.returncode == 1
    assert '"status": "mismatch"' in tampered.stdout and "event seq 3 differs" in tampered.stdout
