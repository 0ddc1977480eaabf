"""Abandonment (docs/RULES.md, section 10, "What is due"): 30 min waiting without a start,
30 min with no human seat connected at a table holding a game number (a day without one:
tests/jobs/test_solo_autopilot.py), its number given back with the end."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import create_match, new_player, view
from tests.jobs.factory import HUMANS, two_seat_match

TICK = timedelta(microseconds=1)
ABSENT = timedelta(minutes=30)  # engine/table/clocks.py NUMBERED_ABANDON_AFTER
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


async def test_nobody_at_a_numbered_table_for_30_min_abandons_it_and_frees_its_number(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, _, gone = await two_seat_match(client, "draw-50")
    cy, _, kept = await two_seat_match(client, "draw-50", names=("Cy", "Di"))
    number = (await view(client, ana, gone["id"]))["code"]
    assert number is not None
    clock.set(start + timedelta(minutes=20))
    await view(client, cy, kept["id"])  # one human seat looked in at 20 min
    clock.set(start + ABSENT - TICK)
    assert (await sweep_pass(core)).outcomes == []
    clock.set(start + ABSENT)
    report = await sweep_pass(core)
    acted = [(o.match_id, o.due) for o in report.outcomes if o.action != "none"]
    assert acted == [(gone["id"], "abandon_absent")]
    # The other match is not visited: the pass before recorded its seats' lapsed presence
    # (seat_disconnected), a step that stored its due moment afresh (Cy's look at 20 min).
    assert [o.match_id for o in report.outcomes if o.action == "none"] == []
    over = await view(client, ana, gone["id"])
    assert over["status"] == "abandoned" and over["code"] is None  # the number is free again
    late = await client.post("/v1/matches/join", json={"code": number}, headers=cy["headers"])
    assert late.status_code == 404  # a late joiner finds no table, not the abandoned one
    clock.set(start + timedelta(minutes=20) + ABSENT)
    report = await sweep_pass(core)
    assert [(o.match_id, o.action) for o in report.outcomes] == [(kept["id"], "abandon")]
    assert (await view(client, cy, kept["id"]))["status"] == "abandoned"
