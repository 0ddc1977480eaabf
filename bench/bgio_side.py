"""boardgame.io's side of bench/versus_bgio.py: its server (bench/bgio/server.js, bgio-postgres)
and its load generator (bench/bgio/load.js), which plays the same matches on boardgame.io's
socket.io transport, each move timed to the mover's update."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import time
from pathlib import Path

from load import Level
from meters import PgMeter

from tests.support.servers import free_port

BGIO = Path(__file__).resolve().parent / "bgio"


class Bgio:
    """boardgame.io's server and its generator (bench/bgio/load.js), which keeps its matches
    from level to level as the service's side does."""

    name = "bgio"

    def __init__(self, server: subprocess.Popen[bytes], port: int, matches: int) -> None:
        self.server, self.port, self.matches = server, port, matches
        self.generator: asyncio.subprocess.Process | None = None

    async def _command(self, line: str, timeout: float) -> bytes:
        assert self.generator is not None
        assert self.generator.stdin is not None and self.generator.stdout is not None
        self.generator.stdin.write(line.encode() + b"\n")
        await self.generator.stdin.drain()
        return await asyncio.wait_for(self.generator.stdout.readline(), timeout)

    async def level(self, seconds: float, postmaster: int) -> Level:
        if self.generator is None:
            self.generator = await asyncio.create_subprocess_exec(
                *["node", "load.js", str(self.port), str(self.matches)],
                cwd=BGIO,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                limit=1 << 24,  # a level's latencies come as one line
            )
            assert self.generator.stdout is not None
            line = await asyncio.wait_for(self.generator.stdout.readline(), 120)
            assert line.strip() == b"ready", line
        level = Level(self.matches)
        meter, started = PgMeter([self.server.pid], postmaster), time.perf_counter()
        out = json.loads(await self._command(f"go {seconds}", seconds + 60))
        level.elapsed = time.perf_counter() - started
        level.cpu = {**meter.used(), "load generator": out["cpu_s"]}
        assert not out["errors"], out["errors"]
        level.latencies = [ms / 1000 for ms in out["latencies_ms"]]
        level.statuses[200] = len(level.latencies)
        level.matches_done = out["matches_finished"]
        return level

    def check(self, log_path: Path) -> None:
        """server.js logs any update sent without a write of its match before it."""
        text = log_path.read_text()
        assert "unguarded" not in text and "not sent" not in text, text[-2000:]

    async def close(self) -> None:
        if self.generator is not None and self.generator.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.generator.terminate()
            await self.generator.wait()
        self.server.terminate()
        self.server.wait(timeout=15)


async def start_bgio(url: str, workdir: Path, matches: int) -> Bgio:
    if not (BGIO / "node_modules").exists() or shutil.which("node") is None:
        raise SystemExit("needs node and `npm ci` in bench/bgio")
    port = free_port()
    log_path = workdir / "bgio.log"
    with log_path.open("ab") as log:
        argv = ["node", "server.js", str(port), url]
        server = subprocess.Popen(argv, cwd=BGIO, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while b"ready" not in log_path.read_bytes():
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(log_path.read_text())
        await asyncio.sleep(0.1)
    return Bgio(server, port, matches)
