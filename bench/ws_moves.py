"""WebSocket moves: the server's CPU per move when every move goes over the socket.

    python bench/ws_moves.py [--clients 32] [--seconds 20] [--warmup 5] [--profile out.txt]

Each client is one player against the `plain` computer (All Fives to 50), match after match,
on one socket per match: it sends `move` (its first legal option, from the snapshot or its own
seat's `turn` event) and waits for the `ack`, `next_hand` between hands. The server is one
`domino-api serve`-like process on a database of its own (`domino_ops_wsmoves`, recreated) at
DOMINO_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres). Printed: moves per
second and the server's CPU ms per move (its API process, and its computers' workers beside).
`--profile` writes py-spy's collapsed stacks of the API process over the measured span.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from profiles import profile  # noqa: E402

from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    fresh_database,
    serve_argv,
)

DB = "domino_ops_wsmoves"
ENV = {
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "1000000",
    "DOMINO_LOG_JSON": "true",
    "DOMINO_LOG_LEVEL": "INFO",
    "DOMINO_COMPUTER_THINK_S": "0",
}


def option(legal: list[dict[str, Any]]) -> dict[str, Any]:
    chosen = {k: v for k, v in legal[0].items() if k in ("action", "tile", "end")}
    if chosen["action"] != "play":
        chosen.pop("tile", None)
        chosen.pop("end", None)
    return chosen


class Tally:
    def __init__(self) -> None:
        self.moves = 0
        self.errors = 0
        self.measuring = False


async def play(base: str, tally: Tally, stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        me = (await http.post("/v1/players", json={"name": "ws"})).json()
        headers = {"Authorization": f"Bearer {me['token']}"}
        while not stop.is_set():
            body = {
                "ruleset": "all-fives",
                "options": {"target": 50},
                "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}],
            }
            match = (await http.post("/v1/matches", json=body, headers=headers)).json()
            await http.post(f"/v1/matches/{match['id']}/start", json={}, headers=headers)
            await one_match(base, match["id"], headers, tally, stop)


async def one_match(
    base: str, match_id: str, headers: dict[str, str], tally: Tally, stop: asyncio.Event
) -> None:
    url = base.replace("http", "ws") + f"/v1/matches/{match_id}/ws"
    async with connect(url, additional_headers=headers, max_size=None) as ws:
        view = json.loads(await ws.recv())["view"]
        status, seq = view["status"], view["seq"]
        legal = view["legal"] if view["turn"] and view["turn"]["seat"] == 0 else []
        ids = 0
        while not stop.is_set() and status not in ("finished", "abandoned", "cancelled"):
            ids += 1
            if status == "hand_over":
                request: dict[str, Any] = {"type": "next_hand", "id": ids}
            elif legal:
                request = {"type": "move", "id": ids, "seq": seq, **option(legal)}
            else:
                return  # nothing to do: a new match
            await ws.send(json.dumps(request))
            legal = []
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "event":
                    event = message["event"]
                    seq = event["seq"]
                    data = event["data"]
                    if event["type"] == "turn":
                        legal = data.get("legal") or [] if data["seat"] == 0 else []
                        status = "playing"
                    elif event["type"] == "hand_ended":
                        status = "hand_over"
                    elif event["type"] == "match_ended":
                        status = "finished"
                elif message["type"] in ("ack", "error") and message.get("id") == ids:
                    if message["type"] == "error":
                        tally.errors += 1
                        return
                    if request["type"] == "move" and tally.measuring:
                        tally.moves += 1
                    break


def cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
    return total


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    url = await fresh_database(DB, bench_server())
    server = ServerProcess(url, env=ENV, argv=serve_argv)
    server.start()
    try:
        await server.wait_ready_async(60)
        tally, stop = Tally(), asyncio.Event()
        players = [
            asyncio.create_task(play(server.base_url, tally, stop)) for _ in range(args.clients)
        ]
        await asyncio.sleep(args.warmup)
        main_pid = server.pid
        workers = [p.pid for p in psutil.Process(main_pid).children(recursive=True)]
        spy = None
        if args.profile:
            spy = profile(main_pid, int(args.seconds), Path(args.profile), children=False)
        started, used, used_workers = time.perf_counter(), cpu([main_pid]), cpu(workers)
        tally.measuring = True
        await asyncio.sleep(args.seconds)
        tally.measuring = False
        elapsed = time.perf_counter() - started
        used, used_workers = cpu([main_pid]) - used, cpu(workers) - used_workers
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
        if spy is not None:
            spy.wait()
        moves = max(tally.moves, 1)
        print(
            f"{tally.moves / elapsed:.0f} moves/s, errors {tally.errors}; API process "
            f"{used / elapsed:.2f} cores, {1000 * used / moves:.2f} ms/move; computers' workers "
            f"{1000 * used_workers / moves:.2f} ms/move"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
