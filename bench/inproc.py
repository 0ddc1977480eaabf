"""The app in one process, without HTTP or a load generator: CPU and statements per move.

    DOMINO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/inproc.py [--clients 16] [--seconds 8] 2>/dev/null

(stderr carries the app's access lines, one per request, written as a server writes them.)

The real app (`create_app`, its lifespan: the write core, the computers' workers, the
announcer) on a database of its own (`domino_ops_inproc`), driven by raw ASGI calls from
`--clients` players each playing All Fives to 50 against `plain`, match after match, as
bench/load.py's clients do over HTTP (the think floor off). After a warm-up it reports the CPU
per move request of this process (the app, plus the little the raw calls cost) and of the
computers' workers, and the statements sent to PostgreSQL per move by their first words (every
asyncpg `execute`, `fetch`, `fetchrow` and `fetchval`): what a move costs the app itself, with
no uvicorn and no client beside it on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import OPTIONS, RULESET, SERVER_ENV, move_body  # noqa: E402

from tests.support import servers  # noqa: E402

STATEMENTS: Counter[str] = Counter()


def count_statements() -> None:
    """Every statement asyncpg runs (the ORM's too: SQLAlchemy runs them through asyncpg):
    `_execute` carries those with parameters and the fetches, `execute` alone the others."""
    connection = asyncpg.connection.Connection
    with_parameters, plain = connection._execute, connection.execute

    def count(query: str) -> None:
        STATEMENTS[" ".join(query.split()[:3])[:48]] += 1

    async def _execute(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        count(query)
        return await with_parameters(self, query, *args, **kw)

    async def execute(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        if not args:
            count(query)
        return await plain(self, query, *args, **kw)

    connection._execute, connection.execute = _execute, execute


async def call(app: Any, method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
    payload = json.dumps(body).encode()
    headers = [(b"host", b"inproc"), (b"content-length", str(len(payload)).encode())]
    headers.append((b"content-type", b"application/json"))
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    messages = [{"type": "http.request", "body": payload, "more_body": False}]
    status, chunks = [0], []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # no disconnect: the answer is read whole
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]
        else:
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status[0], json.loads(b"".join(chunks) or b"null")


async def play(app: Any, index: int, moves: list[int], deadline: float) -> None:
    status, made = await call(app, "POST", "/v1/players", {"name": f"inproc{index}"}, None)
    assert status == 201, made
    token, seats = made["token"], [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    while time.perf_counter() < deadline:
        body = {"ruleset": RULESET, "options": OPTIONS, "seats": seats}
        status, view = await call(app, "POST", "/v1/matches", body, token)
        assert status == 201, view
        path = f"/v1/matches/{view['id']}"
        status, view = await call(app, "POST", f"{path}/start", {}, token)
        while time.perf_counter() < deadline and view["status"] in ("playing", "hand_over"):
            if view["status"] == "hand_over":
                status, view = await call(app, "POST", f"{path}/hands", {}, token)
                continue
            status, answer = await call(app, "POST", f"{path}/moves", move_body(view), token)
            assert status == 200, answer
            moves[0] += 1
            view = answer["view"]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    args = parser.parse_args()
    # The benchmarks' servers' settings (bench/load.py): JSON access lines at INFO, as in
    # production, budgets out of reach, the think floor off.
    os.environ.update({**servers.SERVER_ENV, **SERVER_ENV})
    from domino_api.app.api import create_app
    from domino_api.config import get_settings
    from domino_api.logs import configure_logging

    configure_logging(get_settings())
    count_statements()
    app = create_app(database_url=await servers.fresh_database("domino_ops_inproc"))
    async with app.router.lifespan_context(app):
        here = psutil.Process()
        for seconds in (args.warmup, args.seconds):  # a warm-up, then the measure
            moves, workers = [0], here.children()
            STATEMENTS.clear()
            api, spent = sum(here.cpu_times()[:2]), sum(sum(w.cpu_times()[:2]) for w in workers)
            deadline = time.perf_counter() + seconds
            await asyncio.gather(*(play(app, n, moves, deadline) for n in range(args.clients)))
            api = sum(here.cpu_times()[:2]) - api
            spent = sum(sum(w.cpu_times()[:2]) for w in workers) - spent
        n = max(moves[0], 1)
        print(
            f"{moves[0]} moves by {args.clients} clients in {args.seconds:.0f} s: API process "
            f"{1000 * api / n:.3f} ms/move, workers {1000 * spent / n:.3f} ms/move"
        )
        for statement, count in STATEMENTS.most_common(12):
            print(f"  {count / n:6.3f} per move  {statement}")


if __name__ == "__main__":
    import uvloop

    uvloop.run(main())
