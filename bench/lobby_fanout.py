"""Lobby fan-out benchmark: a public table opened on process A reaches lobby sockets on B.

Starts a nats-server and two servers, A and B, as `domino-api serve` runs them, on one
database of its own (`domino_lobby_bench`, recreated), announcing over NATS; each round runs
the baseline (`DOMINO_WS_DEFLATE=true`: every socket compresses its own copy of each frame, as
before) and then the default (no deflate), `LOBBY_ROUNDS` rounds (default 1). Opens
`LOBBY_SOCKETS` (default 1,000) lobby sockets of one preset on B, all in this one asyncio loop,
then opens `LOBBY_TABLES` public tables on A, one every `LOBBY_GAP_S`. For each table and each
socket the time to arrival is the wall clock at which the socket's `table_opened` was read
minus the moment the server stamped the listing (`created_at`, before the commit that stores
the lobby event): an upper bound of commit -> arrival; beside it, the time from the request's
send. The bench's own CPU share over the run says whether the load generator limits the
figures (one process, one loop: near 100% of a core would mean it does).

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/lobby_fanout.py
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    fresh_database,
)
from tests.support.services import NatsNode  # noqa: E402

DB_NAME = "domino_lobby_bench"
SOCKETS = int(os.environ.get("LOBBY_SOCKETS", "1000"))
TABLES = int(os.environ.get("LOBBY_TABLES", "30"))
GAP_S = float(os.environ.get("LOBBY_GAP_S", "0.5"))
ROUNDS = int(os.environ.get("LOBBY_ROUNDS", "1"))
PRESET = "draw"
SERVER_ENV = {
    "DOMINO_ANNOUNCE_BACKEND": "nats",
    "DOMINO_SOCKETS_PER_TOKEN": str(SOCKETS + 10),
    "DOMINO_CONNECTIONS_PER_ADDRESS": "0",
    "DOMINO_CREATE_MATCH_RATE_LIMIT": "100000",
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "100000",
    "DOMINO_LOG_JSON": "false",
    "DOMINO_LOG_LEVEL": "WARNING",
    "DOMINO_KEEPALIVE_S": "3600",
}


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def player(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    r = await client.post("/v1/players", json={"name": name})
    r.raise_for_status()
    body: dict[str, Any] = r.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


class Watcher:
    """One lobby socket: when each table's `table_opened` was read."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.arrived: dict[str, float] = {}

    async def read(self) -> None:
        async for text in self.ws:
            frame = json.loads(text)
            if frame.get("type") == "table_opened":
                self.arrived[frame["table"]["id"]] = time.time()


async def open_watchers(server: ServerProcess, token: str) -> list[Watcher]:
    url = f"{server.ws_url}/v1/lobby/ws?preset={PRESET}"
    headers = {"Authorization": f"Bearer {token}"}

    async def one() -> Watcher:
        ws = await connect(url, additional_headers=headers, ping_interval=None)
        assert json.loads(await ws.recv())["type"] == "subscribed"
        return Watcher(ws)

    watchers: list[Watcher] = []
    for start in range(0, SOCKETS, 100):  # a hundred handshakes at a time
        batch = min(100, SOCKETS - start)
        watchers += await asyncio.gather(*(one() for _ in range(batch)))
    return watchers


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(a: ServerProcess, b: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as http:
        watcher = await player(http, "Watcher")
        hosts = [await player(http, f"Host {n}") for n in range(TABLES)]
        watchers = await open_watchers(b, watcher["token"])
        readers = [asyncio.create_task(w.read()) for w in watchers]
        cpu0, wall0 = cpu_s(), time.monotonic()
        opened: dict[str, tuple[float, float]] = {}  # table id -> (sent, stamped)
        body = {"ruleset": PRESET, "seats": [{"type": "human"}, {"type": "human"}]}
        for host in hosts:
            sent = time.time()
            r = await http.post("/v1/lobby/tables", json=body, headers=host["headers"])
            r.raise_for_status()
            table = r.json()["table"]
            stamped = datetime.fromisoformat(table["created_at"]).timestamp()
            opened[table["id"]] = (sent, stamped)
            await asyncio.sleep(GAP_S)
        await asyncio.sleep(2.0)  # the last table's news
        cpu, wall = cpu_s() - cpu0, time.monotonic() - wall0
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        await asyncio.gather(*(w.ws.close() for w in watchers), return_exceptions=True)
    from_stamp, from_send, missing, per_table = [], [], 0, []
    for table_id, (sent, stamped) in opened.items():
        table: list[float] = []
        for w in watchers:
            at = w.arrived.get(table_id)
            if at is None:
                missing += 1
                continue
            table.append((at - stamped) * 1000)
            from_send.append((at - sent) * 1000)
        from_stamp += table
        if table:  # the first and the last socket told of this table
            per_table.append((round(min(table), 1), round(max(table), 1)))
    return {
        "sockets": SOCKETS,
        "tables": TABLES,
        "arrivals": len(from_stamp),
        "missing": missing,
        "stamp_p50_ms": round(statistics.median(from_stamp), 1),
        "stamp_p99_ms": round(percentile(from_stamp, 99), 1),
        "stamp_max_ms": round(max(from_stamp), 1),
        "send_p50_ms": round(statistics.median(from_send), 1),
        "send_p99_ms": round(percentile(from_send, 99), 1),
        "bench_cpu_pct": round(100 * cpu / wall, 1),
        # Per table, the first socket told and the last: their medians over the tables.
        "first_p50_ms": round(statistics.median(first for first, _ in per_table), 1),
        "last_p50_ms": round(statistics.median(last for _, last in per_table), 1),
        "load_average": os.getloadavg()[0],
    }


async def one_round(logs: Path, nats_url: str, deflate: bool) -> dict[str, Any]:
    """Two fresh servers, as `domino-api serve` runs them, with or without socket deflate, on
    a fresh database (a round's waiting tables would hold the next one's game numbers)."""
    url = to_plain_url(await fresh_database(DB_NAME, bench_server()))
    env = {**SERVER_ENV, "DOMINO_NATS_URL": nats_url, "DOMINO_WS_DEFLATE": str(deflate).lower()}
    tag = "deflate" if deflate else "plain"
    servers = [ServerProcess(url, logs / f"{n}-{tag}.log", env=env) for n in "ab"]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
        return {"deflate": deflate, **await run(*servers)}
    finally:
        for server in servers:
            server.stop(signal.SIGTERM)


async def main() -> None:
    logs = Path(tempfile.mkdtemp(prefix="lobby-bench-"))
    nats_node = NatsNode("bench", logs)
    nats_node.start()
    nats_node.wait_ready_sync()
    results = []
    try:
        for _ in range(ROUNDS):  # the baseline (deflate, as before) and now, in turn
            for deflate in (True, False):
                results.append(await one_round(logs, nats_node.url, deflate))
                print(json.dumps(results[-1]), flush=True)
    finally:
        nats_node.kill()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    asyncio.run(main())
