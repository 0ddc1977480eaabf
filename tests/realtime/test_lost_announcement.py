"""A process dies between a commit and its announcement: sockets on another process still get
the event, in order, from the catch-up or from the match's next announcement.

The writer is a subprocess that commits a step and calls the real `make_announcer`; with
`FAULT_ENV` armed it SIGKILLs itself after the commit and before announcing (see
realtime/announce.py). The sockets are on a real server process, B, over each backend.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from domino_api.realtime.fault import FAULT_ENV
from tests.realtime.conftest import SERVER_ENV
from tests.realtime.steps import run_writer
from tests.realtime.wsclient import Socket, new_player
from tests.support.servers import ServerProcess

BACKENDS = ["postgres", "nats"]
CATCH_UP_OFF = "3600"  # longer than any test: only an announcement can deliver
COMPUTER = {"type": "bot", "strategy": "plain"}


async def stored_seqs(database_url: str, match_id: str) -> list[int]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT seq FROM match_events WHERE match_id = $1 ORDER BY seq", match_id
        )
    finally:
        await conn.close()
    return [row["seq"] for row in rows]


@pytest.fixture
def server_b(
    ws_database: str, tmp_path: Path, nats_url: str
) -> Callable[[str, str], AsyncIterator[ServerProcess]]:
    async def serve(backend: str, catch_up_s: str) -> AsyncIterator[ServerProcess]:
        env = {
            **SERVER_ENV,
            "DOMINO_ANNOUNCE_BACKEND": backend,
            "DOMINO_NATS_URL": nats_url,
            "DOMINO_CATCH_UP_S": catch_up_s,
        }
        server = ServerProcess(ws_database, tmp_path / f"b-{backend}.log", env=env)
        server.start()
        try:
            await server.wait_ready_async()
            yield server
        finally:
            server.stop(signal.SIGTERM)

    return serve


def writer_env(backend: str, nats_url: str, armed: Path | None) -> dict[str, str]:
    env = {**os.environ, "DOMINO_ANNOUNCE_BACKEND": backend, "DOMINO_NATS_URL": nats_url}
    if armed is not None:
        armed.touch()
        env[FAULT_ENV] = str(armed)
    return env


async def watched_match(b: ServerProcess) -> tuple[str, dict[str, Any], Socket]:
    """A waiting match made on B against the computer (its id and host) with the host's socket
    on B. The host is its only human and her socket holds her seat, so no step comes between
    the writers' and the test's own: a guest who joined over REST and did nothing since would
    be recorded away (`seat_disconnected`) once the lease ran out (docs/API.md, "The away
    rule"), by whichever process expires it."""
    async with httpx.AsyncClient(base_url=b.base_url) as http:
        ana = await new_player(http, "Ana")
        body = {"ruleset": "house-nines", "seats": [{"type": "human"}, COMPUTER]}
        created = await http.post("/v1/matches", json=body, headers=ana["headers"])
        assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    socket = await Socket.open(b.ws_url, match_id, ana["token"], after=0)
    return match_id, ana, socket


async def talk(b: ServerProcess, match_id: str, host: dict[str, Any]) -> int:
    """A real step on B's write path after the writers' steps; its seq."""
    async with httpx.AsyncClient(base_url=b.base_url) as http:
        url = f"/v1/matches/{match_id}/messages"
        said = await http.post(url, json={"text": "still here"}, headers=host["headers"])
        assert said.status_code == 201, said.text
        view = await http.get(f"/v1/matches/{match_id}", headers=host["headers"])
    return int(view.json()["seq"])


async def received_through(socket: Socket, seq: int) -> list[int]:
    events: list[dict[str, Any]] = await socket.events_until(seq, timeout=60.0)
    return [e["seq"] for e in events]


async def crash_before_announcing(
    ws_database: str, match_id: str, backend: str, nats_url: str, tmp_path: Path
) -> int:
    """The writer commits one step and dies before announcing it; that step's seq."""
    armed = tmp_path / "armed"
    status, seq = run_writer(ws_database, match_id, writer_env(backend, nats_url, armed))
    assert status == -signal.SIGKILL, "the writer must die at the fault"
    assert (await stored_seqs(ws_database, match_id))[-1] == seq, "committed before the kill"
    return seq


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_catch_up_delivers_an_event_whose_announcement_died(
    backend: str, ws_database: str, tmp_path: Path, server_b: Any, nats_url: str
) -> None:
    async for b in server_b(backend, "1"):
        match_id, host, socket = await watched_match(b)
        lost = await crash_before_announcing(ws_database, match_id, backend, nats_url, tmp_path)
        # Nothing announced `lost`: only B's catch-up can have read it.
        assert await received_through(socket, lost) == list(range(1, lost + 1))
        status, after = run_writer(ws_database, match_id, writer_env(backend, nats_url, None))
        assert status == 0 and after == lost + 1
        assert await received_through(socket, after) == [after]
        # The service's own next step numbers after the writers' and reaches the socket too.
        said = await talk(b, match_id, host)
        assert said > after
        assert await received_through(socket, said) == list(range(after + 1, said + 1))
        assert await stored_seqs(ws_database, match_id) == list(range(1, said + 1))
        await socket.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_next_announcement_delivers_the_lost_one_first(
    backend: str, ws_database: str, tmp_path: Path, server_b: Any, nats_url: str
) -> None:
    async for b in server_b(backend, CATCH_UP_OFF):
        match_id, _host, socket = await watched_match(b)
        before = (await stored_seqs(ws_database, match_id))[-1]
        assert await received_through(socket, before) == list(range(1, before + 1))
        lost = await crash_before_announcing(ws_database, match_id, backend, nats_url, tmp_path)
        status, announced = run_writer(ws_database, match_id, writer_env(backend, nats_url, None))
        assert status == 0 and announced == lost + 1
        # One announcement of `announced`; the hub reads by seq, so `lost` comes first.
        assert await received_through(socket, announced) == list(range(before + 1, announced + 1))
        await socket.close()
