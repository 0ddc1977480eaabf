"""The socket write path (issue 49): idle sockets' keepalives and a spectators' fan-out, the
service beside a bare Starlette WebSocket app (`bare_sockets.py`), in one run.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/sockets.py [--idle 19000] [--window 32] [--spectators 5000]
            [--rate 10] [--moves 150] [--before COMMIT] [--sides bare,before,after]

Sides, in turn: `bare` (bare_sockets.py), `after` (this checkout), `before` (the service at
COMMIT, extracted with `git archive` and run from its own `src`). Each side is one uvicorn
process (`--ws-ping-interval 0`; the service's own GuardedWebSocket protocol).

Idle: `--idle` sockets open (the service's: spectators of one match), then for `--window`
seconds (two keepalive rounds at the default 20 s) /healthz is asked every 10 ms on one
keep-alive connection: its longest and p99 answer time (a stall of the server's loop) and the
server's CPU. Fan-out: `--spectators` sockets watch a match whose two seats move over their own
sockets at `--rate` moves a second (the bare side: a mover whose each message sends two frames
to every watcher): the mover's ack time, the last spectator's receipt of each move, and the
server's CPU per delivered spectator frame. The load generator is raw asyncio protocols (a
frame header walk per read, no JSON): its own CPU is printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiles import profile, summarize_profile  # noqa: E402
from raw_ws import Milestones, Watcher, cpu_seconds, open_watchers, own_cpu, probe, summary  # noqa: E402

from tests.support.servers import (  # noqa: E402
    ServerProcess,
    bench_server,
    fresh_database,
    uvicorn_argv,
)

DB = "domino_sockets_bench"


async def idle_phase(server: ServerProcess, path: str, token: str | None, args: Any) -> str:
    watchers = await open_watchers(server.port, path, token, args.idle)
    await asyncio.sleep(2)
    quiet = await quiet_window(server, args)
    cpu0, own0 = cpu_seconds(server.pid), own_cpu()
    waits = await probe(server.port, args.window)
    cpu = (cpu_seconds(server.pid) - cpu0) / args.window
    own = (own_cpu() - own0) / args.window
    frames = sum(w.frames for w in watchers)
    for watcher in watchers:
        assert watcher.transport is not None
        watcher.transport.close()
    return (
        f"idle {len(watchers)} sockets: nothing asked, server CPU {quiet}; then /healthz"
        f" {summary(waits)}; server CPU {100 * cpu:.2f}% of a core; frames {frames};"
        f" generator {100 * own:.1f}%"
    )


async def quiet_window(server: ServerProcess, args: Any) -> str:
    """The server's CPU over `--window` seconds while nothing is asked of it (no probe): what
    idle sockets cost alone. With `--profile`, py-spy's stacks of that window."""
    spy = None
    if args.profile:
        out = Path(tempfile.mkdtemp(prefix="sockets-idle-")) / "idle.txt"
        spy = profile(server.pid, int(args.window), out, children=False)
    cpu0, own0 = cpu_seconds(server.pid), own_cpu()
    await asyncio.sleep(args.window)
    cpu = (cpu_seconds(server.pid) - cpu0) / args.window
    own = (own_cpu() - own0) / args.window
    if spy is not None:
        spy.wait()
        print("\n".join(summarize_profile(out, 40)), flush=True)
    return f"{100 * cpu:.2f}% of a core (generator {100 * own:.2f}%)"


class Seats:
    """The two seats' sockets: whose turn, and what it may play."""

    def __init__(self, sockets: dict[int, ClientConnection], view: dict[str, Any]) -> None:
        self.sockets = sockets
        self.seq = view["seq"]
        self.turn = view["turn"]["seat"] if view.get("turn") else 0
        self.legal: dict[int, list[dict[str, Any]]] = {0: view.get("legal") or [], 1: []}
        self.over = False
        self.ids = 0
        self.seen = {0: self.seq, 1: self.seq}
        self.errors: dict[str, int] = {}

    async def act(self) -> tuple[int, float]:
        """One request by the seat to move; returns (the match's seq after it, its ack time in
        ms). A hand over: `next_hand`, from each seat in turn until a turn comes."""
        self.ids += 1
        seat = self.turn
        ws = self.sockets[seat]
        while self.seen[seat] < self.seq:  # its own copies of what the other seat caused
            message = json.loads(await ws.recv())
            if message["type"] == "event":
                self.see(seat, message["event"])
        if self.over:
            request: dict[str, Any] = {"type": "next_hand", "id": self.ids}
            self.turn = 1 - seat
        else:
            option = self.legal[seat][0]
            request = {"type": "move", "id": self.ids, "seq": self.seq, "action": option["action"]}
            if option["action"] == "play":
                request |= {"tile": option["tile"], "end": option.get("end")}
        began = time.perf_counter()
        await ws.send(json.dumps(request))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "event":
                self.see(seat, message["event"])
            elif message.get("id") == self.ids:
                ms = (time.perf_counter() - began) * 1000
                if message["type"] == "error":
                    code = message["error"].get("code")
                    self.errors[code] = self.errors.get(code, 0) + 1
                return int(message.get("seq") or self.seq), ms

    def see(self, seat: int, event: dict[str, Any]) -> None:
        """An event as `seat`'s socket was sent it (its own copy)."""
        self.seen[seat] = event["seq"]
        self.seq = max(self.seq, event["seq"])
        if event["type"] == "turn":
            self.turn, self.over = event["data"]["seat"], False
            if event["data"]["seat"] == seat:
                self.legal[seat] = event["data"].get("legal") or []
        elif event["type"] in ("hand_ended", "match_ended"):
            self.over = True


