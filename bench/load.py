"""Load: complete matches over HTTP against a real uvicorn server, and the raw PostgreSQL ceiling.

    python bench/load.py [--clients 8,32,128] [--seconds 15] [--raw-seconds 5] [--pairs N]
                         [--workers N] [--replicas N] [--profile]

Needs a PostgreSQL server (DOMINO_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/
postgres); it creates and drops its own databases (domino_ops_load, domino_ops_raw). Each client
is one player playing All Fives (target 50) against the `plain` computer, match after match: one
HTTP request per human move, whose transaction also carries the computer's replies. Each level
runs for a bounded time; latencies are measured at the client, per move request.

The raw ceiling does the same per-move transaction shape directly with asyncpg: lock a match row,
read and rewrite its JSON snapshot (a real mid-game snapshot), insert one event, commit. It runs
while the server idles. On a machine whose speed drifts from minute to minute, `--pairs N`
measures 32 clients and the raw ceiling at 32 N times, one after the other, and reports the
median ratio.

The client is a minimal keep-alive HTTP/1.1 client on asyncio streams, so the load generator
(which shares the machine's cores with the server and PostgreSQL) costs as little as possible.

Two ways to run several server processes: `--workers N` is `serve --workers N` (uvicorn's
processes share one listening socket, and whichever accepts a connection first keeps it, so
the clients may be split unevenly, e.g. 19 and 13); `--replicas N` starts N servers on ports of
their own, as docker-compose.yml runs its replicas, and deals the clients' connections out in
turn, as a round-robin balancer in front of them would.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from client import Http  # noqa: E402
from profiles import grouped, profile, summarize_profile  # noqa: E402

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    create_database,
    fresh_database,
    serve_argv,
)

SERVER = bench_server()
LOAD_DB, RAW_DB = "domino_ops_load", "domino_ops_raw"
RULESET, OPTIONS = "all-fives", {"target": 50}
# JSON logs at INFO, as in production; rate limits far above what the clients can reach.
SERVER_ENV = {
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "1000000",
    "DOMINO_JOIN_RATE_LIMIT": "1000000",
    "DOMINO_LOG_JSON": "true",
    "DOMINO_LOG_LEVEL": "INFO",
}


def move_body(view: dict[str, Any]) -> dict[str, Any]:
    action = {k: v for k, v in view["legal"][0].items() if k != "points"}
    if action["action"] != "play":
        action.pop("tile", None)
        action.pop("end", None)
    return {**action, "seq": view["seq"]}


# ---------------------------------------------------------------- the service under load


class CpuMeter:
    """CPU seconds spent by the server's processes and by PostgreSQL's during one level.

    Processes that start during the level count from zero; any that end during it are missed
    (the pools keep their connections, so these are few).
    """

    def __init__(self, server_pids: list[int]) -> None:
        self.server_pids = server_pids
        self.start = self._sample()

    def _processes(self) -> dict[str, list[psutil.Process]]:
        roots = [psutil.Process(pid) for pid in self.server_pids]
        children = [p for root in roots for p in root.children(recursive=True)]
        postgres = [p for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]
        # "server" is every process of the server; "server main" its API processes alone
        # (without the computers' workers), what a profile of them divides.
        return {"server": roots + children, "server main": roots, "postgres": postgres}

    def _sample(self) -> dict[tuple[str, int], float]:
        seconds: dict[tuple[str, int], float] = {}
        for group, processes in self._processes().items():
            for process in processes:
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    seconds[(group, process.pid)] = times.user + times.system
        return seconds

    def used(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        for (group, pid), now in self._sample().items():
            totals[group] += now - self.start.get((group, pid), 0.0)
        return dict(totals)


@dataclass
class Level:
    clients: int
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by group (CpuMeter)
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    matches_done: int = 0
    elapsed: float = 0.0
    actions: int = 0  # engine transitions, computer replies included (from the events)
    requests: int = 0  # every request answered while measured: moves, new matches, starts...

    @property
    def moves_per_s(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def cpu_line(self) -> str:
        """Cores busy and CPU ms per move request: the server, PostgreSQL, the load generator."""
        moves = max(len(self.latencies), 1)
        return "  ".join(
            f"{group} {seconds / self.elapsed:.2f} cores, {1000 * seconds / moves:.2f} ms/move"
            for group, seconds in sorted(self.cpu.items())
        )

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


async def play_matches(
    http: Http, token: str, level: Level, deadline: float, strategy: str = "plain"
) -> None:
    """Match after match against the computer `strategy` until `deadline`, each move timed."""
    while time.perf_counter() < deadline:
        seats = [{"type": "human"}, {"type": "bot", "strategy": strategy}]
        body = {"ruleset": RULESET, "options": OPTIONS, "seats": seats}
        status, created = await http.request("POST", "/v1/matches", body, token)
        assert status == 201, created
        mid = created["id"]
        status, view = await http.request("POST", f"/v1/matches/{mid}/start", {}, token)
        assert status == 200, view
        while time.perf_counter() < deadline:
            if view["status"] == "hand_over":
                status, view = await http.request("POST", f"/v1/matches/{mid}/hands", {}, token)
                assert status == 200, view
                continue
            if view["status"] != "playing":
                level.matches_done += 1
                break
            started = time.perf_counter()
            status, answer = await http.request(
                "POST", f"/v1/matches/{mid}/moves", move_body(view), token
            )
            level.statuses[status] += 1
            if status != 200:
                raise AssertionError(f"move answered {status}: {answer}")
            level.latencies.append(time.perf_counter() - started)
            level.actions += len({e["seq"] for e in answer["events"] if e["type"] == "turn"})
            view = answer["view"]


async def run_level(servers: list[ServerProcess], clients: int, seconds: float) -> Level:
    level = Level(clients)
    https = [Http(servers[n % len(servers)].port) for n in range(clients)]  # in turn
    tokens = []
    for index, http in enumerate(https):
        status, player = await http.request("POST", "/v1/players", {"name": f"load{index}"})
        assert status == 201, player
        tokens.append(player["token"])
    meter = CpuMeter([server.pid for server in servers])
    client_cpu = time.process_time()  # this process: the load generator's own share
    started, before = time.perf_counter(), sum(http.requests for http in https)
    deadline = started + seconds
    await asyncio.gather(
        *(play_matches(h, t, level, deadline) for h, t in zip(https, tokens, strict=True))
    )
    level.elapsed = time.perf_counter() - started
    level.requests = sum(http.requests for http in https) - before
    level.cpu = {**meter.used(), "load generator": time.process_time() - client_cpu}
    for http in https:
        await http.close()
    return level


# ---------------------------------------------------------------- the raw ceiling


async def sample_snapshot(url: str) -> Any:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT snapshot FROM matches WHERE status = 'playing' ORDER BY seq DESC LIMIT 1"
        )
        return json.loads(row["snapshot"]) if row else {"tiles": list(range(400))}
    finally:
        await conn.close()


# The snapshot column has the service's type (json since migration 0006), so the ceiling pays
# what the service's write pays for it.
RAW_SCHEMA = """
CREATE TABLE raw_matches (id text PRIMARY KEY, seq int NOT NULL, snapshot json NOT NULL);
CREATE TABLE raw_events (match_id text REFERENCES raw_matches(id), seq int, data jsonb,
                         PRIMARY KEY (match_id, seq));
