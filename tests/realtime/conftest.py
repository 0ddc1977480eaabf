"""Real servers for the socket tests: uvicorn subprocesses on 127.0.0.1 over one database.

The database is this suite's own (`domino_test_ws`, with the xdist worker's id, recreated per
run), so other suites and workers never meet it. Presence and keepalive spans are shortened
through the environment so the tests can watch leases lapse without waiting half a minute.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from domino_api.store.db import to_plain_url
from tests.conftest import TEST_DB
from tests.support.servers import ServerProcess, fresh_database_sync, uvicorn_argv

WS_DB = os.environ.get("DOMINO_WS_DB", f"{TEST_DB}_ws")
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


@pytest.fixture(scope="session")
def ws_database() -> str:
    """This suite's database at the latest migration; its libpq URL."""
    return to_plain_url(fresh_database_sync(WS_DB))


@pytest.fixture(scope="session")
def servers(
    ws_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two server processes on one database: A and B."""
    logs = tmp_path_factory.mktemp("servers")
    started = [
        ServerProcess(ws_database, logs / f"server-{n}.log", env=SERVER_ENV, argv=uvicorn_argv)
        for n in "ab"
    ]
    try:
        for server in started:
            server.start()
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop(signal.SIGTERM)
