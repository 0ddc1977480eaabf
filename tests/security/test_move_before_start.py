"""Issue 26, item 10: a move at a table that has not started is `409 match_not_started`, over
REST and the socket alike (it answered `stale_seq`, which sent clients re-reading a seq that
no move could ever match), and it changes nothing."""

from __future__ import annotations

from typing import Any

import httpx

from tests.realtime.wsclient import Socket
from tests.security.conftest import LiveServer, player

MOVES = [
    {"action": "play", "tile": [6, 6], "seq": 0},
    {"action": "play", "tile": [6, 6], "seq": 2},
    {"action": "draw", "seq": 99},
    {"action": "pass", "seq": 1},
]


async def _waiting(http: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any]]:
    ana = await player(http, "Ana")
    body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
    made = await http.post("/v1/matches", json=body, headers=ana["headers"])
    assert made.status_code == 201, made.text
    return ana, made.json()


async def test_a_move_before_the_deal_is_match_not_started_over_rest(
    client: httpx.AsyncClient,
) -> None:
    ana, made = await _waiting(client)
    for move in MOVES:
        r = await client.post(f"/v1/matches/{made['id']}/moves", json=move, headers=ana["headers"])
        assert r.status_code == 409 and r.json()["code"] == "match_not_started", r.text
    after = (await client.get(f"/v1/matches/{made['id']}", headers=ana["headers"])).json()
    assert after["status"] == "waiting"
    events = await client.get(
        f"/v1/matches/{made['id']}/events", params={"after": made["seq"]}, headers=ana["headers"]
    )
    # Nothing but the caller's presence (a request counts as presence) was recorded.
    assert {e["type"] for e in events.json()["events"]} <= {"seat_connected"}


async def test_a_move_before_the_deal_is_match_not_started_over_the_socket(
    live_server: LiveServer,
) -> None:
    async with live_server() as server, httpx.AsyncClient(base_url=server.base_url) as http:
        ana, made = await _waiting(http)
        socket = await Socket.open(server.ws_url, made["id"], ana["token"])
        try:
            assert (await socket.recv())["type"] == "snapshot"
            for move in MOVES:
                answer = await socket.request({"type": "move", **move})
                assert answer["type"] == "error", answer
                assert answer["error"]["code"] == "match_not_started", answer
                assert answer["error"]["status"] == 409
        finally:
            await socket.close()