"""


async def raw_ceiling(url: str, connections: int, seconds: float, snapshot: Any) -> float:
    pool = await asyncpg.create_pool(url, min_size=connections, max_size=connections)
    text = json.dumps(snapshot)
    async with pool.acquire() as conn:
        await conn.execute("TRUNCATE raw_events, raw_matches")
        await conn.executemany(
            "INSERT INTO raw_matches VALUES ($1, 0, $2::json)",
            [(f"m{i}", text) for i in range(connections)],
        )
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker(match_id: str) -> None:
        nonlocal done
        event = json.dumps({"type": "tile_played", "seat": 0, "tile": [3, 5], "end": "left"})
        async with pool.acquire() as conn:
            while time.perf_counter() < deadline:
                async with conn.transaction():
                    row = await conn.fetchrow(
                        "SELECT seq, snapshot FROM raw_matches WHERE id = $1 FOR UPDATE", match_id
                    )
                    seq = row["seq"] + 1
                    state = json.loads(row["snapshot"])
                    await conn.execute(
                        "UPDATE raw_matches SET seq = $2, snapshot = $3::json WHERE id = $1",
                        match_id,
                        seq,
                        json.dumps(state),
                    )
                    await conn.execute(
                        "INSERT INTO raw_events VALUES ($1, $2, $3::jsonb)", match_id, seq, event
                    )
                done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(f"m{i}") for i in range(connections)))
    elapsed = time.perf_counter() - started
    await pool.close()
    return done / elapsed


# ---------------------------------------------------------------- main


def print_level(level: Level) -> None:
    print(
        f"service {level.clients:4d} clients: {level.moves_per_s:7.1f} moves/s "
        f"p50 {level.pct(0.5):6.1f} ms  p99 {level.pct(0.99):6.1f} ms  "
        f"({len(level.latencies)} moves, {level.matches_done} matches finished, "
        f"statuses {dict(level.statuses)})",
        flush=True,
    )
    print(f"         {level.cpu_line()}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="8,32,128")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--raw-seconds", type=float, default=5.0)
    parser.add_argument("--profile", action="store_true", help="py-spy one level (--profile-at)")
    parser.add_argument("--profile-at", type=int, default=32, help="the level to profile")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played unmeasured")
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="measure 32 clients and the raw ceiling at 32 this many times, in turn (medians)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="uvicorn worker processes (`serve --workers`)"
    )
    parser.add_argument(
        "--replicas", type=int, default=1, help="servers on ports of their own, clients in turn"
    )
    args = parser.parse_args()
    levels = [int(c) for c in args.clients.split(",")]

    load_url = to_plain_url(await fresh_database(LOAD_DB, SERVER))
    workdir = Path(tempfile.mkdtemp(prefix="domino-load-"))
    servers = [
        ServerProcess(
            load_url,
            workdir / f"server-{n}.log",
            env=SERVER_ENV,
            argv=functools.partial(serve_argv, workers=args.workers),
            ready_path="/readyz",
        )
        for n in range(args.replicas)
    ]
    for server in servers:
        server.start()
    results: list[Level] = []
    pairs: list[tuple[Level, float]] = []  # (service at 32 clients, raw at 32) taken in turn
    profile_path = workdir / "profile.txt"
    try:
        for server in servers:
            await server.wait_ready_async()
        if args.warmup > 0:  # connections opened, caches filled: not measured
            await run_level(servers, 8, args.warmup)
        for clients in levels:
            spy = None
            if args.profile and clients == args.profile_at:
                spy = profile(servers[0].pid, int(args.seconds) - 2, profile_path)
            results.append(await run_level(servers, clients, args.seconds))
            if spy is not None:
                spy.wait(timeout=60)
            print_level(results[-1])
        # The raw ceiling runs while the server idles: the machine is shared by the same
        # processes, only the work differs.
        snapshot = await sample_snapshot(load_url)
        raw_url = await create_database(RAW_DB, SERVER)
        conn = await asyncpg.connect(raw_url)
        await conn.execute(RAW_SCHEMA)
        await conn.close()
        raw: dict[int, float] = {}
        for connections in (8, 32):
            raw[connections] = await raw_ceiling(raw_url, connections, args.raw_seconds, snapshot)
            print(f"raw     {connections:4d} connections: {raw[connections]:7.1f} transactions/s")
        print(f"snapshot size: {len(json.dumps(snapshot))} bytes")
        at32 = next((lv for lv in results if lv.clients == 32), None)
        if at32 is not None:
            pairs.append((at32, raw[32]))
        for _ in range(args.pairs - 1):
            level = await run_level(servers, 32, args.seconds)
            print_level(level)
            pairs.append((level, await raw_ceiling(raw_url, 32, args.raw_seconds, snapshot)))
            print(f"raw       32 connections: {pairs[-1][1]:7.1f} transactions/s")
    finally:
        for server in servers:
            server.stop(timeout=15)

    if pairs:
        ratios = [level.moves_per_s / ceiling for level, ceiling in pairs]
        ratio = statistics.median(ratios)
        p99 = statistics.median(level.pct(0.99) for level, _ in pairs)
        verdict = "meets" if ratio >= 0.4 and p99 <= 100 else "misses"
        each = ", ".join(f"{r:.2f}" for r in ratios)
        print(
            f"ratio service/raw at 32: {ratio:.2f} (goal >= 0.40), p99 {p99:.1f} ms "
            f"(goal <= 100): {verdict} the goal"
            + (
                f"\n  medians of {len(pairs)} pairs taken in turn; ratios {each}"
                if len(pairs) > 1
                else ""
            )
        )
    for level in results:
        if level.latencies:
            print(
                f"  {level.clients} clients: mean {1000 * statistics.fmean(level.latencies):.1f}"
                f" ms; engine transitions per move request ~"
                f"{level.actions / len(level.latencies):.2f}"
            )
    if args.profile and profile_path.exists():
        print(f"\nprofile of the server at {args.profile_at} clients (py-spy):")
        for name, share in grouped(profile_path).items():
            print(f"  {share:5.1f}%  {name}")
        print("\n".join(summarize_profile(profile_path)))
    print(f"server log and profile in {workdir}")


if __name__ == "__main__":
    asyncio.run(main())
