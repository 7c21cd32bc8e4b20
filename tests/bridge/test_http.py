"""HTTP surface: health, the table page, and websocket compression switched off."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import aiohttp

from support.live import Env


async def test_healthz_and_the_table_page(env: Env) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(env.url + "healthz") as response:
            assert response.status == 200
            body = await response.json()
            assert body["ok"] is True and body["protocol"] == 1
        async with session.get(env.url) as response:
            assert response.status == 200
            page = await response.text()
            assert "/static/dist/table.js" in page


async def test_websocket_compression_is_off_even_when_offered(env: Env) -> None:
    url = env.url + "socket.io/?EIO=4&transport=websocket"
    async with aiohttp.ClientSession() as session, session.ws_connect(url, compress=15) as ws:
        assert ws.compress == 0
        opening = await ws.receive_str()
        assert opening.startswith("0{")  # engine.io open packet


def test_world_create_and_list_commands(tmp_path: Path) -> None:
    def run(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "bridge", *args, "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout

    created = json.loads(
        run("world", "create", "Mesa", "--system", "savage_worlds", "--setting", "variant=xcom")
    )
    assert set(created) == {"world_id", "gm_token", "player_token"}
    assert created["gm_token"] != created["player_token"]
    listed = [json.loads(line) for line in run("world", "list").splitlines()]
    assert [(w["world_id"], w["system"], w["seq"]) for w in listed] == [
        (created["world_id"], "savage_worlds", 0)
    ]
    database = (tmp_path / "bridge.sqlite3").read_bytes()
    assert created["gm_token"].encode() not in database, "tokens are stored hashed"
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "bridge",
            "world",
            "create",
            "X",
            "--system",
            "nope",
            "--data",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "unknown system" in bad.stderr
