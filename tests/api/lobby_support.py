"""What the lobby's API tests share (tests/api/test_lobby.py, test_lobby_edges.py): two real
server processes on one database, their clients, and a person's steps in the lobby."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.conftest import TEST_DB
from tests.support.servers import ServerProcess, uvicorn_argv

LOBBY_DB = os.environ.get("DOMINO_LOBBY_DB", f"{TEST_DB}_lobby")
LEASE_S = 2.0
# A bound for waits on what the servers do by themselves (a fan-out, a lease), not a
# measurement: only a broken lobby reaches it.
BOUND_S = 20.0


@contextmanager
def two_servers(
    database: str, logs: Path, backend_env: dict[str, str]
) -> Iterator[list[ServerProcess]]:
    """Two API processes, A and B, sharing the database and the announcement backend."""
    env = {"DOMINO_SEEK_LEASE_S": str(LEASE_S), "DOMINO_LOG_JSON": "false", **backend_env}
    started = [ServerProcess(database, logs / f"{n}.log", env=env, argv=uvicorn_argv) for n in "ab"]
    try:
        for server in started:
            server.start()
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop(signal.SIGTERM)


async def player(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


async def public_table(
    client: httpx.AsyncClient, host: dict[str, Any], preset: str, seats: int = 2
) -> dict[str, Any]:
    body = {"ruleset": preset, "seats": [{"type": "human"}] * seats}
    r = await client.post("/v1/lobby/tables", json=body, headers=host["headers"])
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


async def listing(client: httpx.AsyncClient, who: dict[str, Any], preset: str) -> list[str]:
    r = await client.get("/v1/lobby", params={"preset": preset}, headers=who["headers"])
    assert r.status_code == 200, r.text
    return [t["id"] for t in r.json()["tables"]]


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    deadline = time.monotonic() + BOUND_S
    while not await check():
        assert time.monotonic() < deadline, "the lobby never got there"
        await asyncio.sleep(0.05)


async def lobby_socket(
    server: ServerProcess, who: dict[str, Any], preset: str, seek: str | None = None
) -> ClientConnection:
    query = f"preset={preset}" + (f"&seek={seek}" if seek else "")
    ws = await connect(
        f"{server.ws_url}/v1/lobby/ws?{query}",
        additional_headers={"Authorization": f"Bearer {who['token']}"},
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))["type"] == "subscribed"
    return ws


async def next_event(ws: ClientConnection) -> dict[str, Any]:
    """The socket's next frame that is not a keepalive (a quiet socket is sent one at any
    moment of its interval: realtime/keepalive.py)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))
        if message["type"] != "keepalive":
            return message
