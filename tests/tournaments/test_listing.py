"""Tournaments listed and found (issue 43): GET /v1/tournaments, newest first a page at a
time, by status, the caller's own; a foreign cursor is a 422 problem."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from tests.api.helpers import new_player
from tests.tournaments.test_api_tournaments import create


async def listed(client: httpx.AsyncClient, who: dict[str, Any], **query: Any) -> dict[str, Any]:
    r = await client.get("/v1/tournaments", params=query, headers=who["headers"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def test_newest_first_across_pages_by_status_and_the_callers_own(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, cy = [await new_player(client, name) for name in ("Ana", "Bob", "Cy")]
    made = []
    for n in range(5):
        clock.advance(1)
        host = ana if n % 2 == 0 else bob
        made.append(await create(client, host, name=f"Cup {n}"))
    entered = await client.post(f"/v1/tournaments/{made[1]['id']}/entrants", headers=cy["headers"])
    assert entered.status_code == 200, entered.text

    first = await listed(client, cy, limit=3)
    second = await listed(client, cy, limit=3, cursor=first["next_cursor"])
    names = [t["name"] for t in first["tournaments"] + second["tournaments"]]
    assert names == [f"Cup {n}" for n in (4, 3, 2, 1, 0)] and second["next_cursor"] is None
    assert (
        first["tournaments"][0]["entrants"] == 0 and first["tournaments"][0]["max_entrants"] == 10
    )

    mine = await listed(client, cy, mine=True)
    assert [t["id"] for t in mine["tournaments"]] == [made[1]["id"]]
    hosted = await listed(client, ana, mine=True)
    assert [t["name"] for t in hosted["tournaments"]] == ["Cup 4", "Cup 2", "Cup 0"]
    assert len((await listed(client, cy, status="open"))["tournaments"]) == 5
    assert (await listed(client, cy, status="finished"))["tournaments"] == []


async def test_bad_queries_are_422_problems(client: httpx.AsyncClient) -> None:
    eve = await new_player(client, "Eve")
    for query in ({"cursor": "bm90IGEgY3Vyc29y"}, {"limit": 0}, {"status": "lost"}):
        r = await client.get("/v1/tournaments", params=query, headers=eve["headers"])
        assert r.status_code == 422, (query, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")


async def test_a_check_in_window_out_of_range_or_of_a_wrong_type_is_refused(
    client: httpx.AsyncClient,
) -> None:
    ola = await new_player(client, "Ola")
    body = {"name": "Cup", "format": "round_robin", "match": {"best_of": 1}, "max_entrants": 4}
    for check_in in (0, 29, 3601, 10**30, "300", None, [300]):
        sent = {**body, "check_in_s": check_in}
        r = await client.post("/v1/tournaments", json=sent, headers=ola["headers"])
        if check_in is None:  # null: the service's default
            assert r.status_code == 201, r.text
            continue
        assert r.status_code == 422, (check_in, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    mine = await listed(client, ola, mine=True)
    assert len(mine["tournaments"]) == 1  # only the one with the default window was made


async def test_each_listed_tournament_says_what_its_matches_are(client: httpx.AsyncClient) -> None:
    """Issue 50: a player choosing a tournament to enter sees best of 2, or the target."""
    ana = await new_player(client, "Ana")
    await create(client, ana, name="Even cup", match={"best_of": 2})
    await create(client, ana, name="Target cup", match={"target": 75})
    page = await listed(client, ana, mine=True)
    assert {t["name"]: t["match"] for t in page["tournaments"]} == {
        "Even cup": {"best_of": 2},
        "Target cup": {"target": 75},
    }
