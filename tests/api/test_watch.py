"""GET /v1/watch: the tables in play a player may watch, best rated first, never their number."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import create_match, new_player, play_to_end
from tests.tournaments.test_api_tournaments import check_in, make_players, started

OPEN = {"spectators": True}
PLANNER = {"type": "bot", "strategy": "planner"}


async def _rated_pair(client: httpx.AsyncClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two players who played one rated match to its end: (the winner, the loser)."""
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    body = {"ruleset": "draw-50", "seats": [{"type": "human"}] * 2, "options": {"target": 10}}
    made = await client.post(
        "/v1/matches", json=body, params={"rated": "true"}, headers=ana["headers"]
    )
    assert made.status_code == 201, made.text
    r = await client.post(
        "/v1/matches/join", json={"code": made.json()["code"]}, headers=bob["headers"]
    )
    assert r.status_code == 200, r.text
    mid = made.json()["id"]
    r = await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    final = await play_to_end(client, mid, {0: ana, 1: bob})
    return (ana, bob) if final["result"]["winner"] == 0 else (bob, ana)


async def _started(client: httpx.AsyncClient, host: dict[str, Any], options: dict[str, Any]) -> str:
    made = await create_match(client, host, "draw-50", [{"type": "human"}, PLANNER], options)
    r = await client.post(f"/v1/matches/{made['id']}/start", json={}, headers=host["headers"])
    assert r.status_code == 200, r.text
    return str(made["id"])


async def _listed(client: httpx.AsyncClient, who: dict[str, Any]) -> list[dict[str, Any]]:
    r = await client.get("/v1/watch", headers=who["headers"])
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


async def test_open_tables_in_play_best_rated_first(client: httpx.AsyncClient) -> None:
    winner, loser = await _rated_pair(client)
    cara, dan = await new_player(client, "Cara"), await new_player(client, "Dan")
    unrated = await _started(client, cara, OPEN)
    rated = await _started(client, winner, OPEN)
    await _started(client, loser, {})  # not open to spectators
    await create_match(client, loser, "draw-50", [{"type": "human"}, PLANNER], OPEN)  # not dealt

    tables = await _listed(client, dan)
    assert [t["id"] for t in tables] == [rated, unrated]
    ratings = await client.get(
        "/v1/ratings", params={"preset": "draw-50", "players": winner["id"]}, headers=dan["headers"]
    )
    best = ratings.json()["ratings"][0]["rating"]
    assert tables[0]["seats"] == [
        {"seat": 0, "type": "human", "name": winner["name"], "rating": best},
        {"seat": 1, "type": "bot", "name": "Planner", "rating": None},
    ]
    assert tables[1]["seats"][0]["rating"] is None
    assert all("code" not in t and t["status"] == "playing" for t in tables)
    assert tables[0]["ruleset"] == "draw-50" and tables[0]["tournament"] is None

    # Dan watches the first: the public view, no hand, no number.
    watched = await client.get(f"/v1/matches/{rated}", headers=dan["headers"])
    assert watched.status_code == 200, watched.text
    assert watched.json()["you"] is None and watched.json()["code"] is None

    # Over: no longer listed.
    r = await client.post(f"/v1/matches/{rated}/resign", json={}, headers=winner["headers"])
    assert r.status_code == 200, r.text
    assert [t["id"] for t in await _listed(client, dan)] == [unrated]


async def test_limits_and_strangers(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    for limit in (0, 101, "all"):
        r = await client.get("/v1/watch", params={"limit": limit}, headers=ana["headers"])
        assert r.status_code == 422 and r.json()["code"] == "validation_error", r.text
    r = await client.get("/v1/watch")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
    for _ in range(3):
        await _started(client, ana, OPEN)
    r = await client.get("/v1/watch", params={"limit": 2}, headers=ana["headers"])
    assert len(r.json()["tables"]) == 2


async def test_tournament_matches_for_their_host_and_entrants_only(
    client: httpx.AsyncClient,
) -> None:
    players = await make_players(client, 4)
    host, t = await started(client, players, "single_elimination", match={"target": 500})
    first, second = t["rounds"][0]["matches"]
    eve = await new_player(client, "Eve")
    assert await _listed(client, host) == []  # at check-in: not dealt yet
    await check_in(client, players, first)
    for who in (host, players[second["players"][0]]):
        tables = await _listed(client, who)
        assert [(x["id"], x["tournament"]) for x in tables] == [(first["id"], t["id"])]
        seated = sorted(s["name"] for s in tables[0]["seats"])
        assert seated == sorted(players[p]["name"] for p in first["players"])
    assert await _listed(client, eve) == []  # a stranger may not watch it: not listed
