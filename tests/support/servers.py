"""Real servers for tests and benchmarks: fresh databases and uvicorn subprocesses.

`fresh_database` drops and creates a database of its own on the test server, a copy of the
session's migrated template (`tests.conftest._server_url()`: DOMINO_DATABASE_URL, else the
embedded server; the benchmarks pass `bench_server()`); `ServerProcess` runs the app in a
subprocess on a free port."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import httpx

from domino_api.store.db import to_asyncpg_url, to_plain_url
from domino_api.store.migrate import upgrade_to_head
from tests.conftest import TEST_DB, _server_url
from tests.support.urls import with_database

ROOT = Path(__file__).resolve().parents[2]
LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"

# Every server runs with these unless its caller overrides them.
SERVER_ENV = {
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "100000",
    "DOMINO_JOIN_RATE_LIMIT": "100000",
    "DOMINO_CREATE_MATCH_RATE_LIMIT": "100000",
    "DOMINO_CHAT_RATE_LIMIT": "100000",
    "DOMINO_PROFILE_RATE_LIMIT": "100000",
    "DOMINO_TOURNAMENT_RATE_LIMIT": "100000",
    "DOMINO_OPEN_TABLES_PER_PLAYER": "100000",
    "DOMINO_NUMBERED_TABLES_PER_PLAYER": "100000",
    "DOMINO_NUMBERED_TABLES_PER_ADDRESS": "100000",
    "DOMINO_SOCKETS_PER_TOKEN": "100000",
    # Every client of a test or benchmark is on 127.0.0.1: no cap on connections per address.
    "DOMINO_CONNECTIONS_PER_ADDRESS": "0",
    "DOMINO_COMPUTER_THINK_S": "0",
    "DOMINO_LOG_LEVEL": "WARNING",
}

# What `domino-api serve --no-migrate` does (JSON logs, then uvicorn), without the CLI around it.
# How long a starting server may take: a bound for a broken one (each wait ends as soon as the
# process exits), not a measurement; several importing the app at once on a loaded two-core
# machine took over 20 s.
READY_BOUND_S = 120.0

SERVE = """
import sys
from domino_api.config import get_settings
from domino_api.logs import configure_logging
from domino_api.app.serving import serve
configure_logging(get_settings())
workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
serve(get_settings(), "domino_api.app.asgi:app", host="127.0.0.1", port=int(sys.argv[1]),
      workers=workers)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bench_server() -> str:
    """The benchmarks' server: DOMINO_DATABASE_URL, else PostgreSQL on localhost:5432."""
    return to_plain_url(os.environ.get("DOMINO_DATABASE_URL", LOCAL_SERVER))


async def drop_database(name: str, server: str | None = None) -> None:
    conn = await asyncpg.connect(server or to_plain_url(_server_url()))
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
        )
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    finally:
        await conn.close()


async def create_database(name: str, server: str | None = None) -> str:
    """Drop `name` if it exists and create it empty; return its libpq URL."""
    server = server or to_plain_url(_server_url())
    await drop_database(name, server)
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return with_database(server, name)


# The templates this process migrated, by server: made once per session (and xdist worker).
_migrated_templates: set[str] = set()


async def _migrated_template(server: str) -> str:
    """This session's template database on `server` at the latest migration (made afresh on
    first use, so migrations changed since the last session count)."""
    name = f"{TEST_DB}_template"
    if server not in _migrated_templates:
        url = to_asyncpg_url(await create_database(name, server))
        await asyncio.to_thread(upgrade_to_head, url)
        _migrated_templates.add(server)
    return name


async def fresh_database(name: str, server: str | None = None) -> str:
    """Create `name` (dropping an old one) at the latest migration; return its asyncpg URL.
    A copy of the session's migrated template: copying takes a fraction of migrating again."""
    server = server or to_plain_url(_server_url())
    template = await _migrated_template(server)
    await drop_database(name, server)
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return to_asyncpg_url(with_database(server, name))


