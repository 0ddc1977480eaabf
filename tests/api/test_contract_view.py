"""The view's contract fields: each counting human seat's away deadline, the boneyard's back,
and what a viewer without a seat is not shown."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx

from domino_api.clock import FakeClock
from tests.api.helpers import create_match, new_player, view

HUMANS = [{"type": "human"}, {"type": "human"}]


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def _started(client: httpx.AsyncClient, ruleset: str) -> tuple[dict, dict, dict]:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, ruleset, HUMANS)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={"cut": "x"}, headers=ana["headers"]
    )
    assert started.status_code == 200, started.text
    return ana, bob, started.json()


async def test_each_human_seat_shows_when_the_away_rule_would_forfeit_it(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, started = await _started(client, "all-fives")  # away_forfeit_s 180
    limit = started["ruleset"]["away_forfeit_s"]
    assert limit == 180
    clock.advance(50)
    seen = await view(client, ana, started["id"])  # Ana is seen now; Bob 50 s ago
    deadlines = [_at(seat["away_deadline"]) for seat in seen["seats"]]
    assert deadlines[0] == clock.now() + timedelta(seconds=limit)
    assert deadlines[1] == clock.now() - timedelta(seconds=50) + timedelta(seconds=limit)
    # The deadline moves on with every sighting of the seat.
    clock.advance(10)
    again = await view(client, bob, started["id"])
    assert _at(again["seats"][1]["away_deadline"]) == clock.now() + timedelta(seconds=limit)


async def test_no_away_deadline_where_the_rule_does_not_apply(client: httpx.AsyncClient) -> None:
    _, _, started = await _started(client, "draw")  # no away rule in this preset
    assert started["ruleset"]["away_forfeit_s"] is None
    assert [seat["away_deadline"] for seat in started["seats"]] == [None, None]


async def test_the_view_names_the_boneyards_back(client: httpx.AsyncClient) -> None:
    ana, _, started = await _started(client, "draw")
    assert started["stock_back"] == "moon"
    backs = (await client.get("/v1/tile-backs", headers=ana["headers"])).json()
    assert started["stock_back"] in {b["id"] for b in backs}
