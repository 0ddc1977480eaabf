"""Quick pairing for four (issue 52): seeks for a partnership preset wait until four
compatible seekers exist, then all four are seated at one table, dealt at once, in the order
they came; a block keeps two players apart here as for two."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from tests.api.helpers import new_player

WANTED = {"ruleset": "partners-block", "options": {"target": 40}}


async def _seek(client: httpx.AsyncClient, who: dict[str, Any], clock: FakeClock) -> Any:
    clock.advance(1)  # the app's clock stamps a seek: one a second, so their order is known
    r = await client.post("/v1/lobby/seeks", json=WANTED, headers=who["headers"])
    assert r.status_code == 201, r.text
    return r.json()


async def _poll(client: httpx.AsyncClient, who: dict[str, Any], seek: dict[str, Any]) -> Any:
    r = await client.get(f"/v1/lobby/seeks/{seek['id']}", headers=who["headers"])
    assert r.status_code == 200, r.text
    return r.json()


async def test_four_partnership_seekers_land_at_one_started_table(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    players = [await new_player(client, name) for name in ("Ana", "Bob", "Cy", "Dee")]
    seeks = [await _seek(client, p, clock) for p in players[:3]]
    assert [s["status"] for s in seeks] == ["open"] * 3  # three alone are not paired
    for who, seek in zip(players[:3], seeks, strict=True):
        assert (await _poll(client, who, seek))["status"] == "open"
    seeks.append(await _seek(client, players[3], clock))
    polled = [await _poll(client, p, s) for p, s in zip(players, seeks, strict=True)]
    assert {s["status"] for s in polled} == {"paired"}
    match = polled[0]["match"]
    assert {s["match"] for s in polled} == {match}
    assert [s["seat"] for s in polled] == [0, 1, 2, 3]  # in the order they came
    for seat, who in enumerate(players):
        view = (await client.get(f"/v1/matches/{match}", headers=who["headers"])).json()
        assert view["status"] == "playing" and view["ruleset"]["partnership"] is True, view
        assert [s["name"] for s in view["seats"]] == ["Ana", "Bob", "Cy", "Dee"]
        assert view["you"]["seat"] == seat
        assert len(view["you"]["hand"]) == 7  # dealt at once


async def _block(client: httpx.AsyncClient, host: dict[str, Any], other: dict[str, Any]) -> None:
    created = await client.post("/v1/matches", json={"ruleset": "classic"}, headers=host["headers"])
    code, match_id = created.json()["code"], created.json()["id"]
    r = await client.post("/v1/matches/join", json={"code": code}, headers=other["headers"])
    assert r.status_code == 200, r.text
    r = await client.put(f"/v1/matches/{match_id}/seats/1/block", headers=host["headers"])
    assert r.status_code == 200, r.text


async def test_a_blocked_pair_is_never_seated_at_one_partnership_table(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, cy, dee, eve = [await new_player(client, n) for n in ("An", "Bo", "Cyd", "De", "Ev")]
    await _block(client, ana, bob)
    first, second = await _seek(client, ana, clock), await _seek(client, bob, clock)
    third, fourth = await _seek(client, cy, clock), await _seek(client, dee, clock)
    # Four seekers, but Ana blocked Bob: no table of four may hold both.
    assert (await _poll(client, ana, first))["status"] == "open"
    assert (await _poll(client, bob, second))["status"] == "open"
    fifth = await _seek(client, eve, clock)
    assert fifth["status"] == "paired"
    seated = {ana["id"]: first, cy["id"]: third, dee["id"]: fourth}
    who = {ana["id"]: ana, cy["id"]: cy, dee["id"]: dee}
    for player_id, seek in seated.items():
        polled = await _poll(client, who[player_id], seek)
        assert polled["status"] == "paired" and polled["match"] == fifth["match"]
    assert (await _poll(client, bob, second))["status"] == "open"  # Bob still waits
    r = await client.get(f"/v1/matches/{fifth['match']}", headers=ana["headers"])
    assert [seat["name"] for seat in r.json()["seats"]] == ["An", "Cyd", "De", "Ev"]
    await client.delete(f"/v1/lobby/seeks/{second['id']}", headers=bob["headers"])
