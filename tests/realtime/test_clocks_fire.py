"""Clocks fire with nothing else running: each API process sweeps (jobs/loop.py), so a table
played only over sockets forfeits a seat that lets its turn clock run out, and the forfeit
reaches the sockets. With several processes and a worker sweeping at once, each seat forfeits
once."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from tests.realtime.conftest import SERVER_ENV
from tests.realtime.wsclient import Socket, new_player, start
from tests.support.servers import ROOT, ServerProcess

CLOCK = {"turn_clock": {"allowance_s": 1, "grace_s": 1}}


async def _clocked_table(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any], str]:
    ana, bob = await new_player(http, "Ana"), await new_player(http, "Bob")
    body = {"ruleset": "classic", "seats": [{"type": "human"}] * 2, "options": CLOCK}
    created = await http.post("/v1/matches", json=body, headers=ana["headers"])
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    code = created.json()["code"]
    joined = await http.post("/v1/matches/join", json={"code": code}, headers=bob["headers"])
    assert joined.status_code == 200, joined.text
    return ana, bob, match_id


async def test_a_socket_only_table_forfeits_on_its_clock_with_no_worker(
    servers: list[ServerProcess],
) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, match_id = await _clocked_table(http)
        sockets = [
            await Socket.open(b.ws_url, match_id, ana["token"]),
            await Socket.open(a.ws_url, match_id, bob["token"]),
        ]
        try:
            for socket in sockets:
                assert (await socket.recv())["type"] == "snapshot"
            await start(http, ana, match_id)
            # Nobody moves and no request reads the match: only the processes' own sweep
            # loops can enforce the deadline, and the sockets must hear it.
            for socket in sockets:
                forfeit = await _next_event(socket, "forfeit")
                assert forfeit["data"]["cause"] == "clock"
                ended = await _next_event(socket, "match_ended")
                assert ended["seq"] > forfeit["seq"]
        finally:
            for socket in sockets:
                await socket.close()


async def _next_event(socket: Socket, kind: str) -> dict[str, Any]:
    while True:
        # The bound only keeps a broken build from hanging the suite (no timing is asserted).
        message = await socket.recv(timeout=60.0)
        if message["type"] == "event" and message["event"]["type"] == kind:
            event: dict[str, Any] = message["event"]
            return event


async def test_processes_and_a_worker_forfeit_each_seat_once(
    servers: list[ServerProcess], ws_database: str, tmp_path: Path
) -> None:
    a, _ = servers
    env = {**SERVER_ENV, "DOMINO_DATABASE_URL": ws_database}
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "domino_api.cli", "worker", "--interval", "0.2"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        async with httpx.AsyncClient(base_url=a.base_url) as http:
            tables = [await _clocked_table(http) for _ in range(12)]
            for ana, _, match_id in tables:
                await start(http, ana, match_id)
            ids = [match_id for _, _, match_id in tables]
            kinds = await _wait_over(ws_database, ids)
    finally:
        worker.terminate()
        worker.wait(timeout=20)
        log.close()
    for match_id in ids:
        assert kinds[match_id]["forfeit"] == 1, kinds[match_id]
        assert kinds[match_id]["match_ended"] == 1


async def _wait_over(url: str, ids: list[str]) -> dict[str, Counter[str]]:
    conn = await asyncpg.connect(url)
    try:
        for _ in range(600):  # a bound against a broken build hanging the suite, not a timing
            over = await conn.fetchval(
                "SELECT count(*) FROM matches WHERE id = ANY($1::text[]) AND status = 'finished'",
                ids,
            )
            if over == len(ids):
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError(f"only {over} of {len(ids)} clocked matches ended")
        rows = await conn.fetch(
            "SELECT match_id, type FROM match_events WHERE match_id = ANY($1::text[])", ids
        )
    finally:
        await conn.close()
    kinds: dict[str, Counter[str]] = {match_id: Counter() for match_id in ids}
    for row in rows:
        kinds[row["match_id"]][row["type"]] += 1
    return kinds
