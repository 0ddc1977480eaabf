"""The service through a real PgBouncer in transaction mode (docs/ARCHITECTURE.md,
"Connections").

The test starts Debian's `pgbouncer` on a free port with an ini file of its own (transaction
pooling, trust for its clients, the test server's own login to the server, over TCP or the
socket directory as the test server's URL says) and two API processes whose pools both go
through it, so their transactions take turns on the same few server connections: a prepared
statement kept by one client there (asyncpg's and SQLAlchemy's caches, asyncpg's statement
names) would meet the other's. The `postgres` announcement backend LISTENs on a direct
connection (DOMINO_LISTEN_DATABASE_URL), as it must beside a transaction pooler.

A match is played over REST through one process while sockets on the other receive every
event, in order, with nothing missing.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
import pytest_asyncio
from pydantic import ValidationError

from domino_api.config import Settings
from domino_api.store.db import to_plain_url
from tests.conftest import TEST_DB, _server_url
from tests.realtime.test_lost_announcement import stored_seqs
from tests.realtime.wsclient import OVER, Socket, rest_step, seat_sockets, start, two_seat_match
from tests.support.servers import (
    ServerProcess,
    drop_database,
    free_port,
    fresh_database,
    running,
)
from tests.support.urls import Address, address_of, password_of, user_of, with_login

PGBOUNCER = os.environ.get("DOMINO_PGBOUNCER") or shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
DATABASE = f"{TEST_DB}_bouncer"
# Server connections per database and user: fewer than one API process's pool (6), so the two
# processes' twelve client connections share them transaction by transaction.
SERVER_POOL = 3


def bouncer_ini(workdir: Path, port: int, server: str) -> str:
    target = address_of(server)
    return f"""
[databases]
* = host={target.host} port={target.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {workdir / "users.txt"}
pool_mode = transaction
default_pool_size = {SERVER_POOL}
max_client_conn = 200
logfile = {workdir / "pgbouncer.log"}
pidfile = {workdir / "pgbouncer.pid"}
"""


@pytest.fixture
def bouncer() -> Iterator[str]:
    """PgBouncer in transaction mode in front of the test server; yields its host:port."""
    # Not under pytest's tmp_path: its parents are private to root, and PgBouncer refuses to
    # run as root (it switches to `postgres`, who must reach its files).
    workdir = Path(tempfile.mkdtemp(prefix="domino-pgbouncer-"))
    port = free_port()
    server = _server_url()
    # PgBouncer logs in to the server with the password kept here (empty: trust).
    (workdir / "users.txt").write_text(f'"{user_of(server)}" "{password_of(server)}"\n')
    (workdir / "pgbouncer.ini").write_text(bouncer_ini(workdir, port, server))
    argv = [PGBOUNCER, str(workdir / "pgbouncer.ini")]
    if os.geteuid() == 0:
        owner = run_as(address_of(server))
        shutil.chown(workdir, owner)
        argv[1:1] = ["-u", owner]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def run_as(target: Address) -> str:
    """The user PgBouncer runs as under root: the owner of a socket directory (the embedded
    server's is private to it), else `postgres`."""
    if target.is_socket:
        return Path(target.host).owner()
    return "postgres"


@pytest_asyncio.fixture(loop_scope="session")
async def direct_url() -> AsyncIterator[str]:
    """A fresh database at the latest migration, migrated directly; its libpq URL."""
    url = to_plain_url(await fresh_database(DATABASE))
    try:
        yield url
    finally:
        await drop_database(DATABASE)


async def wait_listening(url: str, bound_s: float = 30.0) -> None:
    """Until PgBouncer takes a connection through to the server; each try short, all of them
    `bound_s` at most (a bound for a broken setup, not a measurement)."""
    deadline = time.monotonic() + bound_s
    while True:
        try:
            conn = await asyncpg.connect(url, statement_cache_size=0, timeout=2)
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            if time.monotonic() > deadline:
                raise AssertionError(f"PgBouncer did not answer at {url}: {error!r}") from error
            await asyncio.sleep(0.05)
            continue
        await conn.close()
        return


async def test_a_match_through_pgbouncer_in_transaction_mode(
    bouncer: str, direct_url: str, tmp_path: Path
) -> None:
    pooled = with_login(f"postgresql://{bouncer}/{DATABASE}", user_of(direct_url))
    await wait_listening(pooled)
    env = {
        "DOMINO_DB_TRANSACTION_POOLER": "true",
        "DOMINO_LISTEN_DATABASE_URL": direct_url,
        "DOMINO_ANNOUNCE_BACKEND": "postgres",
        "DOMINO_LOG_JSON": "false",
    }
    a = ServerProcess(pooled, tmp_path / "a.log", env=env, ready_path="/readyz")
    b = ServerProcess(pooled, tmp_path / "b.log", env=env, ready_path="/readyz")
    async with (
        running(a),
        running(b),
        httpx.AsyncClient(base_url=a.base_url, timeout=30) as http,
    ):
        ana, bob, view = await two_seat_match(http)
        match_id = view["id"]
        await start(http, ana, match_id)
        holders = {0: ana, 1: bob}
        sockets = await seat_sockets(b.ws_url, match_id, holders, after=0)
        # Read while the match is played: an unread socket stops reading its connection, and
        # its keepalive then times out on a slow machine.
        received: dict[int, list[int]] = {seat: [] for seat in sockets}
        readers = [
            asyncio.create_task(collect(socket, received[seat])) for seat, socket in sockets.items()
        ]
        try:
            while await rest_step(http, match_id, holders) not in OVER:
                pass
            stored = await stored_seqs(direct_url, match_id)
            for seats in received.values():
                await caught_up(seats, stored[-1], readers)
                assert seats == stored  # every event, in order, none twice
        finally:
            for reader in readers:
                reader.cancel()
            for socket in sockets.values():
                await socket.close()
        assert stored == list(range(1, len(stored) + 1)) and len(stored) > 10
        # Through the pooler the two processes' twelve client connections shared a few
        # server connections; the two LISTEN connections are PostgreSQL's own.
        assert await backends(direct_url) <= SERVER_POOL + 2


async def collect(socket: Socket, seqs: list[int]) -> None:
    """Every event's seq the socket receives, in order."""
    while True:
        message = await socket.recv(timeout=120)
        if message["type"] == "event":
            seqs.append(message["event"]["seq"])


async def caught_up(seqs: list[int], last: int, readers: list[asyncio.Task[None]]) -> None:
    for _ in range(1200):  # a minute at most
        if seqs and seqs[-1] >= last:
            return
        for reader in readers:
            if reader.done():
                reader.result()  # the reader's failure, as it was
        await asyncio.sleep(0.05)
    raise AssertionError(f"the socket reached seq {seqs[-1:]} of {last}")


async def backends(url: str) -> int:
    """Connections to the test database now, this one left out."""
    conn = await asyncpg.connect(url)
    try:
        count: int = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await conn.close()
    return count


def test_listening_through_a_transaction_pooler_is_refused() -> None:
    """A LISTEN through transaction pooling would lose announcements without a word."""
    with pytest.raises(ValidationError, match="DOMINO_LISTEN_DATABASE_URL"):
        Settings(db_transaction_pooler=True, announce_backend="postgres")
    Settings(db_transaction_pooler=True, announce_backend="nats")
    Settings(db_transaction_pooler=True, listen_database_url="postgresql://db:5432/domino")
