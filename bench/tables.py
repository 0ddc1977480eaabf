"""Live tables at human pace on one process: the ack's latency and the server's CPU per move.

    python bench/tables.py [--tables 2000] [--period 3] [--seconds 30] [--warmup 10]
                           [--generators 2] [--profile out.txt]

One `domino-api serve`-like process (bench/versus_bgio.py's: numbered-table budgets lifted) on
a database of its own (`domino_ops_tables`, made anew). `--tables` All Fives matches to 150
between two human seats, each seat on its own socket, are played by `--generators` load
generator processes (this script with `--worker`), each its share of the tables: every table
moves once per `--period` seconds on a fixed schedule (a late ack does not slow the schedule;
each table's first move at a random offset), the seat to act sending `move` and timing it to
its ack, which comes after the commit. `next_hand` between hands is sent but not timed; a
finished match is replaced by a new one inside the window. After `--warmup` seconds the window
of `--seconds` is measured: moves/s, ack p50/p99/max, CPU of the server, of PostgreSQL and of
each generator (so that a generator near a whole core, not the server, is seen as the bound).
`--profile` writes py-spy's collapsed stacks of the server over the window.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from client import Http  # noqa: E402
from load import SERVER, move_body  # noqa: E402
from meters import PgMeter, postmaster_of  # noqa: E402
from profiles import profile  # noqa: E402
from versus_bgio import TABLES_ENV, Table, new_table  # noqa: E402

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import ServerProcess, fresh_database  # noqa: E402

DB = "domino_ops_tables"
SETUP_AT_ONCE = 8  # tables set up concurrently per generator


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measuring = False
        self.errors: Counter[str] = Counter()  # refused moves by problem code
        self.finished = 0


async def make_table(port: int, name: str) -> tuple[Http, list[str], Table]:
    """Two players and their started table; made again after a refusal (a busy server's 503
    while thousands are set up at once)."""
    for _ in range(20):
        try:
            return await asyncio.wait_for(_make_table(port, name), 60.0)
        except (AssertionError, TimeoutError):
            await asyncio.sleep(1.0)
    return await _make_table(port, name)


async def _make_table(port: int, name: str) -> tuple[Http, list[str], Table]:
    http, tokens = Http(port), []
    for seat in (0, 1):
        status, made = await http.request("POST", "/v1/players", {"name": f"{name}s{seat}"})
        assert status == 201, made
        tokens.append(made["token"])
    return http, tokens, await new_table(http, port, tokens)


async def paced(
    port: int, made: tuple[Http, list[str], Table], period: float, tally: Tally, end: float
) -> None:
    """One table: a move every `period` seconds on schedule until `end`."""
    http, tokens, table = made
    due = time.perf_counter() + random.random() * period
    expect = 0
    while True:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if time.perf_counter() >= end:
            break
        due += period
        await table.reach(expect)
        if table.status == "finished":
            await table.close()
            tally.finished += 1
            table, expect = await new_table(http, port, tokens), 0
            continue
        if table.status == "hand_over":
            expect = (await table.request(0, {"type": "next_hand"}))["seq"]
            continue
        seat = await table.to_act()
        body = move_body({"legal": table.legal.pop(seat), "seq": max(table.seen)})
        started = time.perf_counter()
        answer = await table.request(seat, {"type": "move", **body})
        if answer["type"] != "ack":
            tally.errors[answer["error"]["code"]] += 1
            continue
        if tally.measuring:
            tally.latencies.append(time.perf_counter() - started)
        expect = answer["seq"]
    await table.close()


async def worker(port: int, tables: int, first: int, args: argparse.Namespace) -> None:
    """A generator process: set up its tables, say `ready`, wait for `go`, play, report."""
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def one(n: int) -> tuple[Http, list[str], Table]:
        async with gate:
            return await make_table(port, f"t{n}")

    made = await asyncio.gather(*(one(first + n) for n in range(tables)))
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    tally, start = Tally(), time.perf_counter()
    end = start + args.warmup + args.seconds
    plays = [asyncio.create_task(paced(port, m, args.period, tally, end)) for m in made]
    await asyncio.sleep(args.warmup)
    tally.measuring, cpu = True, time.process_time()
    await asyncio.sleep(args.seconds)
    tally.measuring, cpu = False, time.process_time() - cpu
    for play in plays:  # the window is over: a table waiting on an answer is not waited for
        play.cancel()
    report = {"latencies": tally.latencies, "cpu": cpu, "errors": tally.errors}
    print(json.dumps(report | {"finished": tally.finished}), flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def main(args: argparse.Namespace) -> None:
    url = to_plain_url(await fresh_database(DB, SERVER))
    workdir = Path(tempfile.mkdtemp(prefix="domino-tables-"))
    server = ServerProcess(url, workdir / "service.log", env=TABLES_ENV, ready_path="/readyz")
    server.start()
    generators: list[subprocess.Popen[str]] = []
    try:
        await server.wait_ready_async()
        share = args.tables // args.generators
        setup = time.perf_counter()
        for g in range(args.generators):
            argv = [sys.executable, __file__, "--worker", str(server.port), str(share * g)]
            argv += ["--tables", str(share), "--period", str(args.period)]
            argv += ["--seconds", str(args.seconds), "--warmup", str(args.warmup)]
            generators.append(
                subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            )
        for generator in generators:
            assert generator.stdout is not None and generator.stdout.readline() == "ready\n"
        print(
            f"{share * args.generators} tables set up in {time.perf_counter() - setup:.0f} s",
            flush=True,
        )
        for generator in generators:
            assert generator.stdin is not None
            generator.stdin.write("go\n")
            generator.stdin.flush()
        await asyncio.sleep(args.warmup)
        meter = PgMeter([server.pid], await postmaster_of(to_plain_url(url)))
        spy = profile(server.pid, int(args.seconds), args.profile, False) if args.profile else None
        await asyncio.sleep(args.seconds)
        cpu = meter.used()
        if spy is not None:
            spy.wait()
        reports = [json.loads(g.communicate(timeout=120)[0].splitlines()[-1]) for g in generators]
    finally:
        for generator in generators:
            generator.kill()
        server.stop(timeout=15)
    summarize(args, cpu, reports, psutil.getloadavg())


def summarize(
    args: argparse.Namespace, cpu: dict[str, float], reports: list[dict[str, Any]], load: Any
) -> None:
    latencies = [x for r in reports for x in r["latencies"]]
    moves = len(latencies)
    print(
        f"{moves / args.seconds:.0f} moves/s over {args.seconds:.0f} s (offered "
        f"{args.tables / args.period:.0f}); ack p50 {pct(latencies, 0.5):.1f} ms, p99 "
        f"{pct(latencies, 0.99):.1f} ms, max {pct(latencies, 1.0):.1f} ms; refused "
        f"{sum((Counter(r['errors']) for r in reports), Counter())}, matches finished "
        f"{sum(r['finished'] for r in reports)}"
    )
    per_move = {k: 1000 * v / max(moves, 1) for k, v in cpu.items()}
    print(
        "CPU: "
        + ", ".join(
            f"{k} {v / args.seconds:.2f} cores ({per_move[k]:.2f} ms/move)" for k, v in cpu.items()
        )
    )
    each = ", ".join(f"{r['cpu'] / args.seconds:.2f}" for r in reports)
    print(f"generators: {each} cores each; load average {load[0]:.1f} (2 cores)")
    if latencies:
        print(f"ack mean {1000 * statistics.fmean(latencies):.1f} ms")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--worker", nargs=2, type=int, default=None, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse()
    if arguments.worker is not None:
        port, first = arguments.worker
        asyncio.run(worker(port, arguments.tables, first, arguments))
    else:
        asyncio.run(main(arguments))
