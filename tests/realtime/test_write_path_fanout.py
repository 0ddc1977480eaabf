"""Fan-out over the real write path, on both backends: moves made on process A reach sockets
on process B in order and without gaps, from the announcements alone (B's catch-up is off), and
a move whose process dies after the commit and before the announcement still reaches them (by
B's catch-up)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx
import pytest

from domino_api.realtime.fault import FAULT_ENV
from tests.realtime.conftest import SERVER_ENV
from tests.realtime.test_lost_announcement import received_through, stored_seqs
from tests.realtime.wsclient import Socket, rest_step, seat_sockets, start, two_seat_match
from tests.support.servers import ServerProcess

BACKENDS = ["postgres", "nats"]
CATCH_UP_OFF = "3600"


class Pair:
    """Servers A and B over one database, on one backend; A may carry the fault."""

    def __init__(
        self,
        database: str,
        logs: Path,
        backend: str,
        b_catch_up: str,
        fault: Path | None,
        nats_url: str,
    ):
        base = {**SERVER_ENV, "DOMINO_ANNOUNCE_BACKEND": backend, "DOMINO_NATS_URL": nats_url}
        a_env = {**base, "DOMINO_CATCH_UP_S": CATCH_UP_OFF}
        if fault is not None:
            a_env[FAULT_ENV] = str(fault)
        self.a = ServerProcess(database, logs / f"a-{backend}.log", env=a_env)
        b_env = {**base, "DOMINO_CATCH_UP_S": b_catch_up}
        self.b = ServerProcess(database, logs / f"b-{backend}.log", env=b_env)

    async def __aenter__(self) -> Pair:
        for server in (self.a, self.b):
            server.start()
        for server in (self.a, self.b):
            await server.wait_ready_async()
        return self

    async def __aexit__(self, *_: object) -> None:
        for server in (self.a, self.b):
            server.stop(signal.SIGTERM)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_moves_on_a_reach_sockets_on_b_from_the_announcements(
    backend: str, ws_database: str, tmp_path: Path, nats_url: str
) -> None:
    async with Pair(ws_database, tmp_path, backend, CATCH_UP_OFF, None, nats_url) as pair:
        async with httpx.AsyncClient(base_url=pair.a.base_url) as http:
            # A target no hand reaches: playing the first legal action, 88 of 3,000 deals
            # ended the match (to 20) by a domino within the 12 actions; a CI run met one.
            ana, bob, created = await two_seat_match(http, target=300)
            match_id, holders = created["id"], {0: ana, 1: bob}
            watchers = await seat_sockets(pair.b.ws_url, match_id, holders, after=0)
            await start(http, ana, match_id)
            for _ in range(12):  # REST moves on A
                status = await rest_step(http, match_id, holders)
                assert status in ("playing", "hand_over")
        stored = await stored_seqs(ws_database, match_id)
        assert stored == list(range(1, len(stored) + 1)) and len(stored) > 12
        for socket in watchers.values():
            got = await received_through(socket, stored[-1])
            assert got[: len(stored)] == stored
            await socket.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_move_whose_process_died_before_announcing_reaches_b(
    backend: str, ws_database: str, tmp_path: Path, nats_url: str
) -> None:
    armed = tmp_path / "armed"
    async with Pair(ws_database, tmp_path, backend, "1", armed, nats_url) as pair:
        async with httpx.AsyncClient(base_url=pair.a.base_url) as http:
            ana, bob, created = await two_seat_match(http)
            match_id, holders = created["id"], {0: ana, 1: bob}
            await start(http, ana, match_id)
            socket = await Socket.open(pair.b.ws_url, match_id, ana["token"], after=0)
            before = (await stored_seqs(ws_database, match_id))[-1]
            assert (await received_through(socket, before))[-1] == before
            armed.touch()
            with pytest.raises(httpx.HTTPError):  # A dies inside this request
                await rest_step(http, match_id, holders)
        assert pair.a.process is not None
        assert pair.a.process.wait(timeout=30) == -signal.SIGKILL
        stored = await stored_seqs(ws_database, match_id)
        assert stored[-1] > before, "the move was committed before A died"
        got: list[Any] = await received_through(socket, stored[-1])
        assert got == list(range(before + 1, stored[-1] + 1))
        await socket.close()
