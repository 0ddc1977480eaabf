"""A request about the match counts as presence (docs/API.md, "The away rule"; issue 25): a seat
played over REST alone shows connected, announced by `seat_connected`, until its lease lapses."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from domino_api.matches import presence
from domino_api.store.db import transaction
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


async def test_a_late_lease_refresh_never_shows_a_present_seat_as_gone(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    """The flaky /play test (issue 25): on a loaded machine a socket's lease was renewed late, a
    view taken in between showed the seat gone, and no event ever turned it back on (the
    seat had never been marked gone). The view now shows what the events say."""
    core, maker = app.state.core, app.state.sessionmaker
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    await presence.connect_seats(core, mid, [0])  # Ana's socket opens on this process
    clock.advance(31)  # her lease ran out: the refresh is late
    seen = await view(client, bob, mid)
    assert seen["seats"][0]["connected"] is True  # nothing said she had gone
    async with transaction(maker) as session:  # the late refresh renews her socket's lease
        lapsed = await presence.refresh_leases(session, [(mid, 0)], clock.now())
    assert lapsed == []  # she was never marked gone, so no seat_connected follows
    assert (await view(client, bob, mid))["seats"][0]["connected"] is True
    assert ("seat_disconnected", 0) not in await _presence(client, bob, mid)
