"""Issue 26 item 10 (and issue 23): with PostgreSQL out of connections, requests answered 500.
A pool that gives no connection in time, or PostgreSQL refusing one, is now 503 `service_busy`
with Retry-After, and nothing is written."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest_asyncio
from sqlalchemy import text

from domino_api.app.api import create_app
from domino_api.config import Settings
from domino_api.store.db import to_plain_url
from tests.security.conftest import Secured
from tests.support.urls import user_of, with_login


async def test_an_exhausted_pool_answers_503_service_busy(secured: Secured) -> None:
    async with secured(db_pool_size=1, db_max_overflow=0, db_pool_timeout_s=0.2) as http:
        engine = http.app.state.db_engine  # type: ignore[attr-defined]
        async with engine.connect() as held:  # the pool's only connection, held
            await held.execute(text("SELECT 1"))
            refused = await http.post("/v1/players", json={"name": "Ana"})
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.json()["code"] == "service_busy"
            assert int(refused.headers["retry-after"]) >= 1
            players = await held.execute(text("SELECT count(*) FROM players"))
            assert players.scalar() == 0
        # The connection back in the pool, the same request goes through.
        assert (await http.post("/v1/players", json={"name": "Ana"})).status_code == 201


@pytest_asyncio.fixture(loop_scope="session")
async def limited_role(clean_db: str) -> AsyncIterator[tuple[str, asyncpg.Connection]]:
    """A login role of this test's own on the test database (a superuser ignores connection
    limits), with the app's privileges; yields its URL and an admin connection. It has a
    password, so it logs in whether the server trusts its clients or asks them."""
    role = f"domino_busy_{os.getpid()}"
    password = secrets.token_hex(16)
    admin = await asyncpg.connect(to_plain_url(clean_db))
    await admin.execute(f'DROP ROLE IF EXISTS "{role}"')
    await admin.execute(f"CREATE ROLE \"{role}\" LOGIN PASSWORD '{password}'")
    await admin.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{role}"')
    await admin.execute(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    url = with_login(clean_db, role, password)
    try:
        yield url, admin
    finally:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", role
        )
        await admin.execute(f'REASSIGN OWNED BY "{role}" TO CURRENT_USER')
        await admin.execute(f'DROP OWNED BY "{role}"')
        await admin.execute(f'DROP ROLE "{role}"')
        await admin.close()


async def test_postgresql_refusing_connections_answers_503_service_busy(
    limited_role: tuple[str, asyncpg.Connection],
) -> None:
    url, admin = limited_role
    role = user_of(url)
    settings = Settings(database_url=url, log_json=False)
    app = create_app(settings, database_url=url, start_background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            # PostgreSQL takes no new connection for the role ("too many connections", 53300).
            await admin.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT 0')
            refused = await http.post("/v1/players", json={"name": "Ana"})
            assert refused.status_code == 503, refused.text
            assert refused.json()["code"] == "service_busy"
            assert "retry-after" in refused.headers
            await admin.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT -1')
            assert (await http.post("/v1/players", json={"name": "Ana"})).status_code == 201
