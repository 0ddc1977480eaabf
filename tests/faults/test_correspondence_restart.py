"""A correspondence match played across a restart of the real server (issue 50): each turn is
pushed to the player's device through a push endpoint the test runs, and the test decrypts
it; after the restart the VAPID key is the one made on first start, and the next turn is
pushed as before. The lobby socket tells the turn too (`your_turn`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.support.push_endpoint import Delivery, Device, PushEndpoint, vapid_key_of
from tests.support.servers import SERVER_ENV, ServerProcess, drop_database, fresh_database

DB = "domino_corr_restart"
ENV = {**SERVER_ENV, "DOMINO_PUSH_ALLOW_LOCAL": "true"}


async def _player(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    made = await http.post("/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


async def _move(http: httpx.AsyncClient, auth: dict[str, Any], match_id: str) -> None:
    seen = (await http.get(f"/v1/matches/{match_id}", headers=auth)).json()
    body = dict(seen["legal"][0]) | {"seq": seen["seq"]}
    moved = await http.post(f"/v1/matches/{match_id}/moves", json=body, headers=auth)
    assert moved.status_code == 200, moved.text


async def _pushed(endpoint: PushEndpoint) -> Delivery:
    return await asyncio.to_thread(endpoint.next, 60.0)


async def test_a_correspondence_match_across_a_restart_pushes_each_turn(tmp_path: Path) -> None:
    server = ServerProcess(await fresh_database(DB), tmp_path / "api.log", env=ENV)
    server.start()
    try:
        with PushEndpoint() as endpoint:
            await server.wait_ready_async()
            await _play(server, endpoint)
    except BaseException:
        print(server.log_tail())
        raise
    finally:
        server.stop()
        await drop_database(DB)


async def _play(server: ServerProcess, endpoint: PushEndpoint) -> None:
    devices = [Device(), Device()]
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
        players = [await _player(http, "Ana"), await _player(http, "Bob")]
        key = (await http.get("/v1/push/key", headers=players[0])).json()["public_key"]
        for seat, auth in enumerate(players):
            sub = {"endpoint": endpoint.url(f"/seat{seat}"), "keys": devices[seat].keys()}
            made = await http.post("/v1/push/subscriptions", json=sub, headers=auth)
            assert made.status_code == 201, made.text
        body = {
            "ruleset": "block",
            "seats": [{"type": "human"}, {"type": "human"}],
            "options": {"per_move_s": 86_400},
        }
        created = (await http.post("/v1/matches", json=body, headers=players[0])).json()
        match_id = created["id"]
        joined = await http.post(
            "/v1/matches/join", json={"code": created["code"]}, headers=players[1]
        )
        assert joined.status_code == 200, joined.text
        started = await http.post(f"/v1/matches/{match_id}/start", json={}, headers=players[0])
        turn = started.json()["turn"]["seat"]
        first = await _pushed(endpoint)
        assert first.path == f"/seat{turn}" and vapid_key_of(first) == key
        assert devices[turn].decrypt(first.body)["match"] == match_id
        await _move(http, players[turn], match_id)
        second = await _pushed(endpoint)
        assert second.path == f"/seat{1 - turn}"
        assert devices[1 - turn].decrypt(second.body)["seat"] == 1 - turn
    server.stop()  # nobody is at the table while the service is down: no forfeit follows
    server.start()
    await server.wait_ready_async()
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
        assert (await http.get("/v1/push/key", headers=players[0])).json()["public_key"] == key
        waiting = (await http.get("/v1/turns", headers=players[1 - turn])).json()["turns"]
        assert [(t["match"], t["seat"]) for t in waiting] == [(match_id, 1 - turn)]
        told = await _lobby_turn(server, players[turn], http, players[1 - turn], match_id)
        assert told["type"] == "your_turn" and told["seat"] == turn and told["title"] == "Block"
        third = await _pushed(endpoint)
        assert third.path == f"/seat{turn}" and vapid_key_of(third) == key
        payload = devices[turn].decrypt(third.body)
        assert payload["type"] == "your_turn" and payload["match"] == match_id
        assert payload["seat"] == turn and payload["body"] == "Your turn"
        assert "hand" not in payload and "legal" not in payload
        seen = (await http.get(f"/v1/matches/{match_id}", headers=players[turn])).json()
        assert seen["status"] == "playing" and seen["turn"]["seat"] == turn
        assert payload["deadline"] == seen["turn"]["deadline"]


async def _lobby_turn(
    server: ServerProcess,
    listener: dict[str, Any],
    http: httpx.AsyncClient,
    mover: dict[str, Any],
    match_id: str,
) -> dict[str, Any]:
    """The listener's lobby socket (watching another preset) while the mover moves: the
    `your_turn` it is sent."""
    url = f"{server.ws_url}/v1/lobby/ws?preset=all-fives"
    async with websockets.connect(url, additional_headers=listener) as socket:
        assert json.loads(await socket.recv())["type"] == "subscribed"
        await _move(http, mover, match_id)
        while True:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
            if frame["type"] != "keepalive":
                return dict(frame)
