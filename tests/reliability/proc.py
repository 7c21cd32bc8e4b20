"""A real ``vtt-bridge serve`` child process with any flags, its stderr kept in a file
(the log tests read it), its RSS readable from /proc."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    log: Path

    @classmethod
    def start(cls, data: Path, *flags: str, log: Path | None = None) -> Server:
        log = log or data / "server.log"
        with log.open("a") as err:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bridge",
                    "serve",
                    "--port",
                    "0",
                    "--data",
                    str(data),
                    *flags,
                ],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        stdout: IO[str] | None = process.stdout
        assert stdout is not None
        line = stdout.readline()
        while line and not line.startswith('{"event": "listening"'):
            line = stdout.readline()
        if not line:
            process.kill()
            process.wait(10)
            raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")
        return cls(process, json.loads(line)["url"], log)

    @classmethod
    async def astart(cls, data: Path, *flags: str, log: Path | None = None) -> Server:
        return await asyncio.to_thread(cls.start, data, *flags, log=log)

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def kill9(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._close()

    def terminate(self, timeout: float = 30) -> list[str]:
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=timeout)
        return [line for line in out.splitlines() if line]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self._close()

    def _close(self) -> None:
        if self.process.stdout is not None and not self.process.stdout.closed:
            self.process.stdout.close()
