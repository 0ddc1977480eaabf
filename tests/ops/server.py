"""A real uvicorn server in a subprocess, on a free port, against a database of its own."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import httpx

from domino_api.store.db import to_asyncpg_url, to_plain_url
from domino_api.store.migrate import upgrade_to_head
from tests.conftest import _server_url

ROOT = Path(__file__).resolve().parents[2]
# DOMINO_DATABASE_URL when set, else the embedded server (as every other test does).
SERVER = to_plain_url(_server_url())

# What `domino-api serve --no-migrate` does (JSON logs, then uvicorn), without the CLI around it.
SERVE = """
import sys, uvicorn
from domino_api.config import get_settings
from domino_api.logs import configure_logging
configure_logging(get_settings())
uvicorn.run("domino_api.asgi:app", host="127.0.0.1", port=int(sys.argv[1]), log_config=None,
            ws_ping_interval=None)
"""


def with_database(url: str, name: str) -> str:
    base, _, query = url.partition("?")
    head, _, _ = base.rpartition("/")
    return f"{head}/{name}" + (f"?{query}" if query else "")


async def drop_database(name: str) -> None:
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
        )
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    finally:
        await conn.close()


async def fresh_database(name: str) -> str:
    """Create `name` (dropping an old one) at the latest migration; return its asyncpg URL."""
    assert name.startswith("domino_ops_"), name
    await drop_database(name)
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    url = to_asyncpg_url(with_database(SERVER, name))
    await asyncio.to_thread(upgrade_to_head, url)
    return url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    def __init__(self, database_url: str, log_path: Path, **settings: str) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.port = free_port()
        self.settings = settings
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {
            **os.environ,
            "DOMINO_DATABASE_URL": self.database_url,
            "DOMINO_CREATE_PLAYER_RATE_LIMIT": "100000",
            "DOMINO_JOIN_RATE_LIMIT": "100000",
            "DOMINO_LOG_LEVEL": "WARNING",
            **self.settings,
        }
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(self.port)], env=env, stdout=log, stderr=log, cwd=ROOT
        )

    async def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base_url, timeout=2.0) as http:
            while time.monotonic() < deadline:
                assert self.process is not None and self.process.poll() is None, self.log_tail()
                try:
                    if (await http.get("/readyz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise AssertionError(f"server not ready in {timeout} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, exactly like a crashed machine's process."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
