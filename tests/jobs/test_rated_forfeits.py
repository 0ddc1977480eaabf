"""Ratings in the sweep's batches (docs/API.md, "Ratings"): one batch that forfeits a player
at two rated tables moves that player's rating twice, in order, in the batch's one commit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import create_match, new_player, play_until_each_moved, view
from tests.api.test_ratings import establish
from tests.jobs.factory import HUMANS


async def _table(client: httpx.AsyncClient, host: dict, guest: dict) -> str:
    created = await create_match(client, host, "all-fives", HUMANS)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=guest["headers"]
    )
    assert joined.status_code == 200, joined.text
    mid = str(created["id"])
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=host["headers"])
    assert started.status_code == 200, started.text
    return mid


async def test_one_batch_forfeits_a_player_at_two_rated_tables_and_rates_both(
    client: httpx.AsyncClient, clock: FakeClock, core: Any, database_url: str
) -> None:
    start = clock.now()
    ana, bob, cy = [await new_player(client, name) for name in ("Ana", "Bob", "Cy")]
    await establish(database_url, "all-fives", ana, bob, cy)  # their results count fully
    first, second = await _table(client, ana, bob), await _table(client, ana, cy)
    # Each holder moves once (else an abort, for ratings), all at the start.
    await play_until_each_moved(client, first, {0: ana, 1: bob})
    await play_until_each_moved(client, second, {0: ana, 1: cy})
    clock.set(start + timedelta(seconds=100))
    await view(client, bob, first)  # Bob and Cy stay; Ana has been away since the start
    await view(client, cy, second)
    clock.set(start + timedelta(seconds=180))
    report = await sweep_pass(core)
    forfeits = {o.match_id: (o.action, o.seat) for o in report.outcomes}
    assert forfeits == {first: ("forfeit", 0), second: ("forfeit", 0)}
    ids = ",".join(p["id"] for p in (ana, bob, cy))
    got = await client.get(
        "/v1/ratings", params={"preset": "all-fives", "players": ids}, headers=bob["headers"]
    )
    rows = {r["player_id"]: r for r in got.json()["ratings"]}
    assert rows[ana["id"]]["games"] == 12 and rows[ana["id"]]["rating"] < 1500
    for winner in (bob, cy):
        assert rows[winner["id"]]["games"] == 11 and rows[winner["id"]]["rating"] > 1500
    # The second loss counted from the first's rating: Ana fell further than either rose.
    assert 1500 - rows[ana["id"]]["rating"] > rows[bob["id"]]["rating"] - 1500
