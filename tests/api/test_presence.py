"""A request about the match counts as presence (docs/API.md, "The away rule"; issue 25): a seat
played over REST alone shows connected, announced by `seat_connected`, until its lease lapses."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import create_match, new_player, view

HUMANS = [{"type": "human"}, {"type": "human"}]


async def _presence(client: httpx.AsyncClient, who: dict[str, Any], mid: str) -> list[Any]:
    found = await client.get(f"/v1/matches/{mid}/events", headers=who["headers"])
    kinds = ("seat_connected", "seat_disconnected")
    return [(e["type"], e["data"]["seat"]) for e in found.json()["events"] if e["type"] in kinds]


async def test_a_seat_seen_only_over_rest_is_connected_until_its_lease_lapses(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    await view(client, bob, mid)  # Bob's own request: he is at the table
    seen = await view(client, ana, mid)
    assert [s["connected"] for s in seen["seats"]] == [True, True]
    assert [s["away_since"] for s in seen["seats"]] == [None, None]
    assert await _presence(client, ana, mid) == [("seat_connected", 0), ("seat_connected", 1)]

    clock.advance(20)
    await view(client, ana, mid)  # Ana keeps looking in; Bob is quiet
    clock.advance(11)  # 31 s since Bob's last request: his lease (30 s) has lapsed
    await sweep_pass(core=app.state.core)  # the expiry records it
    seen = await view(client, ana, mid)
    assert [s["connected"] for s in seen["seats"]] == [True, False]
    assert seen["seats"][1]["away_since"] is not None
    assert (await _presence(client, ana, mid))[-1] == ("seat_disconnected", 1)

    back = await view(client, bob, mid)  # one request brings him back
    assert back["seats"][1]["connected"] is True
    assert (await _presence(client, ana, mid))[-1] == ("seat_connected", 1)
