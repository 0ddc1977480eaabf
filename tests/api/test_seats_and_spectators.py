"""Who may look (seats, allowed spectators, 403 not_seated), seat names at a table (join by
number and name, named hot-seat seats), and a clock option a solo table refuses."""

from __future__ import annotations

import httpx

from tests.api.helpers import create_match, new_player

HUMANS = [{"type": "human"}, {"type": "human"}]


async def _join(client: httpx.AsyncClient, player: dict, code: str, name: str | None = None):
    body = {"code": code} if name is None else {"code": code, "name": name}
    return await client.post("/v1/matches/join", json=body, headers=player["headers"])


async def test_a_player_without_a_seat_sees_nothing_of_a_private_table(
    client: httpx.AsyncClient,
) -> None:
    ana, eve = await new_player(client, "Ana"), await new_player(client, "Eve")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    for path in (f"/v1/matches/{mid}", f"/v1/matches/{mid}/events"):
        refused = await client.get(path, headers=eve["headers"])
        assert refused.status_code == 403, path
        assert refused.json()["code"] == "not_seated"
        assert "Ana" not in refused.text


async def test_a_table_open_to_spectators_shows_them_the_public_view_only(
    client: httpx.AsyncClient,
) -> None:
    ana, bob, eve = [await new_player(client, n) for n in ("Ana", "Bob", "Eve")]
    created = await create_match(client, ana, "draw", HUMANS, {"spectators": True})
    assert (await _join(client, bob, created["code"])).status_code == 200
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"]
    )
    assert started.status_code == 200
    watched = await client.get(f"/v1/matches/{created['id']}", headers=eve["headers"])
    assert watched.status_code == 200
    view = watched.json()
    assert view["you"] is None and view["legal"] == [] and view["code"] is None
    assert [s["tiles"] for s in view["seats"]] == [7, 7]
    events = await client.get(f"/v1/matches/{created['id']}/events", headers=eve["headers"])
    dealt = [e for e in events.json()["events"] if e["type"] == "hand_started"]
    assert dealt and all("hand" not in e["data"] for e in dealt)
    turns = [e for e in events.json()["events"] if e["type"] == "turn"]
    assert turns and all("legal" not in e["data"] for e in turns)
    refused = await client.post(
        f"/v1/matches/{created['id']}/messages", json={"text": "hi"}, headers=eve["headers"]
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"


async def test_spectators_must_be_true_or_false(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    body = {"ruleset": "draw", "seats": HUMANS, "options": {"spectators": "yes"}}
    r = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert r.status_code == 422 and r.json()["code"] == "bad_options"  # an option of a wrong type
    assert "spectators" in r.json()["detail"]


async def test_join_by_number_and_name_the_name_is_the_seats_at_that_table(
    client: httpx.AsyncClient,
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "bob-profile")
    created = await create_match(client, ana, "draw", HUMANS)
    joined = await _join(client, bob, created["code"], "Grandpa Bob")
    assert joined.status_code == 200, joined.text
    assert joined.json()["seats"][1]["name"] == "Grandpa Bob"
    events = await client.get(f"/v1/matches/{created['id']}/events", headers=ana["headers"])
    found = events.json()["events"]
    (seated,) = [e for e in found if e["type"] == "seat_joined" and e["data"]["seat"] == 1]
    assert seated["type"] == "seat_joined" and seated["data"]["name"] == "Grandpa Bob"
    # The profile keeps its own name; only this table knows him as Grandpa Bob.
    me = await client.get("/v1/players/me", headers=bob["headers"])
    assert me.json()["name"] == "bob-profile"
    # Another device joining under the seat's name, while its holder is here: the seat is in use.
    bob2 = await new_player(client, "someone")
    again = await _join(client, bob2, created["code"], "Grandpa Bob")
    assert again.status_code == 409 and again.json()["code"] == "seat_in_use"
    too_long = await _join(client, bob2, created["code"], "x" * 33)
    assert too_long.status_code == 422


async def test_table_talk_goes_by_the_name_of_the_seat_that_speaks(
    client: httpx.AsyncClient,
) -> None:
    """Issue 25: `message.data.name` was the profile name, not the seat's name."""
    ana, ben = await new_player(client, "Ana-profile"), await new_player(client, "Ben-profile")
    kid = {"type": "human", "holder": "host", "name": "Kid"}
    seats = [{"type": "human", "name": "Mum"}, {"type": "human"}, kid]
    created = await create_match(client, ana, "house-nines", seats)
    assert (await _join(client, ben, created["code"], "Benny")).status_code == 200
    said = []
    for player, body in ((ben, {}), (ana, {}), (ana, {"seat": 2})):
        url = f"/v1/matches/{created['id']}/messages"
        response = await client.post(url, json={"text": "hi", **body}, headers=player["headers"])
        assert response.status_code == 201, response.text
        said.append((response.json()["data"]["seat"], response.json()["data"]["name"]))
    assert said == [(1, "Benny"), (0, "Mum"), (2, "Kid")]


async def test_hot_seat_seats_can_be_named(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human", "name": "Mum"}, {"type": "human", "holder": "host", "name": "Kid"}]
    created = await create_match(client, ana, "draw-50", seats)
    assert [s["name"] for s in created["seats"]] == ["Mum", "Kid"]
    bad = {"ruleset": "draw", "seats": [{"type": "human"}, {"type": "bot", "name": "R2"}]}
    r = await client.post("/v1/matches", json=bad, headers=ana["headers"])
    assert r.status_code == 422


async def test_a_clock_given_for_a_solo_table_is_refused_not_dropped(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    solo = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    body = {"ruleset": "all-fives", "seats": solo, "options": {"away_forfeit_s": 60}}
    r = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert r.status_code == 422 and r.json()["code"] == "option_not_allowed"
    assert "away_forfeit_s" in r.json()["detail"]
    body["seats"] = HUMANS  # with a human opponent the same option is honoured
    r = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert r.status_code == 201 and r.json()["ruleset"]["away_forfeit_s"] == 60
