"""Abandonment (docs/RULES.md, section 10, "What is due"): 30 min waiting without a start,
24 h with no human seat connected."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import create_match, new_player, view
from tests.jobs.factory import HUMANS, two_seat_match

TICK = timedelta(microseconds=1)
DAY = timedelta(hours=24)
WAITING = timedelta(minutes=30)


async def test_a_match_that_never_starts_is_abandoned_after_30_min(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw-50", HUMANS)
    clock.advance(600)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200
    clock.set(start + WAITING - TICK)
    assert (await sweep_pass(core)).outcomes == []
    clock.set(start + WAITING)
    report = await sweep_pass(core)
    assert [(o.match_id, o.due) for o in report.outcomes] == [(created["id"], "abandon_waiting")]
    seen = await view(client, ana, created["id"])
    assert seen["status"] == "abandoned" and seen["result"]["winner"] is None
    ledger = await client.get(f"/v1/matches/{created['id']}/ledger", headers=ana["headers"])
    assert ledger.status_code == 200 and ledger.json()["deal"]["cut"] is None


async def test_nobody_at_the_table_for_24_h_abandons(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    _, _, gone = await two_seat_match(client, "draw-50")
    cy, _, kept = await two_seat_match(client, "draw-50", names=("Cy", "Di"))
    clock.set(start + timedelta(hours=23))
    await view(client, cy, kept["id"])  # one human seat looked in at 23 h
    clock.set(start + DAY - TICK)
    assert (await sweep_pass(core)).outcomes == []
    clock.set(start + DAY)
    report = await sweep_pass(core)
    acted = [(o.match_id, o.due) for o in report.outcomes if o.action != "none"]
    assert acted == [(gone["id"], "abandon_absent")]
    # The other match is not visited: the pass before recorded its seats' lapsed presence
    # (seat_disconnected), a step that stored its due moment afresh (Cy's look at 23 h).
    assert [o.match_id for o in report.outcomes if o.action == "none"] == []
    clock.set(start + timedelta(hours=23) + DAY)
    report = await sweep_pass(core)
    assert [(o.match_id, o.action) for o in report.outcomes] == [(kept["id"], "abandon")]
    assert (await view(client, cy, kept["id"]))["status"] == "abandoned"
