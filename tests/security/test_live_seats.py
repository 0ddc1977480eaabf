"""On a real server with real sockets: attack 8 (the host put a connected opponent on
autopilot) and the claim's other half (the old holder's sockets close with 4409)."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.realtime.wsclient import Socket
from tests.security.conftest import LiveServer, player


async def _started(
    http: httpx.AsyncClient,
) -> tuple[dict[str, Any], dict[str, Any], str, str]:
    ana, bob = await player(http, "Ana"), await player(http, "Bob")
    body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
    made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
    joined = await http.post(
        "/v1/matches/join", json={"code": made["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    started = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=ana["headers"])
    assert started.status_code == 200, started.text
    return ana, bob, made["code"], made["id"]


async def _seat_connected(http: httpx.AsyncClient, who: dict[str, Any], mid: str) -> bool:
    view = (await http.get(f"/v1/matches/{mid}", headers=who["headers"])).json()
    return bool(view["seats"][1]["connected"])


async def test_autopilot_waits_until_the_holder_has_left(live_server: LiveServer) -> None:
    env = {"DOMINO_PRESENCE_LEASE_S": "2", "DOMINO_PRESENCE_REFRESH_S": "0.5"}
    async with live_server(**env) as server, httpx.AsyncClient(base_url=server.base_url) as http:
        ana, bob, _, mid = await _started(http)
        socket = await Socket.open(server.ws_url, mid, bob["token"])
        assert (await socket.recv())["type"] == "snapshot"
        url = f"/v1/matches/{mid}/seats/1/autopilot"
        refused = await http.put(url, headers=ana["headers"])
        assert refused.status_code == 409 and refused.json()["code"] == "seat_in_use"
        assert "Bob" not in refused.text
        await socket.close()
        for _ in range(100):  # the lease lapses a couple of seconds after the socket closed
            if not await _seat_connected(http, ana, mid):
                break
            await asyncio.sleep(0.1)
        allowed = await http.put(url, headers=ana["headers"])
        assert allowed.status_code == 200, allowed.text
        assert allowed.json()["seats"][1]["autopilot"] is True


async def test_a_claim_closes_the_old_holders_sockets(live_server: LiveServer) -> None:
    # A present holder keeps its seat (issue 48): the seat is claimable while its socket is
    # still open only once the process holding that socket is gone. Process B, holding the old
    # device's socket, is frozen (SIGSTOP) until A has watched it stay silent and the lease
    # ran out; then the claim on A succeeds, and B, thawed, closes its socket with 4409.
    env = {"DOMINO_PRESENCE_LEASE_S": "1", "DOMINO_PRESENCE_REFRESH_S": "0.2"}
    async with (
        live_server(**env) as server,
        live_server(**env) as frozen,
        httpx.AsyncClient(base_url=server.base_url) as http,
    ):
        ana, bob, code, mid_id = await _started(http)
        old = await Socket.open(frozen.ws_url, mid_id, bob["token"])
        assert (await old.recv())["type"] == "snapshot"
        new_bob = await player(http, "Bob")
        os.kill(frozen.pid, signal.SIGSTOP)
        try:
            for _ in range(200):
                taken = await http.post(
                    "/v1/matches/join", json={"code": code}, headers=new_bob["headers"]
                )
                if taken.status_code != 404:
                    break
                await asyncio.sleep(0.1)
        finally:
            os.kill(frozen.pid, signal.SIGCONT)
        assert taken.status_code == 200, taken.text
        assert taken.json()["you"]["seat"] == 1
        seen = []
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(50):
                seen.append(await old.recv(timeout=10))
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4409, "seat_claimed")
        claims = [m["event"]["data"] for m in seen if m["type"] == "event"]
        assert {
            "seat": 1,
            "name": "Bob",
            "type": "human",
            "strategy": None,
            "claimed": True,
        } in claims


async def test_a_resigned_seats_socket_gets_only_public_events(live_server: LiveServer) -> None:
    async with live_server() as server, httpx.AsyncClient(base_url=server.base_url) as http:
        people = [await player(http, name) for name in ("Ana", "Bob", "Cy", "Eve")]
        ana, bob, cy, eve = people
        # Open to spectators, so Eve's socket (no seat) shows the public copies to compare with.
        body = {
            "ruleset": "house-nines",
            "seats": [{"type": "human"}] * 3,
            "options": {"spectators": True},
        }
        made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        mid = made["id"]
        for other in (bob, cy):
            joined = await http.post(
                "/v1/matches/join", json={"code": made["code"]}, headers=other["headers"]
            )
            assert joined.status_code == 200
        await http.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        mine = await Socket.open(server.ws_url, mid, cy["token"])
        outside = await Socket.open(server.ws_url, mid, eve["token"])
        for socket in (mine, outside):
            assert (await socket.recv())["type"] == "snapshot"
        resigned = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=cy["headers"])
        assert resigned.status_code == 200, resigned.text
        holders = {0: ana, 1: bob}
        last = resigned.json()["seq"]
        for _ in range(40):  # Ana and Bob play on; the computer plays seat 2 between them
            v = (await http.get(f"/v1/matches/{mid}", headers=ana["headers"])).json()
            if v["status"] != "playing":
                break
            on_turn = holders[v["turn"]["seat"]]
            seen = (await http.get(f"/v1/matches/{mid}", headers=on_turn["headers"])).json()
            legal = {k: x for k, x in seen["legal"][0].items() if k != "points" and x is not None}
            moved = await http.post(
                f"/v1/matches/{mid}/moves",
                json={**legal, "seq": seen["seq"]},
                headers=on_turn["headers"],
            )
            assert moved.status_code == 200, moved.text
            last = moved.json()["view"]["seq"]
        ours = await mine.events_until(last)
        theirs = await outside.events_until(last)
        forfeit_at = next(e["seq"] for e in ours if e["type"] == "forfeit")
        ours = [e for e in ours if forfeit_at < e["seq"] <= last]
        theirs = [e for e in theirs if forfeit_at < e["seq"] <= last]
        assert any(e["data"].get("seat") == 2 for e in theirs), "seat 2 never moved"
        assert ours == theirs  # from the forfeit on, what anyone outside the table sees
