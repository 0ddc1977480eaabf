"""PostgreSQL stores no NUL character: one in a body is invalid input, one in a path names
nothing. Both are clear 4xx problems, never a 500 from the database."""

from __future__ import annotations

import httpx
import pytest

from tests.api.helpers import create_match, new_player, view

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def test_nul_in_a_body_is_refused_and_changes_nothing(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Ana")
    mid = (await create_match(client, host, "all-fives", SEATS))["id"]
    before = await view(client, host, mid)
    cases = [
        ("POST", "/v1/players", {"name": "A\u0000"}),
        ("PATCH", "/v1/players/me", {"name": "B\u0000"}),
        ("POST", f"/v1/matches/{mid}/start", {"cut": "c\u0000"}),
        ("POST", f"/v1/matches/{mid}/messages", {"text": "hi\u0000"}),
        (
            "POST",
            "/v1/matches",
            {"ruleset": "all-fives", "seats": SEATS, "options": {"draw": "\u0000"}},
        ),
    ]
    for method, path, body in cases:
        r = await client.request(method, path, json=body, headers=host["headers"])
        assert r.status_code == 422, (path, r.text)
        assert "NUL" in r.json()["detail"]
    assert await view(client, host, mid) == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/matches/ab%00cd"),
        ("POST", "/v1/matches/ab%00cd/moves"),
        ("POST", "/v1/matches/ab%00cd/start"),
        ("GET", "/v1/matches/ab%00cd/events"),
        ("GET", "/v1/tournaments/ab%00cd"),
    ],
)
async def test_nul_in_a_path_names_nothing(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    host = await new_player(client, "Ana")
    body = {"action": "pass", "seq": 1} if method == "POST" else None
    r = await client.request(method, path, json=body, headers=host["headers"])
    assert r.status_code == 404, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "not_found"
