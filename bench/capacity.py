"""Capacity, side by side in one run: the service next to a bare route, computers beside the
tables, and the computers' worker processes.

    python bench/capacity.py [--seconds 15] [--clients 32] [--planners 6] [--rounds 3]
                             [--baseline-python PATH] [--decisions 120] [--only abc]

(a) `--clients` players against `plain` with the think floor off (bench/load.py's loop), and the
    same number of clients against bench/bare_app.py (FastAPI + asyncpg, the same shape as a
    move: auth, a validated body, the row read, one guarded statement saving the snapshot and
    an event), every server (the baseline's too) measured in turn in each of `--rounds`
    rounds: moves/s and server CPU per move of each, and the ratios per round. `--profile`
    adds an unmeasured round under py-spy and each server's CPU per move by layer and by
    purpose (computers' replies, new matches and starts, the move's route, every request
    outside its route): the move alone beside the bare route, and what the ratio would be
    with a move as cheap as the bare route's (the rest has no counterpart there).
(b) A probe at a table of two people (the player to move reads its view, then moves), alone and
    then beside `--planners` players each playing All Fives against the Planner with the
    default floor: the probe's p50 and p99. With `--baseline-python` (the interpreter of a
    checkout of an earlier commit) the same is measured against that server first.
(c) Planner decisions per second through the computers' process pool with 1 and 2 workers, on
    the same searched positions, as many in flight as twice the workers.

Every level reports the load generator's own CPU, so a figure bound by the client shows.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from client import Http  # noqa: E402
from load import (  # noqa: E402
    SERVER,
    SERVER_ENV,
    CpuMeter,
    Level,
    move_body,
    play_matches,
    print_level,
    run_level,
    sample_snapshot,
)
from profiles import by_purpose, grouped, print_shares, profile  # noqa: E402

from domino_api.store.db import to_asyncpg_url, to_plain_url  # noqa: E402
from tests.bots.test_computers import searched_views  # noqa: E402
from tests.support.servers import (  # noqa: E402
    SERVE,
    ServerProcess,
    create_database,
    fresh_database,
)

PROBE_DB, BARE_DB = "domino_ops_capacity", "domino_ops_bare"


def serve_with(python: str):  # type: ignore[no-untyped-def]
    return lambda port: [python, "-c", SERVE, str(port), "1"]


async def start(url: str, env: dict[str, str], workdir: Path, python: str, name: str):  # type: ignore[no-untyped-def]
    server = ServerProcess(
        url, workdir / f"{name}.log", env=env, argv=serve_with(python), ready_path="/readyz"
    )
    server.start()
    await server.wait_ready_async()
    return server


# ---------------------------------------------------------------- (a) beside a bare route


async def bare_level(port: int, pid: int, clients: int, seconds: float, snapshot: object) -> Level:
    level = Level(clients)
    https = [Http(port) for _ in range(clients)]
    matches = []
    for index, http in enumerate(https):
        status, made = await http.request("POST", "/bare/matches", snapshot, f"t{index}")
        assert status == 201, made
        matches.append(made["id"])
    body = {"action": "play", "tile": [3, 5], "end": "left", "seq": 1}
    meter, client_cpu = CpuMeter([pid]), time.process_time()
    started = time.perf_counter()
    deadline = started + seconds

    async def client(index: int) -> None:
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            path = f"/bare/{matches[index]}/moves"
            status, _ = await https[index].request("POST", path, body, f"t{index}")
            level.statuses[status] += 1
            level.latencies.append(time.perf_counter() - began)

    await asyncio.gather(*(client(n) for n in range(clients)))
    level.elapsed = time.perf_counter() - started
    level.cpu = {**meter.used(), "load generator": time.process_time() - client_cpu}
    level.requests = len(level.latencies)  # its matches were made before the level
    for http in https:
        await http.close()
    return level


async def start_service(workdir: Path, python: str, name: str) -> ServerProcess:
    """The service run by `python` (floor off) on a database of its own, warmed up."""
    url = await database_for(python, f"{PROBE_DB}_{name}")
    env = {**SERVER_ENV, "DOMINO_COMPUTER_THINK_S": "0"}
    server: ServerProcess = await start(url, env, workdir, python, f"{name}-plain")
    await run_level([server], 8, 3)  # warm-up, unmeasured
    return server


async def start_bare(workdir: Path, service_url: str) -> tuple[ServerProcess, object]:
    """bench/bare_app.py on its database, warmed up; and the snapshot its rows carry (a real
    mid-game one from the service's database)."""
    snapshot = await sample_snapshot(service_url)
    bare_url = await create_database(BARE_DB, SERVER)
    argv = [sys.executable, "-m", "uvicorn", "bare_app:app", "--app-dir", str(ROOT / "bench")]
    bare = ServerProcess(
        bare_url,
        workdir / "bare.log",
        env={"DOMINO_BARE_DATABASE_URL": bare_url},
        argv=lambda port: [*argv, "--port", str(port), "--log-level", "warning"],
    )
    bare.start()
    await bare.wait_ready_async()
    await bare_level(bare.port, bare.pid, 8, 3, snapshot)  # warm-up
    return bare, snapshot


async def against_bare(args: argparse.Namespace, workdir: Path) -> None:
    """Every server started first; then `--rounds` rounds, each measuring every server in turn
    (the order turning from round to round), so a machine whose load drifts from minute to
    minute weighs on all of them alike. Ratios are per round (both levels of a ratio taken
    minutes apart would measure the drift); the medians are reported. With `--profile`, an
    unmeasured round comes first, each server sampled by py-spy (which pauses it for each
    sample, and so slows it): its shares of the API process's CPU, by layer and by purpose,
    are scaled by the measured rounds' median CPU per move."""
    servers = {"HEAD": await start_service(workdir, sys.executable, "head")}
    if args.baseline_python:
        servers["baseline"] = await start_service(workdir, args.baseline_python, "baseline")
    bare, snapshot = await start_bare(workdir, servers["HEAD"].database_url)

    async def level_of(name: str) -> Level:
        if name == "bare":
            return await bare_level(bare.port, bare.pid, args.clients, args.seconds, snapshot)
        return await run_level([servers[name]], args.clients, args.seconds)

    names = [*servers, "bare"]
    per_move: dict[str, list[float]] = {name: [] for name in names}
    per_main: dict[str, list[float]] = {name: [] for name in names}  # the API process alone
    shares: dict[str, tuple[dict[str, float], dict[str, float], float]] = {}
    try:
        for name in names if args.profile else []:
            spied = workdir / f"{name}.profile"
            pid = bare.pid if name == "bare" else servers[name].pid
            spy = profile(pid, int(args.seconds) - 2, spied, children=False, whole=True)
            level = await level_of(name)
            if spy is not None:
                spy.wait(timeout=60)
                move_share = len(level.latencies) / max(level.requests, 1)
                shares[name] = (grouped(spied), by_purpose(spied), move_share)
        for round_number in range(args.rounds):
            turn = round_number % len(names)
            for name in names[turn:] + names[:turn]:
                level = await level_of(name)
                per_move[name].append(_cpu_per_move(level))
                per_main[name].append(level.cpu.get("server main", 0.0) / len(level.latencies))
                print(f"(a) round {round_number + 1} {name:8s}", end=" ")
                print_level(level)
    finally:
        for server in [*servers.values(), bare]:
            server.stop(timeout=15)
    if shares:
        print_shares(shares, per_move, per_main)
    print("(a) server CPU per move against plain, floor off (ms), by round:")
    for name, values in per_move.items():
        each = ", ".join(f"{1000 * v:.2f}" for v in values)
        print(f"    {name:8s} median {1000 * statistics.median(values):.2f}  ({each})")
    for name in servers:
        ratios = [
            mine / theirs for mine, theirs in zip(per_move[name], per_move["bare"], strict=True)
        ]
        each = ", ".join(f"{r:.2f}" for r in ratios)
        print(
            f"    {name} / bare route: median {statistics.median(ratios):.2f} ({each}; goal <= 1.5)"
        )
    print(flush=True)


def _cpu_per_move(level: Level) -> float:
    return level.cpu.get("server", 0.0) / max(len(level.latencies), 1)


# ---------------------------------------------------------------- (b) the probe


async def player(http: Http, name: str) -> str:
    status, made = await http.request("POST", "/v1/players", {"name": name})
    assert status == 201, made
    return str(made["token"])


async def probe(port: int, deadline: float, latencies: list[float]) -> None:
    """Two people at one table (All Fives to 50), match after match: whoever is to move reads
    its view and moves; both requests are timed."""
    https = [Http(port), Http(port)]
    tokens = [await player(https[0], "probe-a"), await player(https[1], "probe-b")]
    while time.perf_counter() < deadline:
        body = {"ruleset": "all-fives", "options": {"target": 50}}
        status, view = await https[0].request("POST", "/v1/matches", body, tokens[0])
        assert status == 201, view
        mid, code = view["id"], view["code"]
        status, _ = await https[1].request("POST", "/v1/matches/join", {"code": code}, tokens[1])
        assert status == 200
        await https[0].request("POST", f"/v1/matches/{mid}/start", {}, tokens[0])
        for _ in range(400):
            if time.perf_counter() >= deadline:
                break
            status, view = await https[0].request("GET", f"/v1/matches/{mid}", None, tokens[0])
            if view["status"] not in ("playing", "hand_over"):
                break
            if view["status"] == "hand_over":
                await https[0].request("POST", f"/v1/matches/{mid}/hands", {}, tokens[0])
                continue
            mover = view["turn"]["seat"]
            began = time.perf_counter()
            path = f"/v1/matches/{mid}"
            status, mine = await https[mover].request("GET", path, None, tokens[mover])
            latencies.append(time.perf_counter() - began)
            began = time.perf_counter()
            await https[mover].request("POST", f"{path}/moves", move_body(mine), tokens[mover])
            latencies.append(time.perf_counter() - began)
    for http in https:
        await http.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def probe_beside_planners(port: int, planners: int, seconds: float) -> str:
    latencies: list[float] = []
    level = Level(planners)
    deadline = time.perf_counter() + seconds
    client_cpu, started = time.process_time(), time.perf_counter()
    players = []
    for index in range(planners):
        http = Http(port)
        token = await player(http, f"p{index}")
        players.append(play_matches(http, token, level, deadline, "planner"))
    await asyncio.gather(probe(port, deadline, latencies), *players)
    elapsed = time.perf_counter() - started
    share = (time.process_time() - client_cpu) / elapsed
    return (
        f"probe p50 {pct(latencies, 0.5):6.1f} ms  p99 {pct(latencies, 0.99):6.1f} ms "
        f"({len(latencies)} requests; {planners} Planner players made "
        f"{len(level.latencies) / elapsed:.1f} moves/s; load generator {share:.2f} cores)"
    )


async def database_for(python: str, name: str = PROBE_DB) -> str:
    """A fresh database at the latest migration that `python`'s checkout knows."""
    if python == sys.executable:
        return to_plain_url(await fresh_database(name, SERVER))
    url = await create_database(name, SERVER)
    migrate = "import sys; from domino_api.store.migrate import upgrade_to_head; "
    migrate += "upgrade_to_head(sys.argv[1])"
    subprocess.run([python, "-c", migrate, to_asyncpg_url(url)], check=True, capture_output=True)
    return url


async def probe_scenario(args: argparse.Namespace, workdir: Path, python: str, name: str) -> None:
    url = await database_for(python)
    env = dict(SERVER_ENV)
    env["DOMINO_COMPUTER_THINK_S"] = "0.075"  # the default floor
    server = await start(url, env, workdir, python, name)
    try:
        await probe_beside_planners(server.port, 1, 3)  # warm-up, unmeasured
        print(f"(b) {name}: idle      {await probe_beside_planners(server.port, 0, args.seconds)}")
        line = await probe_beside_planners(server.port, args.planners, args.seconds)
        print(f"(b) {name}: {args.planners} Planner {line}", flush=True)
    finally:
        server.stop(timeout=15)


# ---------------------------------------------------------------- (c) the workers


async def decisions_per_s(workers: int, views: list[object]) -> float:
    from domino_api.bots.computers import Computers

    computers = Computers(workers)
    await computers.start()
    gate = asyncio.Semaphore(2 * workers)

    async def one(index: int) -> None:
        async with gate:
            await computers.choose("planner", views[index], str(index))  # type: ignore[arg-type]

    started = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(len(views))))
    elapsed = time.perf_counter() - started
    await computers.stop()
    return len(views) / elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--planners", type=int, default=6)
    parser.add_argument("--decisions", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3, help="(a): rounds of every server in turn")
    parser.add_argument("--baseline-python", default=None)
    parser.add_argument("--only", default="abc", help="which scenarios: any of a, b, c")
    parser.add_argument(
        "--profile", action="store_true", help="(a): py-spy every server first: by layer, purpose"
    )
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="domino-capacity-"))
    if "a" in args.only:
        await against_bare(args, workdir)
    if "b" in args.only:
        if args.baseline_python:
            await probe_scenario(args, workdir, args.baseline_python, "baseline")
        await probe_scenario(args, workdir, sys.executable, "HEAD")
    if "c" in args.only:
        views = searched_views(args.decisions)
        rates = {n: await decisions_per_s(n, views) for n in (1, 2)}
        print(
            f"(c) Planner decisions/s: 1 worker {rates[1]:.1f}, 2 workers {rates[2]:.1f} "
            f"({rates[2] / rates[1]:.2f}x; goal >= 1.7x) over {len(views)} searched positions"
        )
    print(f"server logs in {workdir}")


if __name__ == "__main__":
    asyncio.run(main())
