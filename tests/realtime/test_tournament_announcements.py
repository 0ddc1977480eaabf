"""Tournament events go out through the process's Announcer after their commit, on both
backends: a subscriber of the tournament's NATS subject (or a LISTEN on its PostgreSQL channel)
hears `<tournament_id>:<seq>` for the feed's last event, and every seq it hears is already
committed when it arrives. The match a start opens is announced in the same way beside it."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from nats.aio.msg import Msg

from domino_api.realtime.announce import (
    CHANNEL,
    SUBJECT_PREFIX,
    TOURNAMENT_CHANNEL,
    tournament_subject,
)
from domino_api.realtime.nats_link import connect
from tests.realtime.conftest import SERVER_ENV
from tests.realtime.wsclient import new_player
from tests.support.servers import ServerProcess

BACKENDS = ["postgres", "nats"]
# A bound for a broken test, not a measurement: announcements arrive within milliseconds.
SAFETY_S = 30.0

Heard = asyncio.Queue[tuple[str, str]]  # (what: "tournament" or "match", payload)


@asynccontextmanager
async def nats_subscriber(nats_url: str, tournament_id: str, heard: Heard) -> AsyncIterator[None]:
    nc = await connect([nats_url], "test-tournament-subscriber")

    def hearing(what: str) -> Callable[[Msg], Any]:
        async def on_message(message: Msg) -> None:
            heard.put_nowait((what, message.data.decode()))

        return on_message

    try:
        await nc.subscribe(tournament_subject(tournament_id), cb=hearing("tournament"))
        await nc.subscribe(SUBJECT_PREFIX + ">", cb=hearing("match"))
        await nc.flush()
        yield
    finally:
        await nc.close()


@asynccontextmanager
async def pg_subscriber(database: str, heard: Heard) -> AsyncIterator[None]:
    conn = await asyncpg.connect(database)
    try:
        await conn.add_listener(
            TOURNAMENT_CHANNEL, lambda *args: heard.put_nowait(("tournament", args[3]))
        )
        await conn.add_listener(CHANNEL, lambda *args: heard.put_nowait(("match", args[3])))
        yield
    finally:
        await conn.close()


def subscriber(backend: str, database: str, nats_url: str, tournament_id: str, heard: Heard) -> Any:
    if backend == "nats":
        return nats_subscriber(nats_url, tournament_id, heard)
    return pg_subscriber(database, heard)


async def committed_seq(database: str, tournament_id: str) -> int:
    conn = await asyncpg.connect(database)
    try:
        seq = await conn.fetchval(
            "SELECT coalesce(max(seq), 0) FROM tournament_events WHERE tournament_id = $1",
            tournament_id,
        )
        return int(seq)
    finally:
        await conn.close()


async def a_started_tournament(http: httpx.AsyncClient, tournament: dict[str, Any]) -> Any:
    """Two entrants enter the host's tournament and the host starts it; the started view."""
    host, guest = tournament["host"], tournament["guest"]
    for who in (host, guest):
        entered = await http.post(f"/v1/tournaments/{tournament['id']}/entrants", headers=who)
        assert entered.status_code == 200, entered.text
    started = await http.post(f"/v1/tournaments/{tournament['id']}/start", headers=host)
    assert started.status_code == 200, started.text
    return started.json()


async def new_tournament(http: httpx.AsyncClient) -> dict[str, Any]:
    host, guest = await new_player(http, "Host"), await new_player(http, "Guest")
    body = {
        "name": "Announced cup",
        "format": "single_elimination",
        "match": {"best_of": 1},
        "max_entrants": 4,
    }
    created = await http.post("/v1/tournaments", json=body, headers=host["headers"])
    assert created.status_code == 201, created.text
    return {"id": created.json()["id"], "host": host["headers"], "guest": guest["headers"]}


async def heard_until(
    heard: Heard, database: str, tournament_id: str, last: int
) -> tuple[list[int], set[str]]:
    """The tournament seqs heard until `last`, each checked to be committed on arrival, and
    the match payloads heard meanwhile."""
    seqs: list[int] = []
    matches: set[str] = set()
    while not seqs or seqs[-1] < last:
        what, payload = await asyncio.wait_for(heard.get(), SAFETY_S)
        if what == "match":
            matches.add(payload)
            continue
        announced_id, _, seq = payload.rpartition(":")
        assert announced_id == tournament_id
        # A hint to read the feed: the event it names is committed by the time it arrives.
        assert await committed_seq(database, tournament_id) >= int(seq)
        seqs.append(int(seq))
    return seqs, matches


@pytest.mark.parametrize("backend", BACKENDS)
async def test_tournament_events_reach_a_subscriber_after_their_commit(
    backend: str, ws_database: str, tmp_path: Path, nats_url: str
) -> None:
    env = {**SERVER_ENV, "DOMINO_ANNOUNCE_BACKEND": backend, "DOMINO_NATS_URL": nats_url}
    server = ServerProcess(ws_database, tmp_path / f"server-{backend}.log", env=env)
    server.start()
    try:
        await server.wait_ready_async()
        async with httpx.AsyncClient(base_url=server.base_url) as http:
            tournament = await new_tournament(http)
            heard: Heard = asyncio.Queue()
            async with subscriber(backend, ws_database, nats_url, tournament["id"], heard):
                view = await a_started_tournament(http, tournament)
                last = await committed_seq(ws_database, tournament["id"])
                # Entered twice, started, round 1 opened, its match opened.
                assert last == 5
                seqs, matches = await heard_until(heard, ws_database, tournament["id"], last)
                opened = [m["id"] for r in view["rounds"] for m in r["matches"]]
                while not any(p.startswith(f"{opened[0]}:") for p in matches):
                    what, payload = await asyncio.wait_for(heard.get(), SAFETY_S)
                    if what == "match":
                        matches.add(payload)
    finally:
        server.stop(signal.SIGTERM)
    assert seqs == sorted(seqs) and seqs[-1] == last
    assert len(opened) == 1  # the match the start opened was announced beside the feed
