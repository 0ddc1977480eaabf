"""The service beside boardgame.io 0.50, side by side in one run: server CPU per WebSocket move.

    python bench/versus_bgio.py [--matches 32] [--seconds 15] [--rounds 3] [--warmup 5]
                                [--profile out.txt] [--before COMMIT]

Needs node and `npm ci` in bench/bgio, and the PostgreSQL server of the other benchmarks
(DOMINO_DATABASE_URL, default 127.0.0.1:5432); each side gets a database of its own
(domino_ops_versus, domino_ops_bgio), dropped and made anew.

- The service: a real uvicorn server (bench/load.py's); `--matches` All Fives matches to 150
  between two human seats, each seat on its own socket (`/v1/matches/{id}/ws`); the seat to
  act sends `move` (the first of its `legal` from its events) and waits for its ack, which
  comes after the commit. A hand over is dealt with `next_hand` (not counted as a move).
- boardgame.io: bench/bgio/server.js, a `Server` with bgio-postgres and a game whose G holds a
  domino match's worth of state (bench/bgio/game.js); its updates are sent once the move is
  saved (see server.js). The generator is bench/bgio/load.js: the same matches on
  boardgame.io's socket.io transport, each move timed to the mover's update.

- The bare route: bench/bare_app.py over REST (the issue's yardstick: cached auth, a pydantic
  body, the row read, one guarded statement saving the snapshot and an event), carrying the
  longest snapshot the service stored in its warm-up, one client per match (bench/capacity.py).

Every server is started first; each round measures each side for `--seconds` (the order
turning from round to round, so a machine whose speed drifts weighs on both alike). A match
that ends is replaced by a new one inside the window, on both sides: its setup counts. Per
side and round: moves/s, p50/p99, CPU ms per acknowledged move of the server, of PostgreSQL
(the bench server's own processes) and of the load generator, and the ratio of the servers'
CPU per move. `--profile` writes py-spy's collapsed stacks of the service's process over its
level of the last round (bench/profiles.py reads them). `--before COMMIT` adds the service at
that commit (`git archive` of its src/ on PYTHONPATH, database domino_ops_versus_before) as a
fourth side, so that a change is measured against its base in the same run. Talks only to
127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bgio_side import Bgio, start_bgio  # noqa: E402
from capacity import bare_level, start_bare  # noqa: E402
from client import Http  # noqa: E402
from load import SERVER, SERVER_ENV, Level, move_body  # noqa: E402
from meters import PgMeter, postmaster_of  # noqa: E402
from profiles import profile  # noqa: E402

from domino_api.store.db import to_plain_url  # noqa: E402
from tests.support.servers import (  # noqa: E402
    ServerProcess,
    create_database,
    fresh_database,
)

OURS_DB, BGIO_DB = "domino_ops_versus", "domino_ops_bgio"
BEFORE_DB = "domino_ops_versus_before"
STALL_S = 60.0  # as load.js: a loaded machine answers slowly; a lost ack never


# ---------------------------------------------------------------- the service's side


@dataclass
class Table:
    """One match seen through its two seats' sockets."""

    match_id: str
    sockets: list[ClientConnection]
    seen: list[int] = field(default_factory=lambda: [0, 0])  # the last seq each socket got
    legal: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    turn: int | None = None
    status: str = "playing"
    answers: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    sent: int = 0

    def take(self, seat: int, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            view = message["view"]
            self.seen[seat] = view["seq"]
            self.status = view["status"]
            if view.get("turn") and view["turn"]["seat"] == seat and view.get("legal"):
                self.turn, self.legal[seat] = seat, view["legal"]
        elif kind == "event":
            self._apply(message["event"])
            self.seen[seat] = message["event"]["seq"]
        elif kind in ("ack", "error"):
            self.answers.pop(message["id"]).set_result(message)
        self.changed.set()

    def _apply(self, event: dict[str, Any]) -> None:
        kind, data = event["type"], event["data"]
        if kind == "turn":
            self.turn = data["seat"]
        if kind in ("turn", "tile_drawn") and data.get("legal"):
            self.legal[data["seat"]] = data["legal"]
        if kind == "hand_ended":
            self.status = "hand_over"
        elif kind == "hand_started":
            self.status = "playing"
        elif kind == "match_ended":
            self.status = "finished"

    async def request(self, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        self.sent += 1
        message["id"] = f"c{self.sent}"
        answer = self.answers[message["id"]] = asyncio.get_running_loop().create_future()
        await self.sockets[seat].send(json.dumps(message))
        return await asyncio.wait_for(answer, STALL_S)

    async def reach(self, seq: int) -> None:
        """Until both sockets have had every event up to `seq`."""
        while min(self.seen) < seq:
            await self._changed()

    async def to_act(self) -> int:
        """Until the seat to act has its legal actions; that seat."""
        while self.turn is None or self.turn not in self.legal:
            await self._changed()
        return self.turn

    async def _changed(self) -> None:
        self.changed.clear()
        await asyncio.wait_for(self.changed.wait(), STALL_S)

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for socket in self.sockets:
            await socket.close()


async def read(table: Table, seat: int) -> None:
    async for raw in table.sockets[seat]:
        table.take(seat, json.loads(raw))


# Every match here has a game number (two human seats), all from one address: the budgets on
# numbered tables (per player, address and network) would stop the run at 24, not the CPU.
TABLES_ENV = {
    **SERVER_ENV,
    "DOMINO_NUMBERED_TABLES_PER_PLAYER": "1000000",
    "DOMINO_NUMBERED_TABLES_PER_ADDRESS": "1000000",
    "DOMINO_NUMBERED_TABLES_PER_NETWORK": "1000000",
    "DOMINO_CREATE_MATCH_RATE_LIMIT": "1000000",
}


async def new_table(http: Http, port: int, tokens: list[str]) -> Table:
    await http.close()  # the server closes a keep-alive connection idle for 5 s: a new one
    seats = [{"type": "human"}, {"type": "human"}]
    status, made = await http.request(
        "POST", "/v1/matches", {"ruleset": "all-fives", "seats": seats}, tokens[0]
    )
    assert status == 201, made
    status, joined = await http.request(
        "POST", "/v1/matches/join", {"code": made["code"]}, tokens[1]
    )
    assert status == 200, joined
    status, started = await http.request("POST", f"/v1/matches/{made['id']}/start", {}, tokens[0])
    assert status == 200, started
    url = f"ws://127.0.0.1:{port}/v1/matches/{made['id']}/ws"
    sockets = [
        await connect(url, additional_headers={"Authorization": f"Bearer {t}"}, max_size=None)
        for t in tokens
    ]
    table = Table(made["id"], sockets)
    table.readers = [asyncio.create_task(read(table, seat)) for seat in (0, 1)]
    await table.reach(1)
    return table


async def play(
    table: Table, http: Http, port: int, tokens: list[str], level: Level, deadline: float
) -> Table:
    """Moves on `table` (a new one when it ends) until `deadline`; returns the table it left."""
    expect = 0  # the seq of the last ack: both sockets must have reached it
    while time.perf_counter() < deadline:
        await table.reach(expect)
        if table.status == "finished":
            await table.close()
            level.matches_done += 1
            table, expect = await new_table(http, port, tokens), 0
            continue
        if table.status == "hand_over":
            answer = await table.request(0, {"type": "next_hand"})
            assert answer["type"] == "ack", answer
            expect = answer["seq"]
            continue
        seat = await table.to_act()
        body = move_body({"legal": table.legal.pop(seat), "seq": max(table.seen)})
        started = time.perf_counter()
        answer = await table.request(seat, {"type": "move", **body})
        level.statuses[200 if answer["type"] == "ack" else 409] += 1
        assert answer["type"] == "ack", answer
        level.latencies.append(time.perf_counter() - started)
        expect = answer["seq"]
    return table


class Ours:
    """The service's matches: made before the first level, played on from level to level."""

    def __init__(self, server: ServerProcess, matches: int, name: str = "service") -> None:
        self.server, self.matches, self.name = server, matches, name
        self.profile_to: Path | None = None  # py-spy's stacks of the next level, if set
        self.players: list[tuple[Http, list[str]]] = []
        self.tables: list[Table] = []

    async def prepare(self) -> None:
        for n in range(self.matches):
            http, tokens = Http(self.server.port), []
            for seat in (0, 1):
                body = {"name": f"v{n}s{seat}"}
                status, made = await http.request("POST", "/v1/players", body)
                assert status == 201, made
                tokens.append(made["token"])
            self.players.append((http, tokens))
            self.tables.append(await new_table(http, self.server.port, tokens))

    async def level(self, seconds: float, postmaster: int) -> Level:
        if not self.tables:
            await self.prepare()
        level = Level(self.matches)
        spy = None
        if self.profile_to is not None:
            spy = profile(self.server.pid, int(seconds), self.profile_to, children=False)
        meter, client_cpu = PgMeter([self.server.pid], postmaster), time.process_time()
        started = time.perf_counter()
        deadline = started + seconds
        self.tables = await asyncio.gather(
            *(
                play(table, http, self.server.port, tokens, level, deadline)
                for table, (http, tokens) in zip(self.tables, self.players, strict=True)
            )
        )
        level.elapsed = time.perf_counter() - started
        level.cpu = {**meter.used(), "load generator": time.process_time() - client_cpu}
        if spy is not None:
            spy.wait()
        return level

    async def close(self) -> None:
        for table in self.tables:
            await table.close()


# ---------------------------------------------------------------- the bare route's side


class Bare:
    """bench/bare_app.py (FastAPI + asyncpg: cached auth, a pydantic body, the row read, one
    guarded statement saving the snapshot and an event) carrying the service's own longest
    snapshot, with as many clients as the others have matches (bench/capacity.py's level)."""

    name = "bare"

    def __init__(self, server: ServerProcess, snapshot: object, clients: int) -> None:
        self.server, self.snapshot, self.clients = server, snapshot, clients

    async def level(self, seconds: float, postmaster: int) -> Level:
        port, pid = self.server.port, self.server.pid
        return await bare_level(port, pid, self.clients, seconds, self.snapshot)

    async def close(self) -> None:
        self.server.stop(timeout=15)


async def sizes(ours_url: str, bgio_url: str) -> str:
    """The stored state of each side's longest-running match now, in bytes of JSON text."""
    conn = await asyncpg.connect(ours_url)
    try:
        ours = await conn.fetchval(
            "SELECT length(snapshot::text) FROM matches WHERE status = 'playing' "
            "ORDER BY seq DESC LIMIT 1"
        )
    finally:
        await conn.close()
    conn = await asyncpg.connect(bgio_url)
    try:
        theirs = await conn.fetchval(
            """SELECT length(state::text) FROM "Games" WHERE gameover IS NULL """
            """ORDER BY (state->>'_stateID')::int DESC LIMIT 1"""
        )
    finally:
        await conn.close()
    return f"stored state of the longest match: service snapshot {ours} B, bgio state {theirs} B"


# Ratios of server CPU per move printed per round and at the end (issue 49's goals: service /
# bgio <= 0.25, service / bare <= 1.0; `before` is the service at `--before`).
RATIOS = (
    ("service", "bgio"),
    ("service", "bare"),
    ("before", "bgio"),
    ("service", "before"),
)


def extract(commit: str) -> Path:
    """The service's source at `commit` (`git archive`, with the migrations its /readyz reads),
    for the `before` side's PYTHONPATH."""
    target = Path(tempfile.mkdtemp(prefix="versus-before-"))
    archive = subprocess.run(
        ["git", "archive", commit, "src", "migrations", "alembic.ini"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


def print_level(name: str, level: Level) -> None:
    print(
        f"{name:15s} {level.moves_per_s:6.1f} moves/s  p50 {level.pct(0.5):5.1f} ms  p99 "
        f"{level.pct(0.99):5.1f} ms  ({len(level.latencies)} moves, {level.matches_done} "
        f"matches finished)\n{'':15s} {level.cpu_line()}",
        flush=True,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds each, unmeasured")
    parser.add_argument("--profile", type=Path, default=None, help="py-spy stacks, last round")
    parser.add_argument("--before", default=None, help="a commit: its service as a fourth side")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="domino-versus-"))
    ours_url = to_plain_url(await fresh_database(OURS_DB, SERVER))
    bgio_url = await create_database(BGIO_DB, SERVER)
    postmaster = await postmaster_of(bgio_url)
    service = ServerProcess(ours_url, workdir / "service.log", env=TABLES_ENV, ready_path="/readyz")
    service.start()
    ours = Ours(service, args.matches)
    sides: list[Ours | Bgio | Bare] = [ours]
    per_move: dict[str, list[float]] = {"service": [], "bgio": [], "bare": []}
    old = None  # the service at `--before`
    if args.before:
        before_url = to_plain_url(await fresh_database(BEFORE_DB, SERVER))
        env = {**TABLES_ENV, "PYTHONPATH": str(extract(args.before))}
        old = ServerProcess(before_url, workdir / "before.log", env=env, ready_path="/readyz")
        old.start()
        sides.append(Ours(old, args.matches, "before"))
        per_move["before"] = []
    try:
        bgio = await start_bgio(bgio_url, workdir, args.matches)
        sides.append(bgio)
        await service.wait_ready_async()
        if old is not None:
            await old.wait_ready_async()
        for side in sides:
            await side.level(args.warmup, postmaster)
        # The bare route carries the longest snapshot the service's warm-up stored.
        bare_server, snapshot = await start_bare(workdir, ours_url)
        sides.append(Bare(bare_server, snapshot, args.matches))
        print(f"bare route's snapshot: {len(json.dumps(snapshot))} B", flush=True)
        for number in range(args.rounds):
            turn = number % len(sides)
            if number == args.rounds - 1:
                ours.profile_to = args.profile
            for side in sides[turn:] + sides[:turn]:
                level = await side.level(args.seconds, postmaster)
                per_move[side.name].append(level.cpu["server"] / max(len(level.latencies), 1))
                print_level(f"round {number + 1} {side.name}", level)
            for mine, other in RATIOS:
                if mine in per_move:
                    ratio = per_move[mine][-1] / per_move[other][-1]
                    print(f"    ratio {mine} / {other}: {ratio:.2f}")
        print(await sizes(ours_url, bgio_url))
        bgio.check(workdir / "bgio.log")
    finally:
        for side in sides:
            await side.close()
        service.stop(timeout=15)
        if old is not None:
            old.stop(timeout=15)
    print("server CPU per WebSocket move (ms), by round:")
    for name, values in per_move.items():
        each = ", ".join(f"{1000 * v:.2f}" for v in values)
        print(f"    {name:8s} median {1000 * statistics.median(values):.2f}  ({each})")
    for mine, other in RATIOS:
        if mine not in per_move:
            continue
        ratios = [a / b for a, b in zip(per_move[mine], per_move[other], strict=True)]
        each = ", ".join(f"{r:.2f}" for r in ratios)
        print(f"    {mine} / {other}: median {statistics.median(ratios):.2f} ({each})")
    print(f"logs in {workdir}")


if __name__ == "__main__":
    asyncio.run(main())
