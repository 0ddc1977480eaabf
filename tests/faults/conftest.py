"""The fault suite's servers: PostgreSQL servers of each test's own (tests/faults/postgres.py)
and API processes over them (tests/support/servers.py).

The suite: a PostgreSQL restart and stop (test_restart.py), failover to a standby
(test_failover.py), failover run by Patroni, the leader killed or frozen (test_patroni.py, its
cluster in patroni.py), connections beside a frozen server (test_connect.py), /readyz
(test_readiness.py), presence through an outage
(test_presence_outage.py); the SIGKILL of an API process under load is
tests/ops/test_crash.py, whose clients and audit these tests reuse. Each prints its recovery
figure and records it as a property (`--junitxml` keeps it); none is asserted on."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import pytest

from tests.faults.postgres import PgServer, ServerDir
from tests.support.servers import ServerProcess, running

# Small pools, so a process holds few connections and every one of them meets the fault.
API_ENV = {"DOMINO_DB_POOL_SIZE": "4", "DOMINO_DB_MAX_OVERFLOW": "2"}


@pytest.fixture
def pg_dir() -> Iterator[ServerDir]:
    """A directory for the test's PostgreSQL servers; every server in it is stopped after."""
    root = ServerDir()
    yield root
    for data in root.path.iterdir():
        if (data / "PG_VERSION").exists():
            server = PgServer(root, data.name)
            if server.pid() is not None:
                server.kill()
    root.remove()


@asynccontextmanager
async def api_processes(
    database_url: str, logs: Path, count: int, env: dict[str, str] | None = None
) -> AsyncIterator[list[ServerProcess]]:
    """`count` API processes over `database_url`, ready; stopped on the way out."""
    async with AsyncExitStack() as stack:
        processes = []
        for index in range(count):
            process = ServerProcess(
                database_url,
                logs / f"api{index}.log",
                env={**API_ENV, **(env or {})},
                ready_path="/readyz",
            )
            processes.append(await stack.enter_async_context(running(process)))
        yield processes
