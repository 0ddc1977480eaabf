"""A socket process (`DOMINO_ROLE=sockets`) beside an API process, as docs/OPERATING.md's
"Socket processes" runs them: real processes, one NATS server, one PostgreSQL. The socket
process serves the watch and lobby sockets and the probes, nothing that writes; what is done
through the API process reaches its sockets through NATS alone (the catch-up is off).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.api.lobby_support import lobby_socket, next_event, public_table
from tests.realtime.conftest import SERVER_ENV
from tests.realtime.test_lost_announcement import stored_seqs
from tests.realtime.wsclient import Socket, new_player, rest_step, start
from tests.support.servers import ServerProcess
from tests.support.services import NatsNode

WAIT_S = 60.0  # a bound on any one wait, generous for a loaded machine


async def watch(server: ServerProcess, match_id: str, who: dict[str, Any]) -> Socket:
    url = f"{server.ws_url}/v1/matches/{match_id}/watch/ws"
    headers = {"Authorization": f"Bearer {who['token']}"}
    return Socket(await connect(url, additional_headers=headers, max_size=None))


async def watched_table(http: httpx.AsyncClient) -> tuple[dict[int, Any], dict[str, Any], str]:
    """Ana and Bob at a started table that welcomes spectators; Eve, who watches."""
    ana, bob, eve = [await new_player(http, name) for name in ("Ana", "Bob", "Eve")]
    body = {
        "ruleset": "house-nines",
        "seats": [{"type": "human"}, {"type": "human"}],
        "options": {"target": 20, "spectators": True},
    }
    created = await http.post("/v1/matches", json=body, headers=ana["headers"])
    assert created.status_code == 201, created.text
    code = {"code": created.json()["code"]}
    joined = await http.post("/v1/matches/join", json=code, headers=bob["headers"])
    assert joined.status_code == 200, joined.text
    match_id = created.json()["id"]
    await start(http, ana, match_id)
    return {0: ana, 1: bob}, eve, match_id


async def test_a_socket_process_serves_watchers_and_the_lobby_from_the_api_process(
    ws_database: str, tmp_path: Path
) -> None:
    node = NatsNode("sockets", tmp_path)
    node.start()
    env = {
        **SERVER_ENV,
        "DOMINO_ANNOUNCE_BACKEND": "nats",
        "DOMINO_NATS_URL": node.url,
        "DOMINO_CATCH_UP_S": "3600",  # nothing but NATS brings the API process's steps
    }
    api = ServerProcess(ws_database, tmp_path / "api.log", env=env)
    sockets = ServerProcess(
        ws_database, tmp_path / "sockets.log", env={**env, "DOMINO_ROLE": "sockets"}
    )
    try:
        await node.wait_ready()
        for server in (api, sockets):
            server.start()
        for server in (api, sockets):
            await server.wait_ready_async()
        async with httpx.AsyncClient(base_url=api.base_url) as http:
            holders, eve, match_id = await watched_table(http)
            await _serves_nothing_that_writes(sockets, match_id, eve)
            await _watchers_follow_the_api(sockets, api, http, match_id, holders, eve)
            await _the_lobby_follows_the_api(sockets, http, eve)
    except BaseException:
        print(api.log_tail(), sockets.log_tail(), sep="\n")
        raise
    finally:
        for server in (api, sockets):
            server.stop()
        node.kill()


async def _serves_nothing_that_writes(
    sockets: ServerProcess, match_id: str, eve: dict[str, Any]
) -> None:
    async with httpx.AsyncClient(base_url=sockets.base_url) as only:
        assert (await only.get("/healthz")).status_code == 200
        assert (await only.get("/metrics")).status_code == 200
        made = await only.post("/v1/players", json={"name": "Zed"})
        assert made.status_code == 404 and made.json()["code"] == "not_found"
        view = await only.get(f"/v1/matches/{match_id}", headers=eve["headers"])
        assert view.status_code == 404
    with pytest.raises(InvalidStatus):  # the table's socket (moves) is the API process's
        await Socket.open(sockets.ws_url, match_id, eve["token"])


async def _watchers_follow_the_api(
    sockets: ServerProcess,
    api: ServerProcess,
    http: httpx.AsyncClient,
    match_id: str,
    holders: dict[int, Any],
    eve: dict[str, Any],
) -> None:
    spectator = await watch(sockets, match_id, eve)
    seated = await watch(sockets, match_id, holders[0])  # a seat's holder watching: public too
    on_api = await watch(api, match_id, eve)
    for socket in (spectator, seated, on_api):
        snapshot = await socket.recv(WAIT_S)
        assert snapshot["type"] == "snapshot", snapshot
        assert snapshot["view"]["you"] is None and snapshot["view"]["code"] is None
    since = snapshot["view"]["seq"]
    await spectator.send({"type": "ping", "id": "p1"})
    assert await spectator.recv(WAIT_S) == {"type": "pong", "id": "p1"}
    refused = await spectator.request({"type": "move", "action": "pass", "seq": since})
    assert refused["type"] == "error" and refused["error"]["code"] == "bad_request", refused

    for _ in range(4):
        await rest_step(http, match_id, holders)  # moves through the API process
    last = (await stored_seqs(api.database_url, match_id))[-1]
    assert last > since
    for socket in (spectator, seated, on_api):
        events = await socket.events_until(last, timeout=WAIT_S)
        assert [e["seq"] for e in events] == list(range(since + 1, last + 1))
        for event in events:  # the public copies: nobody's tiles in hand
            assert "hand" not in event.get("data", {}), event
        await socket.close()


async def _the_lobby_follows_the_api(
    sockets: ServerProcess, http: httpx.AsyncClient, eve: dict[str, Any]
) -> None:
    ws = await lobby_socket(sockets, eve, "house-nines")
    try:
        host, guest = await new_player(http, "Host"), await new_player(http, "Guest")
        made = await public_table(http, host, "house-nines", seats=3)
        table_id = made["table"]["id"]
        opened = await _next_of(ws, "table_opened")
        assert opened["table"]["id"] == table_id
        joined = await http.post(
            f"/v1/lobby/tables/{table_id}/join", json={}, headers=guest["headers"]
        )
        assert joined.status_code == 200, joined.text
        changed = await _next_of(ws, "seats_changed")
        assert changed["table"]["id"] == table_id and changed["table"]["free_seats"] == 1
    finally:
        await ws.close()


async def _next_of(ws: Any, kind: str) -> dict[str, Any]:
    async def wanted() -> dict[str, Any]:
        while True:
            event = await next_event(ws)
            if event["type"] == kind:
                return event

    return await asyncio.wait_for(wanted(), WAIT_S)
