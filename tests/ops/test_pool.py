"""One pool per process (store/db.py, `Pool`): nothing holds a connection of it while waiting
for another, so a pool of one serves every step, and a connection is lent again only fit for
the next caller (docs/ARCHITECTURE.md, "Connections")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import event, text

from domino_api.app.api import create_app
from domino_api.config import Settings
from domino_api.store.db import Pool, make_engine, make_sessionmaker, raw_connection, transaction
from tests.conftest import GENEROUS_LIMITS

ONE = {"db_pool_size": 1, "db_max_overflow": 0}


@pytest_asyncio.fixture(loop_scope="session")
async def one_connection(clean_db: str, clock: object) -> AsyncIterator[httpx.AsyncClient]:
    """The app with a pool of one connection."""
    settings = Settings(database_url=clean_db, log_json=False, **ONE, **GENEROUS_LIMITS)
    app = create_app(settings, clock=clock, database_url=clean_db, start_background=False)  # type: ignore[arg-type]
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def test_a_pool_of_one_connection_serves_every_kind_of_step(
    one_connection: httpx.AsyncClient,
) -> None:
    """A move with an idempotency key (read, computers' replies, a transaction with a session)
    and a resignation (the match's end with its records): a unit that held a connection while
    asking for a second would wait for ever on a pool of one."""
    http = one_connection
    player = (await http.post("/v1/players", json={"name": "Ana"})).json()
    headers = {"Authorization": f"Bearer {player['token']}"}
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    body = {"ruleset": "draw-50", "seats": seats}
    match = (await http.post("/v1/matches", json=body, headers=headers)).json()
    view = (await http.post(f"/v1/matches/{match['id']}/start", json={}, headers=headers)).json()
    legal = {k: v for k, v in view["legal"][0].items() if k != "points"}
    keyed = {**headers, "Idempotency-Key": "first-move"}
    moved = await http.post(
        f"/v1/matches/{match['id']}/moves", json={**legal, "seq": view["seq"]}, headers=keyed
    )
    assert moved.status_code == 200, moved.text
    resigned = await http.post(f"/v1/matches/{match['id']}/resign", json={}, headers=headers)
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["status"] == "finished"


async def test_a_connection_cancelled_mid_statement_is_not_lent_again(clean_db: str) -> None:
    pool = Pool(make_engine(clean_db, Settings(database_url=clean_db, **ONE)))
    try:
        started = asyncio.Event()

        async def sleeper() -> None:
            async with pool.acquire() as connection:
                started.set()
                await connection.execute("SELECT pg_sleep(30)")

        task = asyncio.create_task(sleeper())
        await started.wait()
        await asyncio.sleep(0)  # the statement is on its way
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with pool.acquire() as connection:
            assert await connection.fetchval("SELECT 1") == 1
    finally:
        await pool.engine.dispose()


async def test_a_transaction_left_open_is_not_lent_again(clean_db: str) -> None:
    pool = Pool(make_engine(clean_db, Settings(database_url=clean_db, **ONE)))
    try:
        async with pool.acquire() as connection:
            await connection.execute("BEGIN")
            await connection.execute("CREATE TEMP TABLE left_open (n int)")
        async with pool.acquire() as connection:
            assert not connection.is_in_transaction()
            assert await connection.fetchval("SELECT to_regclass('pg_temp.left_open')") is None
    finally:
        await pool.engine.dispose()


async def test_a_unit_of_work_is_one_asyncpg_transaction_with_the_session_inside(
    clean_db: str,
) -> None:
    """`transaction` begins before the session's first statement (no statement is sent to make
    SQLAlchemy begin), the session's statements and the driver's share it, and an error rolls
    back both."""
    engine = make_engine(clean_db, Settings(database_url=clean_db, **ONE))
    maker = make_sessionmaker(engine)
    try:
        sent: list[str] = []
        async with Pool(engine).acquire() as driver:  # a pool of one: the unit's connection
            driver.add_query_logger(lambda record: sent.append(record.query))
        orm: list[str] = []
        event.listen(engine.sync_engine, "before_cursor_execute", lambda *a: orm.append(a[2]))
        async with transaction(maker) as session:
            assert (await raw_connection(session)) is driver
            await driver.execute("CREATE TEMP TABLE unit_probe (n int)")
            await session.execute(text("INSERT INTO unit_probe VALUES (1)"))
            assert await driver.fetchval("SELECT count(*) FROM unit_probe") == 1
        # (SQLAlchemy's statements are prepared ones, which asyncpg's query logger does not see.)
        assert sent == [
            "BEGIN;",
            "CREATE TEMP TABLE unit_probe (n int)",
            "SELECT count(*) FROM unit_probe",
            "COMMIT;",
        ]
        assert orm == ["INSERT INTO unit_probe VALUES (1)"]

        with pytest.raises(RuntimeError):
            async with transaction(maker) as session:
                await session.execute(text("INSERT INTO unit_probe VALUES (2)"))
                await (await raw_connection(session)).execute("INSERT INTO unit_probe VALUES (3)")
                raise RuntimeError("the unit fails")
        async with transaction(maker) as session:
            # A pool of one: the same server connection, so the temp table is still there.
            assert (await session.execute(text("SELECT sum(n) FROM unit_probe"))).scalar() == 1
    finally:
        await engine.dispose()
