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
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from domino_api.store.db import to_plain_url
from tests.api.helpers import new_player
from tests.api.test_challenges import challenge, refused

PROBLEM = "application/problem+json"


def problem(r: httpx.Response, status: int) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == PROBLEM


async def count(database: str, table: str) -> int:
    conn = await asyncpg.connect(to_plain_url(database))
    try:
        found: int = await conn.fetchval(f"SELECT count(*) FROM {table}")
    finally:
        await conn.close()
    return found


def _keys() -> dict[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    b64 = base64.urlsafe_b64encode
    return {"p256dh": b64(point).decode().rstrip("="), "auth": b64(b"a" * 16).decode().rstrip("=")}


@pytest.mark.parametrize(
    "path",
    ["challenges/a%00b", "invites/a%00b", "challenges/a%00b/accept", "invites/a%00b/accept"],
)
async def test_a_nul_in_a_path_is_a_problem(client: httpx.AsyncClient, path: str) -> None:
    ana = await new_player(client, "Ana")
    method = "POST" if path.endswith("accept") else "GET"
    r = await client.request(method, f"/v1/{path}", headers=ana["headers"])
    assert 400 <= r.status_code < 500, r.text
    assert r.headers["content-type"] == PROBLEM


async def test_a_nul_in_a_removal_or_body_is_a_problem(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    for method, path, body in (
        ("DELETE", "friends/a%00b", None),
        ("DELETE", "push/subscriptions/a%00b", None),
        ("POST", "friends", {"id": "a\x00b"}),
        ("POST", "friends", {"name": "A\x00b"}),
        ("POST", "challenges", {"to": {"id": "a\x00b"}, "ruleset": "draw"}),
    ):
        r = await client.request(method, f"/v1/{path}", json=body, headers=ana["headers"])
        assert 400 <= r.status_code < 500, (path, r.text)
        assert r.headers["content-type"] == PROBLEM


@pytest.mark.parametrize(
    "per_move", [1e30, -1, 3600.5, "3600", True, 10**30, 0, None]
)
async def test_a_challenge_with_a_bad_per_move_is_a_problem(
    client: httpx.AsyncClient, clean_db: str, per_move: Any
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    body = {"to": {"id": bob["id"]}, "ruleset": "draw", "options": {"per_move_s": per_move}}
    r = await client.post("/v1/challenges", json=body, headers=ana["headers"])
    print(per_move, r.status_code, r.text[:300])
    if per_move is not None:
        problem(r, 422)


async def test_a_challenge_with_per_move_makes_a_correspondence_table(
    client: httpx.AsyncClient,
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    made = await challenge(client, ana, bob, options={"per_move_s": 7200})
    r = await client.post(f"/v1/challenges/{made['id']}/accept", headers=bob["headers"])
    print(r.status_code, r.text[:500])
    assert r.status_code == 200
    m = r.json()["match"]
    v = await client.get(f"/v1/matches/{m}", headers=bob["headers"])
    print(v.json().get("per_move_s"), v.json().get("ruleset"))


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.com/x",
        "https://localhost./x",
        "https://LOCALHOST/x",
        "https://2130706433/x",
        "https://127.1/x",
        "https://0x7f000001/x",
        "https://0177.0.0.1/x",
        "https://[::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://[fe80::1%25eth0]/x",
        "https://10.0.0.1/x",
        "https://169.254.169.254/x",
        "https://foo.localhost./x",
        "https://metadata/x",
        "https://[::]/x",
        "https://0/x",
    ],
)
async def test_a_push_endpoint_off_the_public_internet_is_refused(
    client: httpx.AsyncClient, clean_db: str, endpoint: str
) -> None:
    ana = await new_player(client, "Ana")
    body = {"endpoint": endpoint, "keys": _keys()}
    r = await client.post("/v1/push/subscriptions", json=body, headers=ana["headers"])
    problem(r, 422)
    assert await count(clean_db, "push_subscriptions") == 0


async def test_two_accepts_of_one_invitation_make_one_match(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    ana = await new_player(client, "Ana")
    takers = [await new_player(client, f"Taker{n}") for n in range(3)]
    made = await challenge(client, ana, None)
    token = made["invite"].rsplit("/", 1)[-1]
    answers = await asyncio.gather(
        *(client.post(f"/v1/invites/{token}/accept", headers=t["headers"]) for t in takers)
    )
    print([a.status_code for a in answers], [a.text[:200] for a in answers])
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    assert await count(clean_db, "matches") == 1


async def test_friend_requests_both_ways_at_once_make_friends(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    a, b = await asyncio.gather(
        client.post("/v1/friends", json={"id": bob["id"]}, headers=ana["headers"]),
        client.post("/v1/friends", json={"id": ana["id"]}, headers=bob["headers"]),
    )
    print(a.text, b.text)
    assert sorted((a.json()["status"], b.json()["status"])) == ["friends", "requested"]
