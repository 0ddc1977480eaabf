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


async def _team_seek(
    client: httpx.AsyncClient, who: dict[str, Any], partner: dict[str, Any], clock: FakeClock
) -> Any:
    clock.advance(1)
    body = {**WANTED, "partner": partner["id"]}
    r = await client.post("/v1/lobby/seeks", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    assert r.json()["partner"] == partner["id"]
    return r.json()


async def _names(client: httpx.AsyncClient, who: dict[str, Any], match: str) -> list[str]:
    r = await client.get(f"/v1/matches/{match}", headers=who["headers"])
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    return [seat["name"] for seat in r.json()["seats"]]


async def test_a_pair_seeking_a_pair_sits_as_partners(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, cy, dee = [await new_player(client, n) for n in ("Ana", "Bob", "Cy", "Dee")]
    # Cy seeks alone first; Ana names Bob, but until Bob names her back she waits for him.
    single = await _seek(client, cy, clock)
    team = await _team_seek(client, ana, bob, clock)
    assert (await _seek(client, dee, clock))["status"] == "open"  # three, but Ana needs Bob
    assert (await _poll(client, ana, team))["status"] == "open"
    mate = await _team_seek(client, bob, ana, clock)
    assert mate["status"] == "paired"  # the pair against the two singles, dealt at once
    match = mate["match"]
    assert (await _poll(client, ana, team))["seat"] == 0 and mate["seat"] == 2
    # The team sits at 0 and 2 although Cy came first; the singles at 1 and 3 as they came.
    assert await _names(client, cy, match) == ["Ana", "Cy", "Bob", "Dee"]
    assert (await _poll(client, cy, single))["seat"] == 1


async def test_two_pairs_meet_and_a_one_sided_partner_waits(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    names = ("Eva", "Fin", "Gus", "Hal", "Ivy")
    eva, fin, gus, hal, ivy = [await new_player(client, n) for n in names]
    # Ivy names Eva, who seeks with Fin: Ivy is nobody's partner and is never seated.
    lone = await _team_seek(client, ivy, eva, clock)
    first = await _team_seek(client, eva, fin, clock)
    await _team_seek(client, fin, eva, clock)
    await _team_seek(client, gus, hal, clock)
    last = await _team_seek(client, hal, gus, clock)
    assert last["status"] == "paired" and last["seat"] == 3
    assert await _names(client, gus, last["match"]) == ["Eva", "Gus", "Fin", "Hal"]
    assert (await _poll(client, eva, first))["match"] == last["match"]
    assert (await _poll(client, ivy, lone))["status"] == "open"
    await client.delete(f"/v1/lobby/seeks/{lone['id']}", headers=ivy["headers"])


async def test_a_partner_is_refused_where_it_means_nothing(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ann"), await new_player(client, "Ben")
    wrongs = [
        ({"ruleset": "block", "partner": bob["id"]}, 422),  # not a partnership preset
        ({**WANTED, "partner": ana["id"]}, 422),  # oneself
        ({**WANTED, "partner": "no-such-player"}, 404),
    ]
    for body, status in wrongs:
        r = await client.post("/v1/lobby/seeks", json=body, headers=ana["headers"])
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("application/problem+json")


async def _talk_seek(
    client: httpx.AsyncClient, who: dict[str, Any], clock: FakeClock, talk: str | None
) -> Any:
    clock.advance(1)
    options = {"target": 40} | ({"talk": talk} if talk is not None else {})
    body = {"ruleset": "partners-block", "options": options}
    r = await client.post("/v1/lobby/seeks", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    return r.json()


async def test_a_seek_takes_table_talk_and_pairs_only_alike(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """`options.talk` as at a new table: etiquette seekers sit only with etiquette seekers, and
    `talk: "free"` (the default) with seekers who left it out."""
    names = ("Ada", "Ben", "Cal", "Dot", "Eli", "Fay", "Gil", "Hub")
    ada, ben, cal, dot, eli, fay, gil, hub = [await new_player(client, n) for n in names]
    polite = [await _talk_seek(client, p, clock, "etiquette") for p in (ada, ben, cal)]
    assert polite[0]["options"]["talk"] == "etiquette"
    plain = await _talk_seek(client, dot, clock, None)
    assert plain["status"] == "open"  # four seekers, but Dot did not ask for etiquette
    last = await _talk_seek(client, eli, clock, "etiquette")
    assert last["status"] == "paired"
    for who, seek in zip((ada, ben, cal), polite, strict=True):
        assert (await _poll(client, who, seek))["match"] == last["match"]
    r = await client.get(f"/v1/matches/{last['match']}", headers=eli["headers"])
    assert r.json()["talk_etiquette"] is True and r.json()["status"] == "playing", r.text
    assert (await _poll(client, dot, plain))["status"] == "open"
    free = [await _talk_seek(client, p, clock, "free") for p in (fay, gil)]
    final = await _talk_seek(client, hub, clock, None)
    assert final["status"] == "paired" and final["seat"] == 3
    assert (await _poll(client, dot, plain))["match"] == final["match"]
    assert (await _poll(client, fay, free[0]))["match"] == final["match"]
    r = await client.get(f"/v1/matches/{final['match']}", headers=hub["headers"])
    assert r.json()["talk_etiquette"] is False, r.text


async def test_table_talk_a_seek_cannot_take(client: httpx.AsyncClient) -> None:
    ann = await new_player(client, "Ann")
    wrongs = [
        {"ruleset": "block", "options": {"talk": "etiquette"}},  # not a partnership
        {**WANTED, "options": {"talk": "loud"}},
        {**WANTED, "options": {"talk": 1}},
    ]
    for body in wrongs:
        r = await client.post("/v1/lobby/seeks", json=body, headers=ann["headers"])
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
