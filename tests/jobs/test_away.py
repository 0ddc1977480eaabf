"""Away forfeits (RULES 10, seed 000): 180 s in a row away from the table, whoever notices."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import view
from tests.jobs.factory import events, two_seat_match

TICK = timedelta(microseconds=1)


def _acted(report: Any) -> list[Any]:
    """What a pass did, leaving out visits to matches whose stored due moment was early."""
    return [o for o in report.outcomes if o.action != "none"]


async def _at(clock: FakeClock, start: Any, seconds: float) -> None:
    clock.set(start + timedelta(seconds=seconds))


async def test_leave_come_back_at_179_then_stay_away_180(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, bob, v = await two_seat_match(client, "all-fives")
    assert v["ruleset"]["away_forfeit_s"] == 180 and v["turn"]["deadline"] is None
    await _at(clock, start, 100)
    await view(client, bob, v["id"])  # Bob stays at the table
    await _at(clock, start, 179)
    back = await view(client, ana, v["id"])  # Ana comes back after 179 s: no forfeit
    assert back["status"] == "playing"
    assert _acted(await sweep_pass(core)) == []
    await _at(clock, start, 250)
    await view(client, bob, v["id"])
    clock.set(start + timedelta(seconds=179 + 180) - TICK)
    assert _acted(await sweep_pass(core)) == []
    await _at(clock, start, 179 + 180)  # Ana away 180 s in a row: she forfeits
    report = await sweep_pass(core)
    assert [(o.action, o.due, o.seat) for o in _acted(report)] == [("forfeit", "away", 0)]
    after = await view(client, bob, v["id"])
    assert after["status"] == "finished" and after["result"]["winner"] == 1
    assert after["result"]["forfeited_by"] == 0
    forfeits = [e["data"] for e in await events(client, bob, v["id"]) if e["type"] == "forfeit"]
    assert forfeits == [{"seat": 0, "cause": "away"}]


async def test_coming_back_after_the_limit_is_too_late(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    """Timeouts first: the returning request sees the forfeit the sweeper would have applied."""
    start = clock.now()
    ana, bob, v = await two_seat_match(client, "all-fives", options={"away_forfeit_s": 5})
    assert v["ruleset"]["away_forfeit_s"] == 5
    await _at(clock, start, 1)
    await view(client, bob, v["id"])
    await _at(clock, start, 5)
    back = await view(client, ana, v["id"])
    assert back["status"] == "finished" and back["result"]["forfeited_by"] == 0


async def test_the_first_to_leave_forfeits_and_a_tie_abandons(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    _, _, tied = await two_seat_match(client, "all-fives", names=("Ana", "Bob"))
    ana, _, later = await two_seat_match(client, "all-fives", names=("Cy", "Di"))
    await _at(clock, start, 10)
    await view(client, ana, later["id"])  # Cy was here at 10 s; Di left at 0 s
    await _at(clock, start, 180)
    report = await sweep_pass(core)
    done = {o.match_id: (o.action, o.seat) for o in _acted(report)}
    assert done == {tied["id"]: ("abandon", None), later["id"]: ("forfeit", 1)}
    abandoned = await view(client, ana, later["id"])
    assert abandoned["result"]["forfeited_by"] == 1
