"""The security suite (issue 16): each attack replayed against the real budgets.

`secured` builds the app in process with the settings a test names (the shared `app` fixture
runs with budgets no functional test reaches); `live_server` runs a real uvicorn process over a
database of this run's own, for what only a real server shows (forwarded headers, sockets).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from domino_api.app.api import create_app
from domino_api.clock import FakeClock
from domino_api.config import Settings
from tests.conftest import COMPUTERS
from tests.support.servers import (
    ServerProcess,
    drop_database,
    fresh_database,
    fresh_database_sync,
    running,
)

SECURITY_DB = os.environ.get("DOMINO_SECURITY_DB", f"domino_security_{os.getpid()}")

Secured = Callable[..., AbstractAsyncContextManager[httpx.AsyncClient]]


def unique_prefix() -> str:
    """A Redis key prefix no other test shares (the session's Redis serves them all)."""
    return f"domino-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def secured(clean_db: str, clock: FakeClock) -> Secured:
    @asynccontextmanager
    async def build(**overrides: Any) -> AsyncIterator[httpx.AsyncClient]:
        # Budgets count in windows aligned to the epoch, and the sliding counter forgets a
        # little of the last window at each boundary: a day's window keeps a boundary out of
        # a test that counts refusals exactly (a 60 s one fell inside a flood of guesses once).
        window = {"rate_window_s": 86_400.0}
        settings = Settings(database_url=clean_db, log_json=False, **{**window, **overrides})
        app = create_app(
            settings,
            clock=clock,
            database_url=clean_db,
            start_background=False,
            computers=COMPUTERS,
        )
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                http.app = app  # type: ignore[attr-defined]
                yield http

    return build


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def security_database() -> AsyncIterator[str]:
    url = await fresh_database(SECURITY_DB)
    yield url
    await drop_database(SECURITY_DB)


LiveServer = Callable[..., AbstractAsyncContextManager[ServerProcess]]


@pytest.fixture
def live_server(security_database: str, tmp_path: Path) -> LiveServer:
    """A real server with the given DOMINO_ settings (strings), started and ready."""

    @asynccontextmanager
    async def run(**env: str) -> AsyncIterator[ServerProcess]:
        log = tmp_path / f"server-{uuid.uuid4().hex[:6]}.log"
        # A day's window, as `secured` has: a window boundary inside a test lets the sliding
        # counter forget part of the last window and one more request through, and a busy
        # machine stretches a test across a minute's boundary.
        quiet = {"DOMINO_LOG_LEVEL": "WARNING", "DOMINO_RATE_WINDOW_S": "86400"}
        server = ServerProcess(security_database, log, env={**quiet, **env})
        async with running(server):
            yield server

    return run


@contextmanager
def module_server(
    tmp_path_factory: pytest.TempPathFactory, database: str, env: Mapping[str, str] | None = None
) -> Iterator[ServerProcess]:
    """A real server over a fresh database `database`, for a module's tests (synchronous)."""
    url = fresh_database_sync(database)
    log: Path = tmp_path_factory.mktemp(database) / "server.log"
    process = ServerProcess(url, log, env=env)
    process.start()
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


async def player(http: httpx.AsyncClient, name: str, **headers: str) -> dict[str, Any]:
    response = await http.post("/v1/players", json={"name": name}, headers=headers)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body