def fresh_database_sync(name: str) -> str:
    """`fresh_database` for synchronous fixtures. In a thread of its own: asyncio.run() on the
    main thread would close the event loop pytest-asyncio keeps for the session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fresh_database(name)).result()


def serve_argv(port: int, workers: int = 1) -> list[str]:
    """The app's own logging (DOMINO_LOG_*), no websocket pings; `workers` uvicorn processes."""
    return [sys.executable, "-c", SERVE, str(port), str(workers)]


def uvicorn_argv(port: int, *extra: str) -> list[str]:
    """`python -m uvicorn domino_api.app.asgi:app` with uvicorn's logging at warning."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "domino_api.app.asgi:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        # As `domino-api serve` without DOMINO_TRUSTED_PROXIES: no forwarded header believed.
        "--no-proxy-headers",
        # Its WebSocket protocol: frames are written straight to it (realtime/outbox.py).
        "--ws",
        "domino_api.web.transport:GuardedWebSocket",
        *extra,
    ]


class ServerProcess:
    """The app in a subprocess on a free port; `start` again after `stop` or `kill` restarts it
    on the same port, appending to the same log."""

    def __init__(
        self,
        database_url: str,
        log_path: Path | None = None,
        *,
        env: Mapping[str, str] | None = None,
        argv: Callable[[int], list[str]] = serve_argv,
        ready_path: str = "/healthz",
    ) -> None:
        self.database_url = database_url
        self.log_path = log_path  # None: output discarded
        self.env = {**SERVER_ENV, **(env or {})}
        self.argv = argv
        self.ready_path = ready_path
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        env = {**os.environ, **self.env, "DOMINO_DATABASE_URL": self.database_url}
        if self.log_path is None:
            self.process = subprocess.Popen(
                self.argv(self.port),
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            return
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.argv(self.port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    def _ready(self, response: httpx.Response | None) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"server exited:\n{self.log_tail()}")
        return response is not None and response.status_code == 200

    def _not_ready(self, timeout: float) -> RuntimeError:
        return RuntimeError(f"server not ready in {timeout} s:\n{self.log_tail()}")

    def wait_ready(self, timeout: float = READY_BOUND_S) -> None:
        """Poll `ready_path` until it answers 200; raise if the process exits or time runs out."""
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.base_url, timeout=2.0) as http:
            while time.monotonic() < deadline:
                try:
                    response: httpx.Response | None = http.get(self.ready_path)
                except httpx.HTTPError:
                    response = None
                if self._ready(response):
                    return
                time.sleep(0.1)
        raise self._not_ready(timeout)

    async def wait_ready_async(self, timeout: float = READY_BOUND_S) -> None:
        """`wait_ready` without blocking the event loop."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base_url, timeout=2.0) as http:
            while time.monotonic() < deadline:
                try:
                    response: httpx.Response | None = await http.get(self.ready_path)
                except httpx.HTTPError:
                    response = None
                if self._ready(response):
                    return
                await asyncio.sleep(0.1)
        raise self._not_ready(timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, exactly like a crashed machine's process."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, sig: int = signal.SIGINT, timeout: float = 10.0) -> None:
        """Ask for a graceful shutdown (`sig`); SIGKILL after `timeout` seconds."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@asynccontextmanager
async def running(server: ServerProcess) -> AsyncIterator[ServerProcess]:
    """`server` started and ready; on the way out it stops (its log tail printed if the body
    failed)."""
    server.start()
    try:
        await server.wait_ready_async()
        yield server
    except BaseException:
        print(server.log_tail())
        raise
    finally:
        server.stop()


@asynccontextmanager
async def serving(name: str, log_path: Path) -> AsyncIterator[ServerProcess]:
    """A fresh database `name` on the test server and a server over it, ready (/readyz); on the
    way out the server stops and `name` is dropped."""
    server = ServerProcess(await fresh_database(name), log_path, ready_path="/readyz")
    try:
        async with running(server):
            yield server
    finally:
        await drop_database(name)
