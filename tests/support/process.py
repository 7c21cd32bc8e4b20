"""Running the real ``vtt-bridge`` command in a child process (crash and shutdown tests)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any


def cli(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "bridge", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    url: str

    @classmethod
    def start(cls, data: Path) -> ServerProcess:
        process = subprocess.Popen(
            [sys.executable, "-m", "bridge", "serve", "--port", "0", "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        stdout: IO[str] | None = process.stdout
        assert stdout is not None
        line = stdout.readline()
        if not line:
            process.kill()
            raise RuntimeError("the server did not start")
        return cls(process, json.loads(line)["url"])

    def kill9(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def terminate(self) -> list[str]:
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=20)
        return [line for line in out.splitlines() if line]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()
