"""Partnership etiquette for table talk (issue 52, docs/RULES.md 14): a partnership table made
with `options.talk: "etiquette"` refuses its seats' messages while a hand is in play, and
takes them before the deal and between hands; other tables cannot ask for it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import first_legal, new_player, view

FOUR = [{"type": "human"}] * 4


async def _table(client: httpx.AsyncClient, players: list[dict[str, Any]], talk: str) -> str:
    # A target no first hand reaches (a double-six hand holds 168 pips), so a hand ends first.
    body = {"ruleset": "partners-block", "seats": FOUR, "options": {"target": 500, "talk": talk}}
    created = await client.post("/v1/matches", json=body, headers=players[0]["headers"])
    assert created.status_code == 201, created.text
    for other in players[1:]:
        code = {"code": created.json()["code"]}
        joined = await client.post("/v1/matches/join", json=code, headers=other["headers"])
        assert joined.status_code == 200, joined.text
    return str(created.json()["id"])


async def _say(client: httpx.AsyncClient, who: dict[str, Any], mid: str) -> httpx.Response:
    return await client.post(
        f"/v1/matches/{mid}/messages", json={"text": "nice play"}, headers=who["headers"]
    )


async def _play_out_the_hand(
    client: httpx.AsyncClient, mid: str, holders: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    v = await view(client, holders[0], mid)
    while v["status"] == "playing":
        seat = v["turn"]["seat"]
        mine = await view(client, holders[seat], mid)
        body = {**first_legal(mine), "seq": mine["seq"]}
        r = await client.post(
            f"/v1/matches/{mid}/moves", json=body, headers=holders[seat]["headers"]
        )
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    return v


async def test_etiquette_refuses_talk_while_a_hand_is_in_play_only(
    client: httpx.AsyncClient,
) -> None:
    players = [await new_player(client, name) for name in ("Ana", "Bob", "Cy", "Dee")]
    mid = await _table(client, players, "etiquette")
    assert (await view(client, players[0], mid))["talk_etiquette"] is True
    assert (await _say(client, players[1], mid)).status_code == 201  # before the deal
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=players[0]["headers"])
    assert started.status_code == 200, started.text
    holders = {(await view(client, p, mid))["you"]["seat"]: p for p in players}
    before = (await view(client, players[0], mid))["seq"]
    for who in players:
        r = await _say(client, who, mid)
        assert r.status_code == 409 and r.json()["code"] == "talk_etiquette", r.text
    assert (await view(client, players[0], mid))["seq"] == before  # nothing was recorded
    over = await _play_out_the_hand(client, mid, holders)
    assert over["status"] == "hand_over", over["status"]
    said = await _say(client, players[2], mid)  # between hands talk is free again
    assert said.status_code == 201, said.text


async def test_free_talk_by_default_and_etiquette_only_for_partnerships(
    client: httpx.AsyncClient,
) -> None:
    players = [await new_player(client, name) for name in ("Eve", "Fay", "Gus", "Hal")]
    mid = await _table(client, players, "free")
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=players[0]["headers"])
    assert started.status_code == 200, started.text
    assert (await view(client, players[0], mid))["talk_etiquette"] is False
    assert (await _say(client, players[1], mid)).status_code == 201  # in play, talk is free
    for options in ({"talk": "etiquette"}, {"talk": "whisper"}):
        body = {"ruleset": "classic", "options": options}
        r = await client.post("/v1/matches", json=body, headers=players[0]["headers"])
        assert r.status_code == 422, r.text
        assert r.json()["code"] in ("validation_error", "bad_options"), r.text
    # A seek takes the talk option as a new table does (tests/api/test_partner_seeks.py).
    seek = {"ruleset": "classic", "options": {"talk": "etiquette"}}
    r = await client.post("/v1/lobby/seeks", json=seek, headers=players[0]["headers"])
    assert r.status_code == 422 and r.json()["code"] == "validation_error", r.text
    seek = {"ruleset": "partners-block", "options": {"talk": "etiquette"}}
    r = await client.post("/v1/lobby/seeks", json=seek, headers=players[0]["headers"])
    assert r.status_code == 201 and r.json()["options"] == {"talk": "etiquette"}, r.text
