"""Small client helpers for API tests: players, matches, playing legal moves."""

from __future__ import annotations

from typing import Any

import httpx


async def new_player(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


async def create_match(
    client: httpx.AsyncClient,
    host: dict[str, Any],
    ruleset: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body = {"ruleset": ruleset, "seats": seats, "options": options or {}}
    response = await client.post("/v1/matches", json=body, headers=host["headers"])
    assert response.status_code == 201, response.text
    return response.json()


async def view(
    client: httpx.AsyncClient, player: dict[str, Any], match_id: str, seat: int | None = None
) -> dict[str, Any]:
    params = {"seat": seat} if seat is not None else {}
    response = await client.get(f"/v1/matches/{match_id}", headers=player["headers"], params=params)
    assert response.status_code == 200, response.text
    return response.json()


def first_legal(v: dict[str, Any]) -> dict[str, Any]:
    """The view's first legal entry, as it is: with `seq` it is a move body."""
    return dict(v["legal"][0])


async def play_to_end(
    client: httpx.AsyncClient,
    match_id: str,
    holders: dict[int, dict[str, Any]],
    max_steps: int = 5000,
) -> dict[str, Any]:
    """Drive every human seat with its first legal action until the match is over.

    Each move's answer carries the mover's next view, so a view is fetched only when the turn
    passes to a seat held by someone else.
    """
    any_holder = next(iter(holders.values()))
    v = await view(client, any_holder, match_id)
    for _ in range(max_steps):
        if v["status"] in ("finished", "abandoned", "cancelled"):
            return v
        if v["status"] == "hand_over":
            r = await client.post(
                f"/v1/matches/{match_id}/hands", headers=any_holder["headers"], json={}
            )
            assert r.status_code == 200, r.text
            v = r.json()
            continue
        seat = v["turn"]["seat"]
        player = holders[seat]
        mine = (
            v
            if v["you"] and v["you"]["seat"] == seat
            else await view(client, player, match_id, seat)
        )
        body = {**first_legal(mine), "seq": mine["seq"], "seat": seat}
        r = await client.post(f"/v1/matches/{match_id}/moves", json=body, headers=player["headers"])
        assert r.status_code == 200, r.text
        v = r.json()["view"]
        if v["turn"] and v["turn"]["seat"] != seat and v["status"] == "playing":
            nxt = v["turn"]["seat"]
            v = await view(client, holders[nxt], match_id, nxt)
    raise AssertionError("match did not finish")


async def play_until_each_moved(
    client: httpx.AsyncClient, match_id: str, holders: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """Drive the human seats with their first legal actions until each has made a move of its
    own (what a rated match needs, docs/API.md "Ratings") or the match is over; the last view."""
    moved: set[int] = set()
    any_holder = next(iter(holders.values()))
    v = await view(client, any_holder, match_id)
    while moved != set(holders) and v["status"] not in ("finished", "abandoned", "cancelled"):
        if v["status"] == "hand_over":
            r = await client.post(
                f"/v1/matches/{match_id}/hands", headers=any_holder["headers"], json={}
            )
            v = r.json()
            continue
        seat = v["turn"]["seat"]
        mine = await view(client, holders[seat], match_id, seat)
        body = {**first_legal(mine), "seq": mine["seq"], "seat": seat}
        r = await client.post(
            f"/v1/matches/{match_id}/moves", json=body, headers=holders[seat]["headers"]
        )
        assert r.status_code == 200, r.text
        moved.add(seat)
        v = r.json()["view"]
    return v
