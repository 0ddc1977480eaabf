"""Profiles (docs/API.md, "Profiles"): a player's ratings with their history, recent matches
with results and records, read by any signed-in player; nothing hidden leaks, and a wrong id
is a 4xx problem document."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from domino_api.clock import FakeClock
from domino_api.players.profile_types import ProfileOut
from tests.api.helpers import create_match, new_player, play_to_end
from tests.api.test_ratings import _table, establish


async def _profile(client: httpx.AsyncClient, asker: dict[str, Any], who: str) -> httpx.Response:
    return await client.get(f"/v1/players/{who}/profile", headers=asker["headers"])


async def test_rated_matches_show_in_the_ratings_their_history_and_recent_matches(
    client: httpx.AsyncClient, database_url: str, clock: FakeClock
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    cy = await new_player(client, "Cy")
    await establish(database_url, "draw-50", ana, bob)
    finals = []
    for _ in range(2):
        mid = await _table(client, ana, bob, rated="true")
        finals.append((mid, await play_to_end(client, mid, {0: ana, 1: bob})))
        clock.advance(60)  # the second finishes a minute later: newest first is an order

    got = await _profile(client, cy, ana["id"])
    assert got.status_code == 200, got.text
    msgspec.json.decode(got.content, type=ProfileOut)  # the contract's shape, strictly
    body = got.json()
    assert (body["id"], body["name"]) == (ana["id"], "Ana")
    assert body["joined_at"].endswith("Z")
    (rating,) = body["ratings"]
    assert (rating["preset"], rating["games"]) == ("draw-50", 12)
    history = rating["history"]
    assert len(history) == 2
    assert history[0]["at"] < history[1]["at"]
    assert history[-1]["rating"] == rating["rating"]

    recent = body["recent"]
    assert [m["id"] for m in recent] == [mid for mid, _ in reversed(finals)]
    for match, (_, final) in zip(recent, reversed(finals), strict=True):
        winner = final["result"]["winner"]
        assert match["outcome"] == ("won" if winner == 0 else "lost")
        assert match["status"] == "finished" and match["rated"] is True
        assert [s["name"] for s in match["seats"]] == ["Ana", "Bob"]
        assert [s["score"] for s in match["seats"]] == final["result"]["scores"]
        assert [s["theirs"] for s in match["seats"]] == [True, False]

    wins = sum(m["outcome"] == "won" for m in recent)
    (line,) = body["records"]
    assert (line["preset"], line["opponent"]) == ("draw-50", "human")
    assert (line["wins"], line["losses"]) == (wins, 2 - wins)

    # Where a client finds the ids its names link to: its matches, and a table's seat ratings.
    listed = (await client.get("/v1/matches", headers=ana["headers"])).json()["matches"][0]
    assert [s["player_id"] for s in listed["seats"]] == [ana["id"], bob["id"]]
    seats = (await client.get(f"/v1/matches/{listed['id']}/ratings", headers=bob["headers"])).json()
    assert [s["player_id"] for s in seats["seats"]] == [ana["id"], bob["id"]]

    text = got.text
    for hidden in ('"code"', '"hand"', '"secret"', '"snapshot"', '"token"'):
        assert hidden not in text


async def test_a_new_player_has_an_empty_profile(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    body = (await _profile(client, ana, ana["id"])).json()
    assert (body["ratings"], body["recent"], body["records"]) == ([], [], [])


async def test_unknown_and_malformed_ids_are_problem_documents(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    unknown = await _profile(client, ana, "0" * 36)
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "player_not_found"
    assert unknown.headers["content-type"].startswith("application/problem+json")
    for bad in ("a" * 37, "bad%20id", "%00", "x.y"):
        wrong = await client.get(f"/v1/players/{bad}/profile", headers=ana["headers"])
        assert 400 <= wrong.status_code < 500, (bad, wrong.status_code)
        assert wrong.headers["content-type"].startswith("application/problem+json"), bad
    nobody = await client.get(f"/v1/players/{ana['id']}/profile")
    assert nobody.status_code == 401


async def test_a_loss_by_resigning_and_an_abandoned_match_show_as_such(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, cy = await new_player(client, "Ana"), await new_player(client, "Cy")
    plain = [{"type": "bot", "strategy": "plain"}]
    two = await create_match(client, ana, "all-fives", [{"type": "human"}, *plain], {})
    three = plain + [{"type": "bot", "strategy": "random"}]
    later = await create_match(client, ana, "house-nines", [{"type": "human"}, *three])
    for match in (two, later):
        await client.post(f"/v1/matches/{match['id']}/start", json={}, headers=ana["headers"])
        await client.post(f"/v1/matches/{match['id']}/resign", json={}, headers=ana["headers"])
        clock.advance(60)

    body = (await _profile(client, cy, ana["id"])).json()
    abandoned, lost = body["recent"]
    assert (abandoned["id"], abandoned["status"], abandoned["outcome"]) == (
        later["id"],
        "abandoned",
        "abandoned",
    )
    assert (lost["id"], lost["outcome"], lost["rated"]) == (two["id"], "lost", False)
    assert [(s["name"], s["computer"]) for s in abandoned["seats"]] == [
        ("Ana", False),
        ("Plain", True),
        ("Random", True),
    ]
    assert body["ratings"] == [] and body["records"] == []  # unrated, and no record by resigning
