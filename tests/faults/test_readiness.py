"""/readyz tells a database that is away (every replica alike: keep them all) from a process
that is broken (drain it). The away case is held with a real stopped server in
tests/faults/test_restart.py; here the database is there but not the one configured, and
`errors.database_state` (the one place that tells a database away from a bug) is held on
each failure it knows."""

from __future__ import annotations

import asyncpg
import httpx
import pytest
from asyncpg.exceptions import TargetServerAttributeNotMatched

from domino_api.app.api import create_app
from domino_api.config import Settings
from domino_api.errors import database_state, unavailable
from tests.support.urls import with_database


async def test_readyz_answers_503_broken_when_the_round_trip_fails_otherwise(
    database_url: str,
) -> None:
    missing = with_database(database_url, "domino_no_such_database")
    settings = Settings(database_url=missing, log_json=False)
    app = create_app(settings, database_url=missing, start_background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 503, ready.text
            assert ready.json()["status"] == "broken"
            assert "domino_no_such_database" in ready.json()["detail"]


@pytest.mark.parametrize(
    ("failure", "state"),
    [
        (
            asyncpg.AdminShutdownError("terminating connection due to administrator command"),
            "unreachable",
        ),
        (asyncpg.CannotConnectNowError("the database system is starting up"), "busy"),
        (asyncpg.TooManyConnectionsError("too many clients"), "busy"),
        (asyncpg.ConnectionDoesNotExistError("connection was closed in the middle"), "unreachable"),
        (asyncpg.InterfaceError("connection is closed"), "unreachable"),
        (TargetServerAttributeNotMatched("None of the hosts match"), "unreachable"),
        (asyncpg.ReadOnlySQLTransactionError("read-only transaction"), "unreachable"),
        (ConnectionRefusedError(111, "Connection refused"), "unreachable"),
        (ConnectionResetError("Connection reset by peer"), "unreachable"),
        (
            asyncpg.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress"
            ),
            "unreachable",
        ),
        # Bugs stay 500s: a refused statement, asyncpg misused, anything else.
        (asyncpg.UniqueViolationError("duplicate key"), None),
        (asyncpg.InterfaceError("another operation is in progress"), None),
        (RuntimeError("boom"), None),
    ],
)
def test_a_database_away_is_told_from_a_bug(failure: BaseException, state: str | None) -> None:
    try:
        try:
            raise failure
        except BaseException as inner:
            raise RuntimeError("a unit of work failed") from inner  # found through the chain
    except RuntimeError as outer:
        assert database_state(outer) == state
        busy = unavailable(outer)
        assert (busy is not None and busy.status == 503 and busy.code == "service_busy") == (
            state is not None
        )
