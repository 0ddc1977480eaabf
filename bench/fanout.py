"""Fan-out benchmark: sockets on one or more API processes watching live matches.

Starts `FANOUT_PROCESSES` (default 1) `uvicorn domino_api.app.asgi:app` processes on one database of
its own (`domino_ws_bench`, recreated), creates `FANOUT_MATCHES` matches (a host against a
computer seat), and opens per match the host's socket and `FANOUT_SPECTATORS` spectators', the
match's sockets spread over the processes in turn. Then, in rounds, every match gets one
table-talk message (POST .../messages, the ordinary write path: commit, announcement, each
watching process's hub reads the event table and fans out) through a process chosen at random.
Each receipt counts as same-process (the socket is on the process that committed) or
cross-process. Latency is the wall clock at receipt minus the event's `at`, which the server
stamps inside the transaction before the commit: an upper bound of commit -> receipt; beside it,
announcement -> receipt from the bench's own LISTEN (or NATS subscription to `domino.match.>`).
Each server's RSS is read from /proc after all sockets are open and at the end; the bench's own
CPU share during the writes shows whether the load generator limits the figures.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/fanout.py

`FANOUT_BACKENDS=nats,postgres` runs the same bench on each backend in turn (one result each),
`DOMINO_ANNOUNCE_BACKEND=nats` at `DOMINO_NATS_URL` (default 127.0.0.1:4222). Issue 27's
shape: `FANOUT_PROCESSES=4 FANOUT_MATCHES=200 FANOUT_SPECTATORS=9` (2,000 sockets).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import nats
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    fresh_database,
    uvicorn_argv,
)

DB_NAME = "domino_ws_bench"
MATCHES = int(os.environ.get("FANOUT_MATCHES", "100"))
SPECTATORS = int(os.environ.get("FANOUT_SPECTATORS", "9"))
ROUNDS = int(os.environ.get("FANOUT_ROUNDS", "20"))
# Writes per second across all matches: a live table moves every few seconds, so 100 tables
# make a few dozen writes a second; each is fanned out to the match's 10 sockets.
WRITE_RATE = float(os.environ.get("FANOUT_WRITE_RATE", "40"))
PROCESSES = int(os.environ.get("FANOUT_PROCESSES", "1"))
# FANOUT_BACKEND (one) is what the bench took before it could compare backends in one run.
_BACKENDS = os.environ.get("FANOUT_BACKENDS", os.environ.get("FANOUT_BACKEND", "postgres"))
BACKENDS = [b.strip() for b in _BACKENDS.split(",") if b.strip()]
NATS_URL = os.environ.get("DOMINO_NATS_URL", "nats://127.0.0.1:4222")
TIME_LIMIT_S = float(os.environ.get("FANOUT_TIME_LIMIT_S", "600"))


def uvicorn_no_pings(port: int) -> list[str]:
    return uvicorn_argv(port, "--ws-ping-interval", "0")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def new_player(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await http.post("/v1/players", json={"name": name})
    response.raise_for_status()
    body: dict[str, Any] = response.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


async def live_match(http: httpx.AsyncClient, number: int) -> tuple[str, dict[str, Any]]:
    host = await new_player(http, f"Host{number}")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "random"}]
    created = await http.post(
        "/v1/matches",
        json={"ruleset": "house-nines", "seats": seats, "options": {"spectators": True}},
        headers=host["headers"],
    )
    created.raise_for_status()
    match_id = created.json()["id"]
    started = await http.post(
        f"/v1/matches/{match_id}/start", json={"cut": "bench"}, headers=host["headers"]
    )
    started.raise_for_status()
    return match_id, host


class Receiver:
    """Receipts from the sockets, by whether the socket is on the process that committed."""

    def __init__(self) -> None:
        self.at_ms: dict[bool, list[float]] = {True: [], False: []}  # same process?
        self.announced_ms: list[float] = []
        self.received = 0
        self.committed: dict[tuple[str, int], float] = {}

    def on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        match_id, _, seq = payload.rpartition(":")
        self.committed.setdefault((match_id, int(seq)), time.perf_counter())

    async def on_message(self, message: Any) -> None:
        self.on_notify(None, 0, message.subject, message.data.decode())

    async def run(self, match_id: str, process: int, connection: ClientConnection) -> None:
        async for raw in connection:
            message = json.loads(raw)
            if message["type"] != "event" or message["event"]["type"] != "message":
                continue
            now = time.perf_counter()
            event = message["event"]
            at = datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
            writer = int(event["data"]["text"].rsplit(" ", 1)[1])
            self.at_ms[writer == process].append((time.time() - at.timestamp()) * 1000)
            announced = self.committed.get((match_id, event["seq"]))
            if announced is not None:  # else the socket beat the bench's own subscription
                self.announced_ms.append(max(0.0, now - announced) * 1000)
            self.received += 1

    def reset(self) -> None:
        self.at_ms = {True: [], False: []}
        self.announced_ms.clear()
        self.received = 0


async def open_socket(ws_base: str, match_id: str, token: str) -> ClientConnection:
    url = f"{ws_base}/v1/matches/{match_id}/ws"
    # No client pings: on a loaded machine a pong late by 20 s would close a socket mid-run.
    headers = {"Authorization": f"Bearer {token}"}
    return await connect(url, additional_headers=headers, ping_interval=None)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)]
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 1), "p99": round(p99, 1)}


async def open_all(
    servers: list[ServerProcess], matches: list[tuple[str, dict[str, Any]]], spectators: list[Any]
) -> tuple[list[ClientConnection], list[tuple[str, int, ClientConnection]]]:
    """Every match's sockets, spread over the processes in turn."""
    sockets, placed = [], []
    for number, (match_id, host) in enumerate(matches):
        tokens = [host["token"]] + [s["token"] for s in spectators]
        where = [(number + k) % len(servers) for k in range(len(tokens))]
        opened = await asyncio.gather(
            *(
                open_socket(servers[p].ws_url, match_id, t)
                for p, t in zip(where, tokens, strict=True)
            )
        )
        sockets.extend(opened)
        placed += [(match_id, p, s) for p, s in zip(where, opened, strict=True)]
    return sockets, placed


