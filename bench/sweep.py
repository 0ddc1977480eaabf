"""Sweeper benchmark: sweep N due matches (turn-clock forfeits) with one and with two sweepers.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/sweep.py --matches 10000

Builds its own database (`domino_jobs_bench`), one clocked match over the REST API, clones it
N times by SQL (each copy with its own two players), moves the injectable clock past the
deadline, and times `sweep_pass`: due matches are claimed in batches (`--batch`, locked with
SKIP LOCKED), each forfeited on the table in memory by the same steps a request runs, every
batch saved (rows, seats, events, records) and committed in one transaction, and each step
announced after the commit (matches/unit.py, jobs/sweeper.py). Each sweeper has the in-process
sweep loop's default settings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import sys
import time
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domino_api.app.api import create_app
from domino_api.app.wiring import write_core
from domino_api.clock import FakeClock
from domino_api.config import Settings
from domino_api.jobs.liveness import outages_of
from domino_api.jobs.sweeper import BATCH, sweep_pass
from domino_api.store.db import make_engine, make_sessionmaker
from tests.jobs.factory import BLITZ, clone_matches, count_due, parse, two_seat_match
from tests.support.servers import bench_server, fresh_database

DATABASE = "domino_jobs_bench"


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


def _sweeper_process(
    url: str, moment: str, concurrency: int, batch: int, go: Any, out: Any
) -> None:
    """One sweeper = one OS process with its own pool, started together with the others."""

    async def sweep() -> dict[str, Any]:
        settings = Settings(database_url=url, db_pool_size=concurrency + 2, db_max_overflow=0)
        clock = FakeClock(datetime.fromisoformat(moment))
        async with write_core(url, settings, clock, outages_of) as (core, _):
            async with core.pool.acquire() as connection:  # warm a connection before the start
                await connection.execute("SELECT 1")
            go.wait()
            report = await sweep_pass(core, concurrency=concurrency, batch=batch)
        return report.counts()

    out.put(asyncio.run(sweep()))


def _run(url: str, clock: FakeClock, sweepers: int, concurrency: int, batch: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    go, out = context.Event(), context.Queue()
    args = (url, clock.now().isoformat(), concurrency, batch, go, out)
    children = [context.Process(target=_sweeper_process, args=args) for _ in range(sweepers)]
    for child in children:
        child.start()
    time.sleep(3)  # imports and first connections, outside the measurement
    started = time.perf_counter()
    go.set()
    counts = [out.get() for _ in children]
    elapsed = time.perf_counter() - started
    for child in children:
        child.join()
    forfeits = sum(c["forfeits"] for c in counts)
    return {
        "sweepers": sweepers,
        "concurrency": concurrency,
        "batch": batch,
        "forfeits": forfeits,
        "per_sweeper": [c["forfeits"] for c in counts],
        "errors": sum(c["errors"] for c in counts),
        "seconds": round(elapsed, 2),
        "matches_per_s": round(forfeits / elapsed, 1),
    }


@contextlib.asynccontextmanager
async def _maker(url: str) -> AsyncIterator[Any]:
    engine = make_engine(url, Settings(database_url=url))
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=4, help="claimers per sweeper")
    parser.add_argument("--sweepers", default="1,2", help="comma-separated sweeper counts")
    parser.add_argument("--batch", type=int, default=BATCH, help="matches per transaction")
    args = parser.parse_args()
    results = []
    for sweepers in [int(n) for n in args.sweepers.split(",")]:
        url = await fresh_database(DATABASE, bench_server())
        clock, _ = await _prepare(url, args.matches)
        result = await asyncio.to_thread(_run, url, clock, sweepers, args.concurrency, args.batch)
        async with _maker(url) as maker:
            result["left_due"] = await count_due(maker, clock.now())
        results.append(result)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
