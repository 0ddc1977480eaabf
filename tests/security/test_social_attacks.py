"""Friends, challenges, invitation links and Web Push attacked as a hostile player would
(issue 50's routes): bad input, another player's ids and tokens, races between two answers,
and the endpoints a subscription may not point at. Each refusal is a 4xx problem document
that changes nothing."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import asyncpg
import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from domino_api.store.db import to_plain_url
from tests.api.helpers import new_player
from tests.api.test_challenges import challenge, refused
from tests.api.test_friends import block

PROBLEM = "application/problem+json"


def problem(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM
    body: dict[str, Any] = r.json()
    return body


async def count(database: str, table: str) -> int:
    conn = await asyncpg.connect(to_plain_url(database))
    try:
        found: int = await conn.fetchval(f"SELECT count(*) FROM {table}")
    finally:
        await conn.close()
    return found


def device_keys() -> dict[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    b64 = base64.urlsafe_b64encode
    return {"p256dh": b64(point).decode().rstrip("="), "auth": b64(b"a" * 16).decode().rstrip("=")}


async def test_nul_and_overlong_ids_are_problems_that_change_nothing(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana = await new_player(client, "Ana")
    for method, path, body in (
        ("GET", "challenges/a%00b", None),
        ("POST", "challenges/a%00b/accept", None),
        ("GET", "invites/a%00b", None),
        ("POST", "invites/a%00b/accept", None),
        ("DELETE", "friends/a%00b", None),
        ("DELETE", "push/subscriptions/a%00b", None),
        ("POST", f"challenges/{'x' * 37}/accept", None),
        ("GET", f"invites/{'A' * 33}", None),
        ("POST", "friends", {"id": "a\x00b"}),
        ("POST", "friends", {"name": "A\x00b"}),
        ("POST", "friends", {"id": 5}),
        ("POST", "challenges", {"to": {"id": "a\x00b"}, "ruleset": "draw"}),
        ("POST", "challenges", {"ruleset": "draw", "options": []}),
    ):
        r = await client.request(method, f"/v1/{path}", json=body, headers=ana["headers"])
        assert 400 <= r.status_code < 500, (path, r.text)
        assert r.headers["content-type"] == PROBLEM
    assert await count(clean_db, "friend_links") == await count(clean_db, "challenges") == 0


async def test_a_challenge_with_a_bad_per_move_is_refused(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    for per_move in (1e30, -1, 0, 3600.5, "3600", True, 10**30):
        options = {"per_move_s": per_move}
        body = {"to": {"id": bob["id"]}, "ruleset": "draw", "options": options}
        r = await client.post("/v1/challenges", json=body, headers=ana["headers"])
        assert problem(r, 422)["code"] == "bad_options"
    assert await count(clean_db, "challenges") == 0


async def test_no_body_sets_a_clock_on_a_table_that_exists(client: httpx.AsyncClient) -> None:
    """A live table's clock cannot be traded for a correspondence one by start, join, rematch."""
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    clock = {"allowance_s": 30, "grace_s": 60}
    body = {"ruleset": "classic", "options": {"turn_clock": clock}}
    made = (await client.post("/v1/matches", json=body, headers=ana["headers"])).json()
    escape = {"per_move_s": 3600}
    r = await client.post(
        "/v1/matches/join", json={"code": made["code"], **escape}, headers=bob["headers"]
    )
    assert problem(r, 422)["code"] == "validation_error"
    for path in ("start", "rematch"):
        r = await client.post(
            f"/v1/matches/{made['id']}/{path}", json=escape, headers=ana["headers"]
        )
        assert problem(r, 422)["code"] == "validation_error"


# Each names this machine or the operator's network, as getaddrinfo reads it.
LOCAL_ENDPOINTS = (
    "http://push.example.com/x",
    "https://localhost./x",
    "https://foo.localhost./x",
    "https://2130706433/x",  # 127.0.0.1 as one decimal number
    "https://127.1/x",
    "https://0x7f000001/x",
    "https://0177.0.0.1/x",
    "https://0/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[fe80::1%25eth0]/x",
    "https://169.254.169.254/x",
    "https://metadata/x",  # one label: resolved through the operator's search domains
    "https://router.home.arpa/x",
)