async def write_rounds(
    clients: list[httpx.AsyncClient], matches: list[tuple[str, dict[str, Any]]]
) -> float:
    """`ROUNDS` messages per match, each through a random process, paced at `WRITE_RATE`;
    returns the seconds it took. The pacing sets the rate only: every latency is per event."""
    writes = []
    started = time.monotonic()
    gap = 1.0 / WRITE_RATE
    for round_number in range(ROUNDS):
        for match_id, host in matches:
            via = random.randrange(len(clients))
            post = clients[via].post(
                f"/v1/matches/{match_id}/messages",
                json={"text": f"round {round_number} via {via}"},
                headers=host["headers"],
            )
            writes.append(asyncio.create_task(post))
            await asyncio.sleep(gap)
    answers = await asyncio.gather(*writes)
    assert all(a.status_code == 201 for a in answers), answers[0].text
    return time.monotonic() - started


async def bench(backend: str) -> dict[str, Any]:
    database = to_plain_url(await fresh_database(DB_NAME, bench_server()))
    env = {"DOMINO_ANNOUNCE_BACKEND": backend, "DOMINO_NATS_URL": NATS_URL}
    logs = Path(tempfile.mkdtemp(prefix="fanout-"))  # kept: a failed run's servers say why
    servers = [
        ServerProcess(database, logs / f"server-{n}.log", argv=uvicorn_no_pings, env=env)
        for n in range(PROCESSES)
    ]
    for server in servers:
        server.start()
    sockets: list[ClientConnection] = []
    clients = [httpx.AsyncClient(base_url=s.base_url, timeout=60) for s in servers]
    try:
        for server in servers:
            await server.wait_ready_async(timeout=60.0)
        http = clients[0]
        idle_rss = [rss_mb(s.pid) for s in servers]
        matches = [await live_match(http, n) for n in range(MATCHES)]
        spectators = [await new_player(http, f"Watcher{n}") for n in range(SPECTATORS)]
        receiver = Receiver()
        started = time.monotonic()
        sockets, placed = await open_all(servers, matches, spectators)
        readers = [asyncio.create_task(receiver.run(m, p, s)) for m, p, s in placed]
        connect_s = time.monotonic() - started
        listen = await asyncpg.connect(database)
        await listen.add_listener("domino_events", receiver.on_notify)
        nc = await nats.connect(NATS_URL) if backend == "nats" else None
        if nc is not None:
            await nc.subscribe("domino.match.>", cb=receiver.on_message)
        await asyncio.sleep(1.0)  # let the presence events of the opening settle
        open_rss = [rss_mb(s.pid) for s in servers]
        receiver.reset()
        cpu_before = [cpu_seconds(s.pid) for s in servers]
        own_before = time.process_time()
        write_s = await write_rounds(clients, matches)
        servers_cpu = [
            (cpu_seconds(s.pid) - before) / write_s
            for s, before in zip(servers, cpu_before, strict=True)
        ]
        own_cpu = (time.process_time() - own_before) / write_s
        expected = ROUNDS * MATCHES * (1 + SPECTATORS)
        deadline = time.monotonic() + 30
        while receiver.received < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        end_rss = [rss_mb(s.pid) for s in servers]
        failed = [t for t in readers if t.done() and t.exception() is not None]
        if failed:
            print(f"{len(failed)} sockets' readers failed: {failed[0].exception()!r}", flush=True)
        for task in readers:
            task.cancel()
        await listen.close()
        if nc is not None:
            await nc.close()
        return {
            "backend": backend,
            "processes": PROCESSES,
            "sockets": len(sockets),
            "matches": MATCHES,
            "connect_s": round(connect_s, 1),
            "receipts": receiver.received,
            "expected": expected,
            "write_rate_per_s": WRITE_RATE,
            "write_s": round(write_s, 1),
            "same_process_at_to_receipt_ms": percentiles(receiver.at_ms[True]),
            "cross_process_at_to_receipt_ms": percentiles(receiver.at_ms[False]),
            "announcement_to_receipt_ms": percentiles(receiver.announced_ms),
            "servers_cpu_share": [round(c, 2) for c in servers_cpu],
            "bench_cpu_share": round(own_cpu, 2),
            "rss_idle_mb": [round(r, 1) for r in idle_rss],
            "rss_open_mb": [round(r, 1) for r in open_rss],
            "rss_end_mb": [round(r, 1) for r in end_rss],
            "load_average": os.getloadavg()[0],
            "server_logs": str(logs),
        }
    finally:
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        for client in clients:
            await client.aclose()
        for server in servers:
            server.stop(signal.SIGTERM)


def main() -> None:
    for backend in BACKENDS:
        result = asyncio.run(asyncio.wait_for(bench(backend), TIME_LIMIT_S))
        print(json.dumps(result, indent=2), flush=True)


if __name__ == "__main__":
    main()
