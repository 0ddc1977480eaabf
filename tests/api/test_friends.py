"""Friends (issue 50): a request the other accepts, the list with who is online, blocks, and
every bad input a 4xx problem. Presence is driven through the process's `Online` (the lobby
socket's arrive and leave, the presence pass's expiry) on the test's clock; the socket's own
part (its events as they happen) is tests/web/test_friends.py's."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import httpx
from fastapi import FastAPI

from domino_api.clock import FakeClock
from domino_api.store.db import to_plain_url
from tests.api.helpers import new_player


async def friends_of(client: httpx.AsyncClient, who: dict[str, Any]) -> dict[str, Any]:
    r = await client.get("/v1/friends", headers=who["headers"])
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def add(client: httpx.AsyncClient, who: dict[str, Any], **named: str) -> httpx.Response:
    return await client.post("/v1/friends", json=named, headers=who["headers"])


async def told(database: str, who: dict[str, Any]) -> list[dict[str, Any]]:
    """The events stored for this player's lobby sockets alone, in order."""
    conn = await asyncpg.connect(to_plain_url(database))
    try:
        rows = await conn.fetch(
            "SELECT body FROM lobby_events WHERE player_id = $1 ORDER BY seq", who["id"]
        )
    finally:
        await conn.close()
    return [json.loads(r["body"]) for r in rows]


async def befriend(client: httpx.AsyncClient, one: dict[str, Any], other: dict[str, Any]) -> None:
    assert (await add(client, one, id=other["id"])).json()["status"] == "requested"
    assert (await add(client, other, id=one["id"])).json()["status"] == "friends"


async def test_a_request_the_other_accepts_makes_friends_both_ways(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    r = await add(client, ana, name="bob")  # a name, in any case
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "requested", "player": {"id": bob["id"], "name": "Bob"}}
    assert (await friends_of(client, ana))["outgoing"] == [{"id": bob["id"], "name": "Bob"}]
    mine = await friends_of(client, bob)
    assert mine["incoming"] == [{"id": ana["id"], "name": "Ana"}] and mine["friends"] == []
    assert (await add(client, ana, id=bob["id"])).json()["status"] == "requested"  # again: same
    assert [e["type"] for e in await told(clean_db, bob)] == ["friend_request"]

    r = await add(client, bob, id=ana["id"])
    assert r.json()["status"] == "friends"
    for me, other in ((ana, bob), (bob, ana)):
        listed = await friends_of(client, me)
        assert [(f["id"], f["name"], f["online"]) for f in listed["friends"]] == [
            (other["id"], other["name"], False)
        ]
        assert listed["incoming"] == listed["outgoing"] == []
        added = (await told(clean_db, me))[-1]
        assert added == {
            "type": "friend_added",
            "player": {"id": other["id"], "name": other["name"]},
            "online": False,
        }

    r = await client.delete(f"/v1/friends/{bob['id']}", headers=ana["headers"])
    assert r.status_code == 204
    for me in (ana, bob):
        assert await friends_of(client, me) == {"friends": [], "incoming": [], "outgoing": []}


async def test_bad_friend_requests_are_problems_and_change_nothing(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    await new_player(client, "Cy")
    await new_player(client, "Cy")
    cases = [
        ({"id": "no-such-player"}, 404, "player_not_found"),
        ({"name": "Nobody"}, 404, "player_not_found"),
        ({"id": ana["id"]}, 409, "yourself"),
        ({"name": "Cy"}, 409, "name_ambiguous"),
        ({"id": ana["id"], "name": "Ana"}, 422, "validation_error"),
        ({}, 422, "validation_error"),
        ({"id": "x" * 37}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        r = await client.post("/v1/friends", json=body, headers=ana["headers"])
        assert r.status_code == status, (body, r.text)
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["code"] == code, body
    r = await client.delete("/v1/friends/no-such-player", headers=ana["headers"])
    assert r.status_code == 404 and r.json()["code"] == "player_not_found"
    assert (await client.get("/v1/friends")).status_code == 401
    assert await friends_of(client, ana) == {"friends": [], "incoming": [], "outgoing": []}


async def block(client: httpx.AsyncClient, host: dict[str, Any], other: dict[str, Any]) -> None:
    """`host` blocks `other` as the civil table lets it: from a seat at its table."""
    r = await client.post("/v1/matches", json={"ruleset": "draw"}, headers=host["headers"])
    created = r.json()
    r = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=other["headers"]
    )
    assert r.status_code == 200, r.text
    r = await client.put(f"/v1/matches/{created['id']}/seats/1/block", headers=host["headers"])
    assert r.status_code == 200, r.text


async def test_a_block_refuses_a_request_and_hides_a_friendship(client: httpx.AsyncClient) -> None:
    ana, bob, cy = [await new_player(client, n) for n in ("Ana", "Bob", "Cy")]
    await befriend(client, ana, cy)
    await block(client, ana, bob)
    for me, other in ((ana, bob), (bob, ana)):  # whoever blocked whom
        r = await add(client, me, id=other["id"])
        assert r.status_code == 403 and r.json()["code"] == "blocked", r.text
    await block(client, cy, ana)
    assert (await friends_of(client, ana))["friends"] == []
    assert (await friends_of(client, cy))["friends"] == []
    r = await client.delete(f"/v1/players/me/blocks/{ana['id']}", headers=cy["headers"])
    assert r.status_code == 204
    assert [f["id"] for f in (await friends_of(client, ana))["friends"]] == [cy["id"]]


async def test_friends_see_each_other_come_online_and_go_offline(
    app: FastAPI, client: httpx.AsyncClient, clock: FakeClock, clean_db: str
) -> None:
    ana, bob, cy = [await new_player(client, n) for n in ("Ana", "Bob", "Cy")]
    await befriend(client, ana, bob)
    await add(client, cy, id=bob["id"])  # a request only: Cy is not told of Bob
    online = app.state.online
    await online.arrive(bob["id"])
    listed = (await friends_of(client, ana))["friends"]
    assert [(f["id"], f["online"]) for f in listed] == [(bob["id"], True)]
    bob_ref = {"id": bob["id"], "name": "Bob"}
    assert (await told(clean_db, ana))[-1] == {"type": "friend_online", "player": bob_ref}
    await online.arrive(bob["id"])  # a second socket: nobody is told again
    assert [e["type"] for e in await told(clean_db, ana)].count("friend_online") == 1
    assert await told(clean_db, cy) == []

    await online.expire()  # the lease holds: still online
    assert (await friends_of(client, ana))["friends"][0]["online"] is True
    await online.left(bob["id"])  # this process holds no socket of Bob's: the lease ends now
    clock.advance(1)
    await online.expire()
    assert (await friends_of(client, ana))["friends"][0]["online"] is False
    assert (await told(clean_db, ana))[-1] == {"type": "friend_offline", "player": bob_ref}
    await online.arrive(bob["id"])  # back
    assert (await told(clean_db, ana))[-1]["type"] == "friend_online"


async def test_a_players_friend_requests_are_budgeted(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    for _ in range(30):  # DOMINO_FRIEND_RATE_LIMIT's default, a request found or not
        assert (await add(client, ana, name="Nobody")).status_code == 404
    r = await add(client, ana, id=bob["id"])
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
    assert (await friends_of(client, ana))["outgoing"] == []  # refused before anything changed
    assert (await add(client, bob, id=ana["id"])).status_code == 200  # Bob's budget is his own
