"""GET /v1/matches: the caller's live and finished matches, newest first, by keyset cursor."""

from __future__ import annotations

import base64
from typing import Any

import httpx

from domino_api.clock import FakeClock
from tests.api.helpers import create_match, new_player

PLANNERS = [{"type": "human"}, {"type": "bot", "strategy": "planner"}]


async def _pages(client: httpx.AsyncClient, player: dict[str, Any], **params: Any) -> list[dict]:
    """Every page in turn, following next_cursor; returns the pages' bodies."""
    pages, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        r = await client.get("/v1/matches", params=query, headers=player["headers"])
        assert r.status_code == 200, r.text
        pages.append(r.json())
        cursor = r.json()["next_cursor"]
        if cursor is None:
            return pages


async def test_lists_own_matches_newest_first_across_pages(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    made = []
    for _ in range(5):
        made.append((await create_match(client, ana, "draw-50", PLANNERS))["id"])
        clock.advance(1)
    # Two created at one instant: the id orders them, and neither page drops either.
    same = [(await create_match(client, ana, "draw-50", PLANNERS))["id"] for _ in range(2)]
    await create_match(client, bob, "draw-50", PLANNERS)  # not Ana's
    pages = await _pages(client, ana, limit=2)
    listed = [m["id"] for page in pages for m in page["matches"]]
    assert [len(p["matches"]) for p in pages] == [2, 2, 2, 1]
    assert listed == sorted(same, reverse=True) + made[::-1]
    first = pages[0]["matches"][0]
    assert first["live"] and first["host"] and first["status"] == "waiting"
    assert [(s["seat"], s["type"], s["name"], s["yours"]) for s in first["seats"]] == [
        (0, "human", "Ana", True),
        (1, "bot", "Planner", False),
    ]


async def test_live_and_over_and_a_match_made_meanwhile(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana = await new_player(client, "Ana")
    over = await create_match(client, ana, "draw-50", PLANNERS)
    r = await client.post(f"/v1/matches/{over['id']}/start", json={}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    r = await client.post(f"/v1/matches/{over['id']}/resign", json={}, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    clock.advance(1)
    live = await create_match(client, ana, "all-fives", [{"type": "human"}, {"type": "human"}])
    clock.advance(1)
    first = await client.get("/v1/matches", params={"limit": 1}, headers=ana["headers"])
    assert [m["id"] for m in first.json()["matches"]] == [live["id"]]
    assert first.json()["matches"][0]["code"] == live["code"]
    clock.advance(1)
    await create_match(client, ana, "draw-50", PLANNERS)  # newer: never on an older page
    rest = await _pages(client, ana, cursor=first.json()["next_cursor"])
    assert [m["id"] for p in rest for m in p["matches"]] == [over["id"]]
    finished = rest[0]["matches"][0]
    assert not finished["live"] and finished["finished_at"] and finished["code"] is None
    # Ana resigned: the planner's seat won by forfeit, the scores as the match_ended event says.
    events = await client.get(f"/v1/matches/{over['id']}/events", headers=ana["headers"])
    ended = next(e for e in events.json()["events"] if e["type"] == "match_ended")["data"]
    assert finished["result"] == {
        "winner": 1,
        "winner_name": "Planner",
        "reason": "forfeit",
        "scores": ended["scores"],
    }
    assert len(ended["scores"]) == 2
    assert first.json()["matches"][0]["result"] is None
    only_live = await _pages(client, ana, state="live")
    assert over["id"] not in [m["id"] for p in only_live for m in p["matches"]]
    only_over = await _pages(client, ana, state="over")
    assert [m["id"] for p in only_over for m in p["matches"]] == [over["id"]]


async def test_two_computers_of_one_kind_have_distinct_names(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, *[{"type": "bot", "strategy": "planner"}] * 2]
    await create_match(client, ana, "house-nines", seats)
    r = await client.get("/v1/matches", headers=ana["headers"])
    names = [s["name"] for s in r.json()["matches"][0]["seats"]]
    assert names == ["Ana", "Planner", "Planner 2"]


async def test_bad_cursors_and_limits_are_422_problems(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    await create_match(client, ana, "draw-50", PLANNERS)
    forged = base64.urlsafe_b64encode(b"yesterday|x").decode()
    naive = base64.urlsafe_b64encode(b"2026-01-01T00:00:00|abc").decode()
    for params in (
        {"cursor": "not base64!"},
        {"cursor": forged},
        {"cursor": naive},
        {"cursor": "x" * 201},
        {"limit": 0},
        {"limit": 101},
        {"limit": "ten"},
        {"state": "sometimes"},
    ):
        r = await client.get("/v1/matches", params=params, headers=ana["headers"])
        assert r.status_code == 422, (params, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "validation_error"
    r = await client.get("/v1/matches")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
