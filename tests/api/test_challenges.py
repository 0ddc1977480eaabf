"""Challenges (issue 50): a named player challenged with a preset and options accepts (the
match is made and started, both seated) or declines; its maker cancels; it expires; an
invitation link anyone signed in takes; every bad answer a 4xx problem that changes nothing."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx

from domino_api.clock import FakeClock
from domino_api.store.db import to_plain_url
from tests.api.helpers import new_player, view
from tests.api.test_friends import block, told

TTL_S = 600  # DOMINO_CHALLENGE_TTL_S's default


async def challenge(
    client: httpx.AsyncClient, who: dict[str, Any], to: dict[str, Any] | None, **more: Any
) -> dict[str, Any]:
    body = {"ruleset": "draw", "options": {"target": 50}, **more}
    if to is not None:
        body["to"] = {"id": to["id"]}
    r = await client.post("/v1/challenges", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


async def act(
    client: httpx.AsyncClient, who: dict[str, Any], method: str, path: str
) -> httpx.Response:
    return await client.request(method, f"/v1/{path}", headers=who["headers"])


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == code


async def test_an_accepted_challenge_starts_a_match_with_both_seated(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    clock = {"allowance_s": 30, "grace_s": 60}
    body = {"to": {"name": "Bob"}, "ruleset": "classic", "rated": True}
    body["options"] = {"target": 50, "turn_clock": clock}
    r = await client.post("/v1/challenges", json=body, headers=ana["headers"])
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["status"] == "open" and made["challenged"] == {"id": bob["id"], "name": "Bob"}
    assert made["options"]["target"] == 50 and made["rated"] is True
    assert made["invite"].startswith("/play/#invite/")
    received = (await told(clean_db, bob))[-1]
    assert received["type"] == "challenge_received"
    assert received["challenge"]["id"] == made["id"]
    assert received["challenge"]["challenger"] == {"id": ana["id"], "name": "Ana"}
    incoming = (await act(client, bob, "GET", "challenges")).json()
    assert [c["id"] for c in incoming["incoming"]] == [made["id"]] and incoming["outgoing"] == []
    assert incoming["incoming"][0]["invite"] is None  # the link is its maker's to share

    r = await act(client, bob, "POST", f"challenges/{made['id']}/accept")
    assert r.status_code == 200, r.text
    accepted = r.json()
    assert accepted["status"] == "accepted" and accepted["seat"] == 1
    match = accepted["match"]
    seen = await view(client, bob, match)
    assert seen["status"] == "playing" and seen["you"]["seat"] == 1
    assert seen["ruleset"]["target"] == 50 and seen["ruleset"]["turn_clock"]["allowance_s"] == 30
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        assert await conn.fetchval("SELECT rated FROM matches WHERE id = $1", match) is True
    finally:
        await conn.close()
    assert (await view(client, ana, match))["you"]["seat"] == 0
    for who, seat in ((ana, 0), (bob, 1)):
        closed = (await told(clean_db, who))[-1]
        assert closed == {
            "type": "challenge_closed",
            "id": made["id"],
            "status": "accepted",
            "match": match,
            "seat": seat,
        }
    refused(
        await act(client, bob, "POST", f"challenges/{made['id']}/accept"), 409, "challenge_answered"
    )
    assert (await act(client, ana, "GET", f"challenges/{made['id']}")).json()["seat"] == 0


async def test_only_the_right_player_answers_and_only_once(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana, bob, cy = [await new_player(client, n) for n in ("Ana", "Bob", "Cy")]
    made = await challenge(client, ana, bob)
    url = f"challenges/{made['id']}"
    refused(await act(client, cy, "POST", f"{url}/accept"), 404, "challenge_not_found")
    refused(await act(client, cy, "GET", url), 404, "challenge_not_found")
    refused(await act(client, ana, "POST", f"{url}/accept"), 409, "yourself")
    refused(await act(client, ana, "POST", f"{url}/decline"), 403, "not_challenged")
    refused(await act(client, bob, "DELETE", url), 403, "not_challenged")
    token = made["invite"].rsplit("/", 1)[1]
    refused(await act(client, cy, "POST", f"invites/{token}/accept"), 403, "not_challenged")
    assert (await act(client, bob, "GET", url)).json()["status"] == "open"  # nothing changed

    r = await act(client, bob, "POST", f"{url}/decline")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    closed = (await told(clean_db, ana))[-1]
    assert closed["type"] == "challenge_closed" and closed["status"] == "declined"
    refused(await act(client, ana, "DELETE", url), 409, "challenge_answered")
    refused(await act(client, bob, "POST", f"{url}/accept"), 409, "challenge_answered")

    again = await challenge(client, ana, bob)
    r = await act(client, ana, "DELETE", f"challenges/{again['id']}")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert (await told(clean_db, bob))[-1]["status"] == "cancelled"
    assert (await act(client, bob, "GET", "challenges")).json()["incoming"] == []


async def test_a_challenge_expires_unanswered(client: httpx.AsyncClient, clock: FakeClock) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    made = await challenge(client, ana, bob)
    clock.advance(TTL_S + 1)
    url = f"challenges/{made['id']}"
    assert (await act(client, bob, "GET", url)).json()["status"] == "expired"
    refused(await act(client, bob, "POST", f"{url}/accept"), 410, "challenge_expired")
    refused(await act(client, bob, "POST", f"{url}/decline"), 410, "challenge_expired")
    refused(await act(client, ana, "DELETE", url), 410, "challenge_expired")
    assert (await act(client, bob, "GET", "challenges")).json() == {"incoming": [], "outgoing": []}


async def test_an_invitation_link_seats_whoever_opens_it_first(client: httpx.AsyncClient) -> None:
    ana, cy, dan = [await new_player(client, n) for n in ("Ana", "Cy", "Dan")]
    made = await challenge(client, ana, None)
    assert made["challenged"] is None
    token = made["invite"].rsplit("/", 1)[1]
    shown = (await act(client, cy, "GET", f"invites/{token}")).json()
    assert shown["id"] == made["id"] and shown["invite"] is None
    refused(await act(client, ana, "POST", f"invites/{token}/accept"), 409, "yourself")
    r = await act(client, cy, "POST", f"invites/{token}/accept")
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    assert (await view(client, cy, r.json()["match"]))["status"] == "playing"
    refused(await act(client, dan, "POST", f"invites/{token}/accept"), 409, "challenge_answered")
    refused(await act(client, dan, "GET", "invites/no-such-token"), 404, "challenge_not_found")
    late = (await act(client, dan, "GET", f"invites/{token}")).json()
    assert late["status"] == "accepted" and late["match"] is None  # no match id to outsiders
    assert late["seat"] is None


async def test_bad_challenges_are_problems(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"to": {"id": "nobody"}, "ruleset": "draw"}, 404, "player_not_found"),
        ({"to": {"id": ana["id"]}, "ruleset": "draw"}, 409, "yourself"),
        ({"to": {"id": bob["id"]}, "ruleset": "no-such"}, 422, "unknown_ruleset"),
        (
            {"to": {"id": bob["id"]}, "ruleset": "draw", "options": {"target": -1}},
            422,
            "bad_options",
        ),
        ({"to": {"id": bob["id"]}, "ruleset": "draw", "rated": "yes"}, 422, "validation_error"),
        ({"to": {}, "ruleset": "draw"}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        r = await client.post("/v1/challenges", json=body, headers=ana["headers"])
        refused(r, status, code)
    made = await challenge(client, ana, bob)
    await block(client, bob, ana)
    refused(await act(client, bob, "POST", f"challenges/{made['id']}/accept"), 403, "blocked")
    r = await client.post(
        "/v1/challenges", json={"to": {"id": bob["id"]}, "ruleset": "draw"}, headers=ana["headers"]
    )
    refused(r, 403, "blocked")
    refused(await act(client, bob, "GET", "challenges/x"), 404, "challenge_not_found")
    # Nothing changed (still open), and the pair's listings leave it out while the block lasts.
    assert (await act(client, ana, "GET", f"challenges/{made['id']}")).json()["status"] == "open"
    assert (await act(client, ana, "GET", "challenges")).json()["outgoing"] == []
