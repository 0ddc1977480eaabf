"""Presence an outage cannot forge (issue 48, item 1): a PostgreSQL outage longer than the
presence lease, while a player's socket stays open on another API process, must not make that
player look gone to the first request after it.

The attack: H hosts a two-seat All Fives table, V joins and plays with a socket on process B;
PostgreSQL stops (or is frozen with SIGSTOP) for longer than the lease; the moment it is back,
H's release of V's seat, a stranger's claim by V's name and H's autopilot all succeeded, and
H's second account, joining by number, saw V's whole hand. Nobody could renew the socket's
lease while the database was away. Here the lease is short (`DOMINO_PRESENCE_LEASE_S`) so the
outage is too, and B stays frozen (SIGSTOP) while the acts are tried on A, so B cannot renew
first by luck: each is refused however the processes are scheduled. Then a holder who really
left (the socket closed) is still released once the lease has run out.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from tests.faults.conftest import api_processes
from tests.faults.load import Answers, answering
from tests.faults.postgres import PgServer, ServerDir
from tests.realtime.wsclient import Socket, new_player
from tests.support.servers import fresh_database

LEASE_S = 6.0
REFRESH_S = 2.0  # a process silent for 3 refreshes of watching is gone (jobs/witness.py)
ENV = {"DOMINO_PRESENCE_LEASE_S": str(LEASE_S), "DOMINO_PRESENCE_REFRESH_S": str(REFRESH_S)}


async def _table(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any], str, str]:
    host, victim = await new_player(http, "Hana"), await new_player(http, "Vic")
    body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
    made = (await http.post("/v1/matches", json=body, headers=host["headers"])).json()
    joined = await http.post(
        "/v1/matches/join", json={"code": made["code"]}, headers=victim["headers"]
    )
    assert joined.status_code == 200, joined.text
    started = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=host["headers"])
    assert started.status_code == 200, started.text
    return host, victim, made["code"], made["id"]


async def _nobody_takes_the_seat(
    http: httpx.AsyncClient, host: dict[str, Any], code: str, mid: str, hand: list[Any]
) -> None:
    """Release, a claim by the holder's name, autopilot: all refused, and no other account's
    view holds the holder's tiles."""
    released = await http.delete(f"/v1/matches/{mid}/seats/1/holder", headers=host["headers"])
    assert released.status_code == 409, released.text
    assert released.json()["code"] == "seat_in_use"
    stranger = await new_player(http, "Mallory")
    claim = await http.post(
        "/v1/matches/join", json={"code": code, "name": "Vic"}, headers=stranger["headers"]
    )
    assert claim.status_code == 404, claim.text
    autopilot = await http.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=host["headers"])
    assert autopilot.status_code == 409, autopilot.text
    second = await new_player(http, "Hana")  # the host's second account
    joined = await http.post("/v1/matches/join", json={"code": code}, headers=second["headers"])
    assert joined.status_code == 404, joined.text
    for someone in (stranger, second):
        view = await http.get(f"/v1/matches/{mid}", headers=someone["headers"])
        if view.status_code < 400:  # a spectator's view at most: nobody's hand
            you = view.json().get("you")
            assert you is None or you["hand"] != hand, view.text


def _signal_all(server: PgServer, sig: int) -> None:
    """`sig` to the postmaster and every backend: SIGSTOP freezes the whole server (its
    clients' statements hang rather than fail), SIGCONT thaws it."""
    pid = server.pid()
    assert pid is not None
    postmaster = psutil.Process(pid)
    for process in [postmaster, *postmaster.children(recursive=True)]:
        process.send_signal(sig)


async def _away(server: PgServer, how: str) -> None:
    """PostgreSQL away for longer than the lease: stopped, or frozen."""
    if how == "stop":
        await asyncio.to_thread(server.stop)
    else:
        _signal_all(server, signal.SIGSTOP)
    await asyncio.sleep(LEASE_S * 1.5)  # longer than the lease: nobody could renew it


async def _back(server: PgServer, how: str) -> None:
    if how == "stop":
        await asyncio.to_thread(server.start)
    else:
        _signal_all(server, signal.SIGCONT)


@pytest.mark.parametrize("how", ["stop", "freeze"])
async def test_an_outage_does_not_age_a_present_holders_lease(
    pg_dir: ServerDir, tmp_path: Path, record_property: Any, how: str
) -> None:
    server = PgServer(pg_dir, "presence")
    server.init()
    server.start()
    url = await fresh_database("domino", server.url())
    async with api_processes(url, tmp_path, 2, env=ENV) as (a, b):
        http = httpx.AsyncClient(base_url=a.base_url, timeout=30.0)
        host, victim, code, mid = await _table(http)
        mine = (await http.get(f"/v1/matches/{mid}", headers=victim["headers"])).json()
        hand = mine["you"]["hand"]
        assert len(hand) == 7
        socket = await Socket.open(b.ws_url, mid, victim["token"])
        assert (await socket.recv())["type"] == "snapshot"
        await _nobody_takes_the_seat(http, host, code, mid, hand)  # present: as before

        await _away(server, how)
        os.kill(b.pid, signal.SIGSTOP)  # B, holding V's socket, cannot renew before A acts
        try:
            await _back(server, how)
            up = time.monotonic()
            await answering(http, 0, Answers(), up)
            await _nobody_takes_the_seat(http, host, code, mid, hand)
        finally:
            os.kill(b.pid, signal.SIGCONT)
        record_property("outage_s", round(LEASE_S * 1.5, 1))
        await asyncio.sleep(REFRESH_S * 2)  # B renews what its socket holds, and records it
        await _nobody_takes_the_seat(http, host, code, mid, hand)

        # A holder who really left is released once the lease has run out.
        await socket.close()
        for _ in range(600):
            released = await http.delete(
                f"/v1/matches/{mid}/seats/1/holder", headers=host["headers"]
            )
            if released.status_code != 409:
                break
            await asyncio.sleep(0.1)
        assert released.status_code == 200, released.text
        assert released.json()["seats"][1]["connected"] is False
        await http.aclose()
