"""Sweeper benchmark: sweep N due matches (turn-clock forfeits) with one and with two sweepers.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/sweep.py --matches 10000

Builds its own database (`domino_jobs_bench`), one clocked match over the REST API, clones it
N times by SQL (each copy with its own two players), moves the injectable clock past the
deadline, and times `sweep_pass` (every match: claim, lock, forfeit, events, NOTIFY, records,
commit; one transaction per match).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domino_api.api import create_app  # noqa: E402
from domino_api.clock import FakeClock  # noqa: E402
from domino_api.config import Settings  # noqa: E402
from domino_api.jobs.sweeper import sweep_pass  # noqa: E402
from domino_api.store.db import make_engine, make_sessionmaker, to_asyncpg_url  # noqa: E402
from domino_api.store.migrate import upgrade_to_head  # noqa: E402
from tests.jobs.factory import BLITZ, clone_matches, count_due, parse, two_seat_match  # noqa: E402

DATABASE = "domino_jobs_bench"


def _server() -> str:
    url = os.environ.get("DOMINO_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def _fresh_database() -> str:
    server = _server()
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{DATABASE}"')
    finally:
        await conn.close()
    head = server.split("?")[0].rsplit("/", 1)[0]
    url = to_asyncpg_url(f"{head}/{DATABASE}")
    await asyncio.to_thread(upgrade_to_head, url)
    return url


async def _prepare(url: str, matches: int) -> tuple[FakeClock, Any]:
    clock = FakeClock()
    settings = Settings(database_url=url, log_json=False, create_player_rate_limit=10_000)
    app = create_app(settings, clock=clock, database_url=url, start_background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            _, _, v = await two_seat_match(client, options=BLITZ)
        maker = app.state.sessionmaker
        done = 1
        while done < matches:
            step = min(2_000, matches - done)
            await clone_matches(maker, v["id"], step, own_players=True)
            done += step
    clock.set(parse(v["turn"]["deadline"]) + timedelta(seconds=1))
    return clock, parse(v["turn"]["deadline"])


async def _run(url: str, clock: FakeClock, sweepers: int, concurrency: int) -> dict[str, Any]:
    settings = Settings(database_url=url, db_pool_size=concurrency + 2, db_max_overflow=0)
    engines = [make_engine(url, settings) for _ in range(sweepers)]
    makers = [make_sessionmaker(e) for e in engines]
    try:
        due = await count_due(makers[0], clock.now())
        started = time.perf_counter()
        reports = await asyncio.gather(
            *(sweep_pass(m, clock, concurrency=concurrency) for m in makers)
        )
        elapsed = time.perf_counter() - started
        left = await count_due(makers[0], clock.now())
    finally:
        for engine in engines:
            await engine.dispose()
    forfeits = sum(r.counts()["forfeits"] for r in reports)
    return {
        "sweepers": sweepers,
        "concurrency": concurrency,
        "due": due,
        "forfeits": forfeits,
        "errors": sum(r.counts()["errors"] for r in reports),
        "left_due": left,
        "seconds": round(elapsed, 2),
        "matches_per_s": round(forfeits / elapsed, 1),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=4, help="claimers per sweeper")
    parser.add_argument("--sweepers", default="1,2", help="comma-separated sweeper counts")
    args = parser.parse_args()
    results = []
    for sweepers in [int(n) for n in args.sweepers.split(",")]:
        url = await _fresh_database()
        clock, _ = await _prepare(url, args.matches)
        result = await _run(url, clock, sweepers, args.concurrency)
        results.append(result)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