async def service_fanout(server: ServerProcess, http: httpx.AsyncClient, args: Any) -> str:
    sys.path.insert(0, str(ROOT))
    from tests.jobs.factory import new_player, two_seat_match

    ana, bob, view = await two_seat_match(http, "block", {"spectators": True, "target": 500})
    match_id = view["id"]
    fan = await new_player(http, "Fan")
    watchers = await open_watchers(
        server.port, f"/v1/matches/{match_id}/ws", fan["token"], args.spectators
    )
    base = server.ws_url + f"/v1/matches/{match_id}/ws"
    sockets = {
        seat: await connect(base, additional_headers=who["headers"], ping_interval=None)
        for seat, who in ((0, ana), (1, bob))
    }
    views = [json.loads(await sockets[seat].recv())["view"] for seat in (0, 1)]
    seats = Seats(sockets, views[0])
    seats.legal[1] = views[1].get("legal") or []
    seats.turn = 0 if seats.legal[0] else 1  # whoever may move now
    seats.seen = {seat: views[seat]["seq"] for seat in (0, 1)}

    async def seq_now() -> int:
        answer = await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])
        return int(answer.json()["seq"])

    result = await drive(server, watchers, seats.act, args, seq_now)
    return f"{result}; refused requests {seats.errors}"


async def bare_fanout(server: ServerProcess, args: Any) -> str:
    watchers = await open_watchers(server.port, "/ws", None, args.spectators)
    mover = await connect(f"ws://127.0.0.1:{server.port}/mover", ping_interval=None)
    ids = 0

    async def act() -> tuple[int, float]:
        nonlocal ids
        ids += 1
        began = time.perf_counter()
        await mover.send(str(ids))
        ack = json.loads(await mover.recv())
        return int(ack["seq"]), (time.perf_counter() - began) * 1000

    async def zero() -> int:
        return 0

    return await drive(server, watchers, act, args, zero)


async def drive(
    server: ServerProcess, watchers: list[Watcher], act: Any, args: Any, seq_now: Any
) -> str:
    """`args.moves` moves at `args.rate` a second; the figures of the whole span."""
    await asyncio.sleep(1)
    start_seq = await seq_now()  # every spectator has had every event up to it
    marks = Milestones()
    for watcher in watchers:
        watcher.watch(marks)
    acks: list[float] = []
    gap = 1.0 / args.rate
    cpu0, own0, began = cpu_seconds(server.pid), own_cpu(), time.perf_counter()
    for number in range(args.moves):
        due = began + number * gap
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        sent = time.perf_counter()
        seq, ack = await act()
        marks.add(seq - start_seq, sent)
        acks.append(ack)
        for watcher in watchers:  # those sent the move before its ack came
            watcher.reach(watcher.seen_at)
    deadline = time.perf_counter() + 30
    while min(w.next for w in watchers) < len(marks.counts) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    span = time.perf_counter() - began
    cpu, own = cpu_seconds(server.pid) - cpu0, own_cpu() - own0
    frames = sum(w.events - w.base for w in watchers)
    lasts = [(last - sent) * 1000 for last, sent in zip(marks.last, marks.sent, strict=True)]
    missing = sum(1 for last in marks.last if last == 0.0)
    for watcher in watchers:
        assert watcher.transport is not None
        watcher.transport.close()
    return (
        f"fan-out {len(watchers)} spectators, {args.moves} moves in {span:.1f} s:"
        f" ack {summary(acks)};"
        f" last receipt {summary(lasts)} (unreached {missing}); {frames} spectator frames,"
        f" server {1e6 * cpu / max(frames, 1):.2f} us CPU each ({100 * cpu / span:.0f}% of a core);"
        f" generator {100 * own / span:.0f}%"
    )


