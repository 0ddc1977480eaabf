"""Real servers for the socket tests: uvicorn subprocesses on 127.0.0.1 over one database.

The database is this suite's own (`domino_ws_live`, recreated per run), so parallel runs of
other suites never meet it. Presence and keepalive spans are shortened through the
environment so the tests can watch leases lapse without waiting half a minute.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from domino_api.store.db import to_asyncpg_url, to_plain_url
from domino_api.store.migrate import upgrade_to_head
from tests.conftest import _server_url, _with_database

WS_DB = os.environ.get("DOMINO_WS_DB", "domino_ws_live")
ROOT = Path(__file__).resolve().parents[2]
SERVER_ENV = {
    "DOMINO_PRESENCE_LEASE_S": "3",
    "DOMINO_PRESENCE_REFRESH_S": "1",
    "DOMINO_KEEPALIVE_S": "2",
    "DOMINO_WS_AUTH_TIMEOUT_S": "1",
    "DOMINO_LOG_JSON": "false",
    "DOMINO_LOG_LEVEL": "WARNING",
    "DOMINO_JOIN_RATE_LIMIT": "10000",
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "10000",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def recreate_database(name: str) -> str:
    """Drop and create database `name` on the test server; returns its libpq URL."""
    server = _server_url()

    async def recreate() -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
            )
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(recreate())
    url = _with_database(server, name)
    upgrade_to_head(to_asyncpg_url(url))
    return to_plain_url(url)


class Server:
    """One `python -m uvicorn domino_api.asgi:app` process."""

    def __init__(self, database_url: str, log_path: Path, extra_env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        env = {**os.environ, **SERVER_ENV, **extra_env, "DOMINO_DATABASE_URL": database_url}
        self.log = log_path.open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "domino_api.asgi:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited; see {self.log.name}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start; see {self.log.name}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="session")
def ws_database() -> str:
    # In a thread: migrations run their own event loop, which must not replace the session's.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(recreate_database, WS_DB).result()


@pytest.fixture(scope="session")
def servers(ws_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two server processes on one database: A and B."""
    logs = tmp_path_factory.mktemp("servers")
    started = [Server(ws_database, logs / f"server-{n}.log", {}) for n in "ab"]
    try:
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop()