async def test_a_push_endpoint_off_the_public_internet_is_refused(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana = await new_player(client, "Ana")
    for endpoint in LOCAL_ENDPOINTS:
        body = {"endpoint": endpoint, "keys": device_keys()}
        r = await client.post("/v1/push/subscriptions", json=body, headers=ana["headers"])
        assert problem(r, 422)["code"] == "validation_error", endpoint
    assert await count(clean_db, "push_subscriptions") == 0
    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": device_keys()}
    r = await client.post("/v1/push/subscriptions", json=body, headers=ana["headers"])
    assert r.status_code == 201, r.text


async def test_a_player_keeps_ten_devices_and_no_more(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    """Each turn is pushed to every device: a player may not multiply the service's requests
    by subscribing endpoints without end. The newest ten are kept."""
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    keys = device_keys()
    for n in range(12):
        body = {"endpoint": f"https://push.example.com/ana/{n}", "keys": keys}
        r = await client.post("/v1/push/subscriptions", json=body, headers=ana["headers"])
        assert r.status_code == 201, r.text
    body = {"endpoint": "https://push.example.com/bob", "keys": keys}
    assert (
        await client.post("/v1/push/subscriptions", json=body, headers=bob["headers"])
    ).status_code == 201
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        kept = await conn.fetch("SELECT endpoint FROM push_subscriptions ORDER BY endpoint")
    finally:
        await conn.close()
    ana_kept = {r["endpoint"] for r in kept} - {"https://push.example.com/bob"}
    assert ana_kept == {f"https://push.example.com/ana/{n}" for n in range(2, 12)}
    assert len(kept) == 11


async def test_three_takers_of_one_invitation_make_one_match(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana = await new_player(client, "Ana")
    takers = [await new_player(client, f"Taker{n}") for n in range(3)]
    token = (await challenge(client, ana, None))["invite"].rsplit("/", 1)[-1]
    answers = await asyncio.gather(
        *(client.post(f"/v1/invites/{token}/accept", headers=t["headers"]) for t in takers)
    )
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    for lost in (a for a in answers if a.status_code == 409):
        assert problem(lost, 409)["code"] == "challenge_answered"
    assert await count(clean_db, "matches") == 1


async def test_an_accept_racing_a_cancel_leaves_one_answer(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    made = await challenge(client, ana, bob)
    accepted, cancelled = await asyncio.gather(
        client.post(f"/v1/challenges/{made['id']}/accept", headers=bob["headers"]),
        client.delete(f"/v1/challenges/{made['id']}", headers=ana["headers"]),
    )
    assert sorted((accepted.status_code, cancelled.status_code)) == [200, 409]
    status = (await client.get(f"/v1/challenges/{made['id']}", headers=ana["headers"])).json()
    won = "accepted" if accepted.status_code == 200 else "cancelled"
    assert status["status"] == won
    assert await count(clean_db, "matches") == (1 if won == "accepted" else 0)


async def test_friend_requests_both_ways_at_once_make_friends(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    a, b = await asyncio.gather(
        client.post("/v1/friends", json={"id": bob["id"]}, headers=ana["headers"]),
        client.post("/v1/friends", json={"id": ana["id"]}, headers=bob["headers"]),
    )
    assert sorted((a.json()["status"], b.json()["status"])) == ["friends", "requested"]
    for who in (ana, bob):
        listed = (await client.get("/v1/friends", headers=who["headers"])).json()
        assert len(listed["friends"]) == 1 and listed["incoming"] == listed["outgoing"] == []


async def test_an_outsider_neither_sees_nor_answers_anothers_challenge(
    client: httpx.AsyncClient,
) -> None:
    ana, bob, eve = [await new_player(client, n) for n in ("Ana", "Bob", "Eve")]
    named, link = await challenge(client, ana, bob), await challenge(client, ana, None)
    for made in (named, link):
        for method, tail in (
            ("GET", ""),
            ("POST", "/accept"),
            ("POST", "/decline"),
            ("DELETE", ""),
        ):
            r = await client.request(
                method, f"/v1/challenges/{made['id']}{tail}", headers=eve["headers"]
            )
            assert problem(r, 404)["code"] == "challenge_not_found"
    for method, tail in (("GET", ""), ("POST", "/accept")):
        r = await client.request(method, f"/v1/invites/{'A' * 22}{tail}", headers=eve["headers"])
        assert problem(r, 404)["code"] == "challenge_not_found"
    # The two it names: each may only give its own answer (docs/API.md).
    r = await client.post(f"/v1/challenges/{named['id']}/decline", headers=ana["headers"])
    assert problem(r, 403)["code"] == "not_challenged"
    r = await client.delete(f"/v1/challenges/{named['id']}", headers=bob["headers"])
    assert problem(r, 403)["code"] == "not_challenged"
    named_token = named["invite"].rsplit("/", 1)[-1]
    r = await client.post(f"/v1/invites/{named_token}/accept", headers=eve["headers"])
    assert problem(r, 403)["code"] == "not_challenged"
    token = link["invite"].rsplit("/", 1)[-1]
    assert (
        await client.post(f"/v1/invites/{token}/accept", headers=bob["headers"])
    ).status_code == 200
    seen = (await client.get(f"/v1/invites/{token}", headers=eve["headers"])).json()
    assert seen["status"] == "accepted" and seen["match"] is None and seen["seat"] is None
    assert seen["invite"] is None and "taken_by" not in seen
    mine = (await client.get("/v1/challenges", headers=eve["headers"])).json()
    assert mine == {"incoming": [], "outgoing": []}


async def test_a_block_either_way_refuses_an_invitation(client: httpx.AsyncClient) -> None:
    ana, eve, zed = [await new_player(client, n) for n in ("Ana", "Eve", "Zed")]
    await block(client, ana, eve)  # Ana blocked Eve
    await block(client, zed, ana)  # Zed blocked Ana
    token = (await challenge(client, ana, None))["invite"].rsplit("/", 1)[-1]
    for who in (eve, zed):
        refused(
            await client.post(f"/v1/invites/{token}/accept", headers=who["headers"]), 403, "blocked"
        )
    assert (await client.get(f"/v1/invites/{token}", headers=ana["headers"])).json()[
        "status"
    ] == "open"


# A bad way to name a player, the field its refusal names, and what it says.
BAD_NAMING = (
    ({"name": "\u202eBob"}, "name", "U+202E"),  # a right-to-left override
    ({"name": "B\u200bob"}, "name", "U+200B"),  # a zero-width space
    ({"name": ""}, "name", "at least 1"),
    ({"id": 5}, "id", "str"),  # pydantic: "a valid string"; the Struct body: "Expected `str"
    ({}, "", "one of the two"),
    ({"id": "x", "name": "Bob"}, "", "one of the two"),
)


async def test_a_bad_name_or_id_is_refused_for_its_own_field(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana = await new_player(client, "Ana")
    await new_player(client, "Bob")
    for named, field, says in BAD_NAMING:
        for path, body, where in (
            ("friends", named, field or "body"),
            ("challenges", {"to": named, "ruleset": "draw"}, f"to.{field}" if field else "to"),
        ):
            r = await client.post(f"/v1/{path}", json=body, headers=ana["headers"])
            detail = problem(r, 422)["detail"]
            assert detail.startswith(f"{where}:") and says in detail and ";" not in detail, detail
    assert await count(clean_db, "friend_links") == await count(clean_db, "challenges") == 0
    r = await client.post("/v1/friends", json={"name": "bob"}, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["status"] == "requested"


async def test_a_challenge_may_be_played_by_correspondence_and_no_live_clock_beside(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    """`per_move_s` is a match option the published schema offers a challenge: honoured, or
    refused with the clock it contradicts, never a preset's misleading complaint."""
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    clock = {"allowance_s": 30, "grace_s": 60}
    body = {"to": {"id": bob["id"]}, "ruleset": "classic"}
    body["options"] = {"per_move_s": 7200, "turn_clock": clock}
    r = await client.post("/v1/challenges", json=body, headers=ana["headers"])
    assert problem(r, 422)["code"] == "option_not_allowed"
    assert await count(clean_db, "challenges") == 0
    made = await challenge(client, ana, bob, ruleset="classic", options={"per_move_s": 7200})
    r = await client.post(f"/v1/challenges/{made['id']}/accept", headers=bob["headers"])
    assert r.status_code == 200, r.text
    seen = (await client.get(f"/v1/matches/{r.json()['match']}", headers=bob["headers"])).json()
    assert seen["per_move_s"] == 7200 and seen["ruleset"]["turn_clock"] is None
    assert all(s["away_deadline"] is None for s in seen["seats"])


async def test_a_block_hides_the_open_challenges_between_the_two(
    client: httpx.AsyncClient,
) -> None:
    ana, bob, cy = [await new_player(client, n) for n in ("Ana", "Bob", "Cy")]
    await challenge(client, ana, bob)
    await challenge(client, ana, cy)
    await block(client, bob, ana)  # Bob blocks Ana after she challenged him
    bobs = (await client.get("/v1/challenges", headers=bob["headers"])).json()
    anas = (await client.get("/v1/challenges", headers=ana["headers"])).json()
    assert bobs["incoming"] == []
    assert [c["challenged"]["id"] for c in anas["outgoing"]] == [cy["id"]]
