"""What a socket costs to open and to hold, beside a bare uvicorn/Starlette socket in one run.

    .venv/bin/python bench/socket_opens.py [--sockets 500] [--rounds 3] [--sides bare,table,watch]

Three servers, each on its own port, in turn each round: `bare_app.py`'s `/bare/ws` (a token
looked up in a dict, accept, one snapshot-sized text, then read until closed), the service's
table socket opened by a spectator (`/v1/matches/{id}/ws`) and its watch socket
(`/v1/matches/{id}/watch/ws`, on a `DOMINO_ROLE=sockets` process fed over the `postgres`
backend). Per side: server CPU (user + system, psutil) per open while `--sockets` are opened
20 at a time, each open done at its first frame; then RSS growth per socket once they sit
idle (a second's pause), every socket held to the end (rounds add to them). The spectators
are 20 players at one started table that welcomes them. No sleep or generator bounds an
open: the client waits for each first frame. `--base PATH` runs the service sides from
another checkout's `src` (the "before").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from profiles import profile, summarize_profile  # noqa: E402

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    drop_database,
    fresh_database,
    serve_argv,
)

DATABASE, BARE = f"domino_bench_opens_{os.getpid()}", f"domino_bench_bare_{os.getpid()}"
SPECTATORS = 20
AT_ONCE = 20


def cpu_s(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def rss(pid: int) -> int:
    return int(psutil.Process(pid).memory_info().rss)


async def open_all(urls: list[tuple[str, dict[str, str]]]) -> list[ClientConnection]:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(url: str, headers: dict[str, str]) -> ClientConnection:
        async with gate:
            # A shared machine at load 20 has taken over 10 s (the default) for a handshake.
            ws = await connect(url, additional_headers=headers, max_size=None, open_timeout=120)
            await ws.recv()  # the first frame: the open is done
            return ws

    return list(await asyncio.gather(*(one(u, h) for u, h in urls)))


async def measure(
    pid: int, urls: list[tuple[str, dict[str, str]]], held: list[ClientConnection]
) -> tuple[float, float]:
    """(ms of server CPU per open, KB of RSS per idle socket). The sockets stay open (`held`)
    to the end: memory freed by closed ones would be reused by the next round's."""
    await asyncio.sleep(1.0)
    rss_before, cpu_before = rss(pid), cpu_s(pid)
    sockets = await open_all(urls)
    cpu = (cpu_s(pid) - cpu_before) * 1000 / len(urls)
    await asyncio.sleep(1.0)
    held.extend(sockets)
    return cpu, (rss(pid) - rss_before) / 1024 / len(urls)


async def table(base: str) -> tuple[str, list[str]]:
    """A started table that welcomes spectators, and the spectators' tokens."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = []
        for name in ["Ana", "Bob"] + [f"S{n}" for n in range(SPECTATORS)]:
            r = await http.post("/v1/players", json={"name": name})
            made.append(r.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in made]
        body = {
            "ruleset": "house-nines",
            "seats": [{"type": "human"}, {"type": "human"}],
            "options": {"target": 20, "spectators": True},
        }
        view = (await http.post("/v1/matches", json=body, headers=auth[0])).json()
        await http.post("/v1/matches/join", json={"code": view["code"]}, headers=auth[1])
        await http.post(f"/v1/matches/{view['id']}/start", json={"cut": "x"}, headers=auth[0])
        return view["id"], made[2:]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sides", default="bare,table,watch")
    parser.add_argument("--base", help="another checkout: its src serves the service sides")
    parser.add_argument("--profile", type=Path, help="py-spy stacks of the last watch round")
    args = parser.parse_args()
    sides = args.sides.split(",")
    workdir = Path(tempfile.mkdtemp(prefix="domino-opens-"))
    url = to_plain_url(await fresh_database(DATABASE, bench_server()))
    bare_url = to_plain_url(await fresh_database(BARE, bench_server()))
    env = {"DOMINO_LOG_LEVEL": "WARNING", "DOMINO_LOG_JSON": "false"}
    if args.base:
        env["PYTHONPATH"] = str(Path(args.base) / "src")
    api = ServerProcess(url, workdir / "api.log", env=env, argv=serve_argv)
    role = {**env, "DOMINO_ROLE": "sockets"}
    sockets = ServerProcess(url, workdir / "sockets.log", env=role, argv=serve_argv)
    bare_argv = [sys.executable, "-m", "uvicorn", "bare_app:app", "--app-dir", str(ROOT / "bench")]
    bare = ServerProcess(
        bare_url,
        workdir / "bare.log",
        env={"DOMINO_BARE_DATABASE_URL": bare_url},
        argv=lambda port: [*bare_argv, "--port", str(port), "--log-level", "warning"],
    )
    servers = [api, bare] + ([sockets] if "watch" in sides else [])
    try:
        for server in servers:
            server.start()
        for server in servers:
            await server.wait_ready_async(timeout=120)
        match_id, tokens = await table(api.base_url)
        n = args.sockets
        heads = [{"Authorization": f"Bearer {tokens[i % len(tokens)]}"} for i in range(n)]
        plans: dict[str, tuple[int, list[tuple[str, dict[str, str]]]]] = {
            "bare": (bare.pid, [(f"{bare.ws_url}/bare/ws", {"Authorization": "t"})] * n),
            "table": (api.pid, [(f"{api.ws_url}/v1/matches/{match_id}/ws", h) for h in heads]),
        }
        if "watch" in sides:
            watch = f"{sockets.ws_url}/v1/matches/{match_id}/watch/ws"
            plans["watch"] = (sockets.pid, [(watch, h) for h in heads])
        results: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
        held: list[ClientConnection] = []
        for round_ in range(args.rounds):
            for side in sides[round_ % len(sides) :] + sides[: round_ % len(sides)]:
                pid, urls = plans[side]
                spy = None
                if args.profile and side == "watch" and round_ == args.rounds - 1:
                    spy = profile(pid, 600, args.profile, children=False)
                results[side].append(await measure(pid, urls, held))
                print(side, round_, results[side][-1], os.getloadavg()[0], flush=True)
                if spy is not None:
                    spy.send_signal(signal.SIGINT)  # py-spy writes what it sampled
                    spy.wait()
                    print("\n".join(summarize_profile(args.profile, 45)))
        await asyncio.gather(*(ws.close() for ws in held))
        load = os.getloadavg()[0]
        print(json.dumps({"sockets": n, "load": round(load, 1), "results": results}))
        for side, got in results.items():
            cpu = ", ".join(f"{c:.2f}" for c, _ in got)
            kb = ", ".join(f"{k:.1f}" for _, k in got)
            print(f"{side:6} ms CPU per open: {cpu}; KB per idle socket: {kb}")
    finally:
        for server in servers:
            server.stop(timeout=15)
        await drop_database(DATABASE, bench_server())
        await drop_database(BARE, bench_server())
        print(f"logs in {workdir}; finished {time.strftime('%H:%M:%S')}")


if __name__ == "__main__":
    asyncio.run(main())
