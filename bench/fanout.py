"""Fan-out benchmark: 1,000 sockets on one server process watching 100 live matches.

Starts one `uvicorn domino_api.asgi:app` on its own database (`domino_ws_bench`, recreated),
creates 100 matches (a host against a computer seat), and opens 10 sockets per match: the host
and 9 spectators. Then, in rounds, every match gets one table-talk message (POST .../messages,
the ordinary write path: commit, NOTIFY, the hub reads the event table and fans out). The
latency of a receipt is the wall clock at receipt minus the event's `at`, which the server
stamps inside the transaction before commit: an upper bound of commit -> receipt. Server RSS is
read from /proc after all sockets are open and at the end.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/fanout.py

`FANOUT_BACKEND=nats` serves with `DOMINO_ANNOUNCE_BACKEND=nats` (NATS at `DOMINO_NATS_URL`,
default 127.0.0.1:4222); the commit moments then come from the bench's own subscription to
`domino.match.>` instead of its LISTEN.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import sys
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
BACKEND = os.environ.get("FANOUT_BACKEND", "postgres")
NATS_URL = os.environ.get("DOMINO_NATS_URL", "nats://127.0.0.1:4222")
TIME_LIMIT_S = 240.0


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
        "/v1/matches", json={"ruleset": "house-nines", "seats": seats}, headers=host["headers"]
    )
    created.raise_for_status()
    match_id = created.json()["id"]
    started = await http.post(
        f"/v1/matches/{match_id}/start", json={"cut": "bench"}, headers=host["headers"]
    )
    started.raise_for_status()
    return match_id, host


class Receiver:
    """Commit moments come from the bench's own LISTEN on the server's channel (PostgreSQL
    delivers a NOTIFY at commit); receipts from the sockets; both on this process's clock."""

    def __init__(self) -> None:
        self.latencies_ms: list[float] = []
        self.at_latencies_ms: list[float] = []
        self.received = 0
        self.committed: dict[tuple[str, int], float] = {}
        self.pending: dict[tuple[str, int], list[float]] = {}

    def on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        match_id, _, seq = payload.rpartition(":")
        key = (match_id, int(seq))
        now = time.perf_counter()
        self.committed[key] = now
        for receipt in self.pending.pop(key, []):
            self.latencies_ms.append(max(0.0, receipt - now) * 1000)

    async def on_message(self, message: Any) -> None:
        self.on_notify(None, 0, message.subject, message.data.decode())

    async def run(self, match_id: str, connection: ClientConnection) -> None:
        async for raw in connection:
            message = json.loads(raw)
            if message["type"] == "event" and message["event"]["type"] == "message":
                now = time.perf_counter()
                at = datetime.fromisoformat(message["event"]["at"].replace("Z", "+00:00"))
                self.at_latencies_ms.append((time.time() - at.timestamp()) * 1000)
                key = (match_id, message["event"]["seq"])
                if key in self.committed:
                    self.latencies_ms.append((now - self.committed[key]) * 1000)
                else:  # the socket beat our own NOTIFY: latency ~0
                    self.pending.setdefault(key, []).append(now)
                self.received += 1


async def open_socket(ws_base: str, match_id: str, token: str) -> ClientConnection:
    url = f"{ws_base}/v1/matches/{match_id}/ws"
    return await connect(url, additional_headers={"Authorization": f"Bearer {token}"})


async def bench() -> dict[str, Any]:
    database = to_plain_url(await fresh_database(DB_NAME, bench_server()))
    env = {"DOMINO_ANNOUNCE_BACKEND": BACKEND, "DOMINO_NATS_URL": NATS_URL}
    server = ServerProcess(database, argv=uvicorn_no_pings, env=env)
    server.start()
    ws_base = server.ws_url
    sockets: list[ClientConnection] = []
    try:
        await server.wait_ready_async(timeout=20.0)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
            idle_rss = rss_mb(server.pid)
            matches = [await live_match(http, n) for n in range(MATCHES)]
            spectators = [await new_player(http, f"Watcher{n}") for n in range(SPECTATORS)]
            receiver = Receiver()
            started = time.monotonic()
            readers = []
            for match_id, host in matches:
                tokens = [host["token"]] + [s["token"] for s in spectators]
                opened = await asyncio.gather(*(open_socket(ws_base, match_id, t) for t in tokens))
                sockets.extend(opened)
                readers += [asyncio.create_task(receiver.run(match_id, s)) for s in opened]
            connect_s = time.monotonic() - started
            listen = await asyncpg.connect(database)
            await listen.add_listener("domino_events", receiver.on_notify)
            nc = await nats.connect(NATS_URL) if BACKEND == "nats" else None
            if nc is not None:
                await nc.subscribe("domino.match.>", cb=receiver.on_message)
            await asyncio.sleep(1.0)
            open_rss = rss_mb(server.pid)
            receiver.latencies_ms.clear()
            receiver.at_latencies_ms.clear()
            receiver.received = 0
            writes = []
            cpu_before = cpu_seconds(server.pid)
            write_started = time.monotonic()
            gap = 1.0 / WRITE_RATE
            for round_number in range(ROUNDS):
                for match_id, host in matches:
                    writes.append(
                        asyncio.create_task(
                            http.post(
                                f"/v1/matches/{match_id}/messages",
                                json={"text": f"round {round_number}"},
                                headers=host["headers"],
                            )
                        )
                    )
                    await asyncio.sleep(gap)
            answers = await asyncio.gather(*writes)
            assert all(a.status_code == 201 for a in answers), answers[0].text
            write_s = time.monotonic() - write_started
            server_cpu = (cpu_seconds(server.pid) - cpu_before) / write_s
            await asyncio.sleep(2.0)
            end_rss = rss_mb(server.pid)
            for task in readers:
                task.cancel()
            expected = ROUNDS * MATCHES * (1 + SPECTATORS)
            await listen.close()
            if nc is not None:
                await nc.close()
            ordered = sorted(receiver.latencies_ms)
            stamped = sorted(receiver.at_latencies_ms)
            return {
                "backend": BACKEND,
                "sockets": len(sockets),
                "matches": MATCHES,
                "connect_s": round(connect_s, 1),
                "receipts": receiver.received,
                "expected": expected,
                "write_rate_per_s": WRITE_RATE,
                "server_cpu_share": round(server_cpu, 2),
                "p50_ms": round(statistics.median(ordered), 1),
                "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1], 1),
                "max_ms": round(ordered[-1], 1),
                "at_to_receipt_p50_ms": round(statistics.median(stamped), 1),
                "at_to_receipt_p99_ms": round(stamped[int(len(stamped) * 0.99) - 1], 1),
                "rss_idle_mb": round(idle_rss, 1),
                "rss_open_mb": round(open_rss, 1),
                "rss_end_mb": round(end_rss, 1),
            }
    finally:
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        server.stop(signal.SIGTERM)


def main() -> None:
    result = asyncio.run(asyncio.wait_for(bench(), TIME_LIMIT_S))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
