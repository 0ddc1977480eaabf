"""A partnership table over REST (docs/RULES.md 14): four players in two teams, one team's win
moving both partners' ratings and records alike; partners see only their own tiles."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import new_player, play_to_end, view
from tests.api.test_ratings import establish

FOUR = [{"type": "human"}] * 4


async def _partnership(client: httpx.AsyncClient, players: list[dict[str, Any]]) -> str:
    host = players[0]
    body = {"ruleset": "partners-block", "seats": FOUR, "options": {"target": 30}}
    created = await client.post("/v1/matches", json=body, headers=host["headers"])
    assert created.status_code == 201, created.text
    assert created.json()["ruleset"]["partnership"] is True
    for player in players[1:]:
        code = {"code": created.json()["code"]}
        joined = await client.post("/v1/matches/join", json=code, headers=player["headers"])
        assert joined.status_code == 200, joined.text
    mid = str(created.json()["id"])
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=host["headers"])
    assert started.status_code == 200, started.text
    return mid


async def test_a_team_win_moves_both_partners_and_hides_the_partners_hand(
    client: httpx.AsyncClient, database_url: str
) -> None:
    players = [await new_player(client, name) for name in ("Ana", "Bob", "Cy", "Dee")]
    await establish(database_url, "partners-block", *players)
    mid = await _partnership(client, players)
    seats = {seat: (await view(client, p, mid))["you"]["seat"] for seat, p in enumerate(players)}
    holders = {seat: players[i] for i, seat in seats.items()}
    ana_view = await view(client, holders[0], mid)
    assert [t["seats"] for t in ana_view["teams"]] == [[0, 2], [1, 3]]
    assert len(ana_view["you"]["hand"]) == 7 and "hand" not in ana_view["seats"][2]
    partner = await view(client, holders[2], mid)
    assert not set(map(tuple, ana_view["you"]["hand"])) & set(map(tuple, partner["you"]["hand"]))
    final = await play_to_end(client, mid, holders)
    result = final["result"]
    assert final["status"] == "finished" and result["team"] in (0, 1)
    winners = [holders[s] for s in (0, 1, 2, 3) if s % 2 == result["team"]]
    losers = [holders[s] for s in (0, 1, 2, 3) if s % 2 != result["team"]]
    assert [t["won"] for t in final["teams"]] == [result["team"] == 0, result["team"] == 1]
    ids = ",".join(p["id"] for p in players)
    params = {"preset": "partners-block", "players": ids}
    got = await client.get("/v1/ratings", params=params, headers=players[0]["headers"])
    rated = {row["player_id"]: row for row in got.json()["ratings"]}
    assert all(rated[p["id"]]["rating"] > 1500 for p in winners)
    assert all(rated[p["id"]]["rating"] < 1500 for p in losers)
    assert rated[winners[0]["id"]]["rating"] == rated[winners[1]["id"]]["rating"]
    for player, outcome in [(winners[0], "won"), (winners[1], "won"), (losers[0], "lost")]:
        page = await client.get(f"/v1/players/{player['id']}/profile", headers=player["headers"])
        assert page.json()["recent"][0]["outcome"] == outcome, page.json()["recent"]


async def test_partnership_needs_four_seats(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    body = {"ruleset": "partners-nines", "seats": FOUR[:2], "options": {}}
    refused = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert refused.status_code == 422 and refused.headers["content-type"].startswith(
        "application/problem+json"
    )
