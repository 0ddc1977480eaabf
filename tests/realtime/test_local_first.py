"""Local first: a process hands its own commits to its own hub at once; NATS only carries them
to the other processes. With the NATS server hung (SIGSTOP), a socket on the process that
committed a move still gets it, while a socket on another process gets it once NATS is back,
and neither socket ever sees an event twice or out of order, although the process that
committed later hears its own announcement again through NATS.

Both processes run with the catch-up off, so nothing but the local hand-over (while NATS is
stopped) and the announcements can deliver a move.
"""

from __future__ import annotations

import asyncio
import signal
import time
from datetime import datetime
from pathlib import Path

import httpx

from tests.realtime.conftest import SERVER_ENV
from tests.realtime.test_lost_announcement import stored_seqs
from tests.realtime.wsclient import Socket, rest_step, start, two_seat_match
from tests.support.servers import ServerProcess
from tests.support.services import NatsNode, stop_all

CATCH_UP_OFF = "3600"
# A bound on any one wait for events, generous for a loaded machine.
WAIT_S = 60.0


async def _events_through(socket: Socket, seq: int, got: list[int]) -> float:
    """Receive event frames into `got` until `seq` has arrived (keepalives come meanwhile, so
    the bound is on the whole wait); returns the milliseconds from the last one's commit (its
    `at`, stamped before the commit) to its receipt."""

    async def receive() -> float:
        lag = 0.0
        while not got or got[-1] < seq:
            message = await socket.recv(timeout=WAIT_S)
            if message["type"] == "event":
                got.append(message["event"]["seq"])
                at = datetime.fromisoformat(message["event"]["at"].replace("Z", "+00:00"))
                lag = (time.time() - at.timestamp()) * 1000
        return lag

    return await asyncio.wait_for(receive(), WAIT_S)


async def test_own_commits_reach_local_sockets_while_nats_is_stopped(
    ws_database: str, tmp_path: Path
) -> None:
    node = NatsNode("solo", tmp_path)
    node.start()
    env = {
        **SERVER_ENV,
        "DOMINO_ANNOUNCE_BACKEND": "nats",
        "DOMINO_NATS_URL": node.url,
        "DOMINO_CATCH_UP_S": CATCH_UP_OFF,
    }
    a = ServerProcess(ws_database, tmp_path / "a.log", env=env)
    b = ServerProcess(ws_database, tmp_path / "b.log", env=env)
    try:
        await node.wait_ready()
        for server in (a, b):
            server.start()
        for server in (a, b):
            await server.wait_ready_async()
        async with httpx.AsyncClient(base_url=a.base_url) as http:
            ana, bob, created = await two_seat_match(http)
            match_id, holders = created["id"], {0: ana, 1: bob}
            await start(http, ana, match_id)
            local = await Socket.open(a.ws_url, match_id, ana["token"], after=0)
            remote = await Socket.open(b.ws_url, match_id, ana["token"], after=0)
            got_local: list[int] = []
            got_remote: list[int] = []
            before = (await stored_seqs(ws_database, match_id))[-1]
            await _events_through(local, before, got_local)
            await _events_through(remote, before, got_remote)

            node.pause()
            await rest_step(http, match_id, holders)
            moved = (await stored_seqs(ws_database, match_id))[-1]
            assert moved > before
            latency_ms = await _events_through(local, moved, got_local)
            # Nothing but the local hand-over could have delivered it: NATS is still stopped.
            assert node.paused()
            print(f"\nlocal delivery with NATS stopped: {latency_ms:.1f} ms (commit to receipt)")

            node.resume()
            await _events_through(remote, moved, got_remote)  # by NATS, now it is back
            for _ in range(3):  # more moves after A has heard its own announcement again
                await rest_step(http, match_id, holders)
            last = (await stored_seqs(ws_database, match_id))[-1]
            await _events_through(local, last, got_local)
            await _events_through(remote, last, got_remote)
            await local.close()
            await remote.close()
        assert got_local == list(range(1, last + 1))
        assert got_remote == list(range(1, last + 1))
    finally:
        for server in (a, b):
            server.stop(signal.SIGTERM)
        stop_all([node])
