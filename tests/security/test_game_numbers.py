"""Attack 1's target finding: no route shows a live game number to anyone but the table's
seats (the chain was a leaderboard's match -> its rematch_match_id -> that table's code)."""

from __future__ import annotations

import httpx

from tests.security.conftest import player

SEATS = [{"type": "human"}, {"type": "human"}]


async def test_a_live_game_number_is_shown_only_to_its_seats(client: httpx.AsyncClient) -> None:
    ana, bob, eve = [await player(client, name) for name in ("Ana", "Bob", "Eve")]
    private = {"ruleset": "all-fives", "seats": SEATS}
    closed = (await client.post("/v1/matches", json=private, headers=ana["headers"])).json()
    refused = await client.get(f"/v1/matches/{closed['id']}", headers=eve["headers"])
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
    # A table open to spectators (docs/API.md, Who may look) shows them no number either.
    body = {"ruleset": "all-fives", "seats": SEATS, "options": {"spectators": True}}
    made = (await client.post("/v1/matches", json=body, headers=ana["headers"])).json()
    mid = made["id"]
    assert made["code"] is not None  # the host sees it
    joined = await client.post(
        "/v1/matches/join", json={"code": made["code"]}, headers=bob["headers"]
    )
    assert joined.json()["code"] == made["code"]  # and whoever joined by it
    outsider = await client.get(f"/v1/matches/{mid}", headers=eve["headers"])
    assert outsider.status_code == 200 and outsider.json()["code"] is None
    # The chain: a finished match's rematch, looked at from outside.
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    await client.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
    await client.post(f"/v1/matches/{mid}/rematch", json={}, headers=ana["headers"])
    await client.post(f"/v1/matches/{mid}/rematch", json={}, headers=bob["headers"])
    finished = (await client.get(f"/v1/matches/{mid}", headers=eve["headers"])).json()
    rematch_id = finished["rematch_match_id"]
    assert rematch_id is not None
    rematch = (await client.get(f"/v1/matches/{rematch_id}", headers=eve["headers"])).json()
    assert rematch["status"] == "waiting" and rematch["code"] is None
    seated = (await client.get(f"/v1/matches/{rematch_id}", headers=ana["headers"])).json()
    assert seated["code"] is not None and len(seated["code"]) == 4