def service_side(url: str, src: Path | None) -> ServerProcess:
    env = {"DOMINO_LOG_LEVEL": "WARNING", "DOMINO_COMPUTER_THINK_S": "0"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return ServerProcess(
        url, env=env, argv=lambda port: uvicorn_argv(port, "--ws-ping-interval", "0")
    )


def bare_side() -> ServerProcess:
    def argv(port: int) -> list[str]:
        return [
            sys.executable, "-m", "uvicorn", "bare_sockets:app", "--app-dir", "bench",
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
            "--ws-ping-interval", "0",
        ]  # fmt: skip

    return ServerProcess("", argv=argv)


def extract(commit: str) -> Path:
    target = Path(tempfile.mkdtemp(prefix="sockets-before-"))
    archive = subprocess.run(
        ["git", "archive", commit, "src"], cwd=ROOT, check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


async def run_side(side: str, args: Any, before: Path | None) -> None:
    if side == "bare":
        server = bare_side()
    else:
        url = await fresh_database(DB, bench_server())
        server = service_side(url, before if side == "before" else None)
    server.start()
    try:
        await server.wait_ready_async(240)  # a shared machine at load 20+ took over 60 s
        if side == "bare":
            if args.idle:
                print(side, await idle_phase(server, "/ws", None, args), flush=True)
            if args.spectators:
                print(side, await bare_fanout(server, args), flush=True)
            return
        async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as http:
            if args.idle:
                sys.path.insert(0, str(ROOT))
                from tests.jobs.factory import new_player, two_seat_match

                _, _, view = await two_seat_match(http, "classic", {"spectators": True})
                fan = await new_player(http, "Idle")
                path = f"/v1/matches/{view['id']}/ws"
                print(side, await idle_phase(server, path, fan["token"], args), flush=True)
            if args.spectators:
                print(side, await service_fanout(server, http, args), flush=True)
    finally:
        server.stop()


async def ticks(count: int) -> None:
    """In one process, `count` real loopback connections: the CPU time (thread time, blind to
    the machine's other processes) of the longest keepalive tick, spread over 20 s
    (realtime/keepalive.py) against one keepalive written to every socket at once."""
    from domino_api.realtime.keepalive import Keepalives
    from domino_api.realtime.outbox import Frame, Outbox
    from domino_api.web.transport import Wire

    loop = asyncio.get_running_loop()
    accepted: list[asyncio.BaseTransport] = []

    class Sink(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.append(transport)

    server = await loop.create_server(Sink, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    outboxes = []
    for _ in range(count):
        transport, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
        outbox = Outbox(1000, 1 << 20)
        outbox.wire = Wire(transport)  # type: ignore[arg-type]
        outboxes.append(outbox)
    frame = Frame(b'{"type":"keepalive","now":"2026-12-07T08:00:00.000000Z"}')
    keepalives = Keepalives(20.0, lambda: frame)
    for outbox in outboxes:
        keepalives.add(outbox)
    spread = []
    for _ in range(keepalives.slots):
        began = time.thread_time()
        keepalives.tick(loop.time() + 100)
        spread.append((time.thread_time() - began) * 1000)
    began = time.thread_time()
    for outbox in outboxes:
        outbox.send(frame)
    at_once = (time.thread_time() - began) * 1000
    per_socket = at_once / count
    print(
        f"ticks {count} sockets: spread over {keepalives.slots} ticks, longest {max(spread):.2f} ms"
        f" CPU (at 20,000: {max(spread) * 20000 / count:.2f} ms), all of them"
        f" {sum(spread):.1f} ms per {keepalives.period:.0f} s"
        f" ({sum(spread) / keepalives.period / 10:.3f}% of a core);"
        f" all at once {at_once:.1f} ms ({per_socket * 1000:.1f} us a socket)",
        flush=True,
    )
    server.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--window", type=float, default=32.0)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--sides", default="bare,after")
    parser.add_argument("--ticks", type=int, default=0, help="the in-process tick bench alone")
    parser.add_argument("--before", default=None, help="the commit of the `before` side")
    parser.add_argument("--profile", action="store_true", help="py-spy the quiet idle window")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the servers inherit it
    print(f"open files: {hard}; load {os.getloadavg()}", flush=True)
    if args.ticks:
        await ticks(args.ticks)
        return
    before = extract(args.before) if args.before else None
    for side in args.sides.split(","):
        await run_side(side, args, before)
    print(f"load {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    import uvloop  # the servers' loop (uvicorn's choice when it is installed)

    uvloop.run(main())
