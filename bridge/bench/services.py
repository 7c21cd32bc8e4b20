"""Throw-away Redis and PostgreSQL servers on free loopback ports, for tests and benches.

Each runs as a child process of ours (stopped by its PID, never by name), with its
files in a temporary folder. PostgreSQL refuses to run as root, so under root the
cluster folder is handed to the ``postgres`` system user (created by Debian's
``postgresql`` package) and the server runs as that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg


class ServiceMissing(RuntimeError):
    """The program is not installed (``apt-get install redis-server postgresql``)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(process: subprocess.Popen[bytes], sig: int, timeout: float = 20) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@dataclass
class LocalRedis:
    process: subprocess.Popen[bytes]
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, folder: Path, port: int | None = None) -> LocalRedis:
        exe = shutil.which("redis-server")
        if exe is None:
            raise ServiceMissing("redis-server is not installed (apt-get install redis-server)")
        folder.mkdir(parents=True, exist_ok=True)
        port = port or free_port()
        process = subprocess.Popen(
            [
                exe,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        redis = cls(process, port, folder)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return redis
            except OSError:
                pass
            time.sleep(0.05)
        redis.stop()
        raise RuntimeError("redis-server did not answer in 15 s")

    def stop(self) -> None:
        _stop(self.process, signal.SIGTERM)

    def restart(self) -> LocalRedis:
        """Stop this server and start a new one on the same port (its memory is gone)."""
        self.stop()
        return LocalRedis.start(self.folder, self.port)


def _pg_bin(program: str) -> str:
    found = shutil.which(program)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{program}"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    if not candidates:
        raise ServiceMissing(f"{program} is not installed (apt-get install postgresql)")
    return candidates[-1]


@dataclass
class LocalPostgres:
    process: subprocess.Popen[bytes]
    port: int
    folder: Path
    durable: bool = False
    uid: int | None = None
    gid: int | None = None

    @property
    def url(self) -> str:
        return f"postgresql://bridge@127.0.0.1:{self.port}/postgres"

    @classmethod
    def start(cls, *, durable: bool = False) -> LocalPostgres:
        """A new cluster in a new temporary folder (removed by :meth:`stop`); ``durable``
        keeps fsync on (benchmarks), tests run without it (a killed bridge process loses
        nothing either way: the server's memory outlives it)."""
        initdb = _pg_bin("initdb")
        # Directly in the system's temporary folder: the postgres user must reach it.
        folder = Path(tempfile.mkdtemp(prefix="vtt-bridge-pg-"))
        data, sockets = folder / "data", folder / "sockets"
        sockets.mkdir(exist_ok=True)
        user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise ServiceMissing(
                    "PostgreSQL will not run as root and there is no postgres user"
                    " (apt-get install postgresql creates it)"
                ) from None
            for path in (folder, sockets):
                os.chown(path, user.pw_uid, user.pw_gid)
        uid, gid = (user.pw_uid, user.pw_gid) if user else (None, None)
        made = subprocess.run(
            [initdb, "-D", str(data), "-U", "bridge", "--auth=trust", "-E", "UTF8", "--no-sync"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
            user=uid,
            group=gid,
            extra_groups=[] if user else None,
        )
        if made.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"initdb failed: {made.stderr.decode(errors='replace')[-2000:]}")
        return cls._launch(folder, free_port(), durable, uid, gid)

    @classmethod
    def _launch(
        cls, folder: Path, port: int, durable: bool, uid: int | None, gid: int | None
    ) -> LocalPostgres:
        postgres = _pg_bin("postgres")
        settings = ["-p", str(port), "-h", "127.0.0.1", "-k", str(folder / "sockets")]
        settings += ["-c", "max_connections=200", "-c", "shared_buffers=64MB"]
        if not durable:
            settings += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        with (folder / "postgres.log").open("ab") as log:
            process = subprocess.Popen(
                [postgres, "-D", str(folder / "data"), *settings],
                stdout=subprocess.DEVNULL,
                stderr=log,
                user=uid,
                group=gid,
                extra_groups=[] if uid is not None else None,
            )
        server = cls(process, port, folder, durable, uid, gid)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(
                    f"postgres exited with {process.returncode}: "
                    + (folder / "postgres.log").read_text(errors="replace")[-2000:]
                )
            try:
                psycopg.connect(server.url, connect_timeout=2).close()
                return server
            except psycopg.OperationalError:
                time.sleep(0.1)
        server.stop()
        raise RuntimeError("postgres did not accept connections in 30 s")

    def halt(self) -> None:
        """Stop the server, keeping its files (see :meth:`resume`)."""
        _stop(self.process, signal.SIGINT)  # fast shutdown: roll back, close, exit

    def resume(self) -> LocalPostgres:
        """Start the halted cluster again, same files and port."""
        return LocalPostgres._launch(self.folder, self.port, self.durable, self.uid, self.gid)

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)

    def database(self, name: str) -> str:
        """A new empty database; its URL."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return f"postgresql://bridge@127.0.0.1:{self.port}/{name}"
