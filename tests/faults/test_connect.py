"""The connector (store/connect.py) beside a frozen server: a loopback socket that listens and
never answers, as a SIGSTOPped PostgreSQL does (its kernel completes the TCP handshake; no
byte ever comes back).

Held: on a multi-host URL with `target_session_attrs=read-write`, the frozen host listed first
does not keep the connector from the real server after it (asyncpg's own connect tries the
hosts in turn under one timeout, which the frozen host spends whole); a URL of frozen hosts
only fails as a lost connection (a 503 for a request, errors.database_state), not a bug, and
not after asyncpg's default minute; a statement that gets no answer fails alike."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text

from domino_api.config import Settings
from domino_api.errors import database_state
from domino_api.store.connect import Connector
from domino_api.store.db import Pool, make_engine, make_sessionmaker, to_asyncpg_url, transaction
from tests.support.servers import bench_server

SETTINGS = Settings(db_connect_timeout_s=1.0, db_command_timeout_s=1.0)


@pytest.fixture
def frozen() -> Iterator[str]:
    """`127.0.0.1:port` of a socket that accepts connections (the kernel's backlog) and never
    reads or writes."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def real_server() -> tuple[str, str]:
    """The suite's PostgreSQL: its `host:port` and the rest of its URL after the hosts."""
    url = bench_server()
    user_and_hosts, _, database = url.partition("://")[2].partition("/")
    return user_and_hosts.rpartition("@")[2], database.partition("?")[0]


async def test_a_frozen_first_host_does_not_keep_the_connector_from_the_primary(
    frozen: str, record_property: Any
) -> None:
    server, database = real_server()
    url = f"postgresql://postgres@{frozen},{server}/{database}?target_session_attrs=read-write"
    started = time.monotonic()
    connection = await Connector(SETTINGS).connect_url(url)
    try:
        assert await connection.fetchval("SHOW transaction_read_only") == "off"
        assert connection.get_settings() is not None
    finally:
        await connection.close()
    record_property("connected_s", round(time.monotonic() - started, 3))
    # asyncpg's own multi-host connect, for contrast: the frozen host takes the whole budget.
    with pytest.raises(TimeoutError):
        await asyncpg.connect(url, timeout=1.0)


async def test_frozen_hosts_only_are_a_lost_connection(frozen: str) -> None:
    for url in (
        f"postgresql://postgres@{frozen}/postgres",
        f"postgresql://postgres@{frozen},{frozen}/postgres?target_session_attrs=read-write",
    ):
        with pytest.raises(ConnectionError) as raised:
            await Connector(SETTINGS).connect_url(url)
        assert database_state(raised.value) == "unreachable"


async def test_a_statement_without_an_answer_is_a_lost_connection() -> None:
    """`pg_sleep` past `db_command_timeout_s` stands for a server that stopped answering: the
    pool's connection is dropped and the caller sees a lost connection."""
    engine = make_engine(to_asyncpg_url(bench_server()), SETTINGS)
    pool = Pool(engine)
    try:
        with pytest.raises(ConnectionError) as raised:
            async with pool.acquire() as connection:
                await connection.execute("SELECT pg_sleep(30)")
        assert database_state(raised.value) == "unreachable"
        assert await asyncio.wait_for(pool.execute("SELECT 1"), 10) == "SELECT 1"
        assert engine.pool.checkedout() == 0
    finally:
        await engine.dispose()


async def test_a_transaction_without_an_answer_is_a_lost_connection() -> None:
    """The same inside a unit of work (the ORM's session on asyncpg's transaction, whose end
    then finds its connection closed: asyncpg says so, over the lost connection)."""
    engine = make_engine(to_asyncpg_url(bench_server()), SETTINGS)
    maker = make_sessionmaker(engine)
    try:
        with pytest.raises((ConnectionError, asyncpg.InterfaceError)) as raised:
            async with transaction(maker) as session:
                await session.execute(text("SELECT pg_sleep(30)"))
        assert database_state(raised.value) == "unreachable"
        async with transaction(maker) as session:
            assert (await session.execute(text("SELECT 1"))).scalar() == 1
        assert engine.pool.checkedout() == 0
    finally:
        await engine.dispose()
