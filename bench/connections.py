"""Connections to PostgreSQL while API processes are under load: the budget, measured.

    python bench/connections.py [--replicas 8] [--clients 64] [--seconds 20] [--backend postgres]
                                [--through HOST:PORT]

Starts `--replicas` servers on ports of their own over a fresh database (domino_ops_conns_<pid>,
dropped at the end), plays `bench/load.py`'s load against them (clients dealt out in turn, one
human against the `plain` computer, match after match) and samples every 0.2 s how many
connections the database has (`pg_stat_activity`, this script's own left out) and how many each
server process holds (its TCP connections to the port it connects to). Prints the largest of
each; the budget they are held to is docs/ARCHITECTURE.md, "Connections". `--through` names a
PgBouncer in transaction mode in front of the same server: the servers connect through it
(DOMINO_DB_TRANSACTION_POOLER), the database is made and sampled directly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import SERVER_ENV, print_level, run_level

from domino_api.store.db import to_plain_url
from tests.support.servers import (
    ServerProcess,
    bench_server,
    drop_database,
    fresh_database,
    uvicorn_argv,
)

DATABASE = f"domino_ops_conns_{os.getpid()}"


class Sampler:
    """The largest connection counts seen: the database's, and each server process's."""

    def __init__(self, url: str, servers: list[ServerProcess], served: str) -> None:
        self.url = url
        self.servers = servers
        self.port = urlsplit(served).port or 5432  # PostgreSQL's, or PgBouncer's
        self.database = 0
        self.per_process: dict[int, int] = {}

    async def run(self, stop: asyncio.Event) -> None:
        conn = await asyncpg.connect(self.url, statement_cache_size=0)  # PgBouncer may be the URL
        try:
            while not stop.is_set():
                count = await conn.fetchval(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                self.database = max(self.database, count)
                for server in self.servers:
                    held = self._held(server.pid)
                    self.per_process[server.pid] = max(self.per_process.get(server.pid, 0), held)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.2)
        finally:
            await conn.close()

    def _held(self, pid: int) -> int:
        root = psutil.Process(pid)
        held = 0
        for process in (root, *root.children(recursive=True)):
            with contextlib.suppress(psutil.Error):
                held += sum(
                    1
                    for c in process.net_connections(kind="tcp")
                    if c.raddr and c.raddr.port == self.port and c.status == "ESTABLISHED"
                )
        return held


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=8)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--backend", choices=("postgres", "nats"), default="postgres")
    parser.add_argument("--through", help="HOST:PORT of a PgBouncer in front of the server")
    args = parser.parse_args()

    url = to_plain_url(await fresh_database(DATABASE, bench_server()))
    workdir = Path(tempfile.mkdtemp(prefix="domino-conns-"))
    env = {**SERVER_ENV, "DOMINO_ANNOUNCE_BACKEND": args.backend}
    served = url
    if args.through:
        served = urlsplit(url)._replace(netloc=f"{urlsplit(url).username}@{args.through}").geturl()
        env |= {"DOMINO_DB_TRANSACTION_POOLER": "true", "DOMINO_LISTEN_DATABASE_URL": url}
    servers = [
        ServerProcess(
            served,
            workdir / f"server-{n}.log",
            env=env,
            # The clients' players are made one by one before the load starts: keep their
            # connections open meanwhile (uvicorn closes idle ones after 5 s by default).
            argv=lambda port: uvicorn_argv(port, "--timeout-keep-alive", "120"),
            ready_path="/readyz",
        )
        for n in range(args.replicas)
    ]
    for server in servers:
        server.start()
    sampler = Sampler(url, servers, served)
    stop = asyncio.Event()
    try:
        for server in servers:
            await server.wait_ready_async(timeout=120)
        sampling = asyncio.create_task(sampler.run(stop))
        level = await run_level(servers, args.clients, args.seconds)
        stop.set()
        await sampling
        print_level(level)
    finally:
        for server in servers:
            server.stop(timeout=15)
        await drop_database(DATABASE, bench_server())
    held = sorted(sampler.per_process.values())
    print(
        f"{args.replicas} processes, {args.clients} clients, backend {args.backend}: "
        f"at most {sampler.database} connections to the database; per process at most "
        f"{max(held)} (each: {held}); logs in {workdir}"
    )


if __name__ == "__main__":
    asyncio.run(main())
