"""Turn clocks (RULES 10): the deadline, the tick before and after it, and a move racing a sweep."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import first_legal, view
from tests.jobs.factory import BLITZ, events, parse, sweep_while_a_move_commits, two_seat_match

TICK = timedelta(microseconds=1)


def _on_turn(v: dict[str, Any], ana: dict[str, Any], bob: dict[str, Any]) -> dict[str, Any]:
    return ana if v["turn"]["seat"] == v["you"]["seat"] else bob


async def test_deadline_is_start_plus_allowance_plus_grace(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    started_at = clock.now()
    _, _, v = await two_seat_match(client, options=BLITZ)
    assert v["ruleset"]["turn_clock"] == {"allowance_s": 2, "grace_s": 1}
    assert parse(v["turn"]["deadline"]) == started_at + timedelta(seconds=3)
    default = await two_seat_match(client, names=("Cy", "Di"))
    assert parse(default[2]["turn"]["deadline"]) == started_at + timedelta(seconds=300)


@pytest.mark.parametrize(
    ("offset", "forfeits"), [(-TICK, False), (timedelta(0), True), (TICK, True)]
)
async def test_sweep_at_the_deadline(
    client: httpx.AsyncClient,
    clock: FakeClock,
    maker: Any,
    core: Any,
    offset: timedelta,
    forfeits: bool,
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    seat = v["turn"]["seat"]
    clock.set(parse(v["turn"]["deadline"]) + offset)
    report = await sweep_pass(core)
    assert [o.action for o in report.outcomes] == (["forfeit"] if forfeits else [])
    after = await view(client, ana, v["id"])
    if forfeits:
        assert after["status"] == "finished"
        assert after["result"]["reason"] == "forfeit"
        assert after["result"]["forfeited_by"] == seat
        assert after["result"]["winner"] == 1 - seat
        kinds = [(e["type"], e["data"]) for e in await events(client, bob, v["id"])]
        assert ("forfeit", {"seat": seat, "cause": "clock"}) in kinds
        assert kinds[-1][0] == "match_ended"
    else:
        assert after["status"] == "playing" and after["turn"]["seat"] == seat


@pytest.mark.parametrize(("offset", "forfeits"), [(-TICK, False), (timedelta(0), True)])
async def test_a_reader_enforces_the_same_deadline(
    client: httpx.AsyncClient, clock: FakeClock, offset: timedelta, forfeits: bool
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    clock.set(parse(v["turn"]["deadline"]) + offset)
    # The seat not on turn opens the match: timeouts first.
    other = bob if _on_turn(v, ana, bob) is ana else ana
    seen = await view(client, other, v["id"])
    assert (seen["status"] == "finished") is forfeits


async def test_a_move_after_the_deadline_is_match_over(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    mover = _on_turn(v, ana, bob)
    mine = await view(client, mover, v["id"])
    clock.set(parse(v["turn"]["deadline"]))
    body = {**first_legal(mine), "seq": mine["seq"]}
    late = await client.post(f"/v1/matches/{v['id']}/moves", json=body, headers=mover["headers"])
    assert late.status_code == 409 and late.json()["code"] == "match_over"


async def test_a_move_that_commits_first_beats_a_racing_sweeper(
    client: httpx.AsyncClient, clock: FakeClock, core: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    mover = _on_turn(v, ana, bob)
    raced = await sweep_while_a_move_commits(client, clock, core, mover, v, TICK, monkeypatch)
    # The move's save moved the turn (and its deadline) on: nothing was due any more.
    assert [o.action for o in raced.outcomes if o.action == "forfeit"] == []
    after = await sweep_pass(core)
    assert [o.action for o in after.outcomes if o.action == "forfeit"] == []
    seen = await view(client, ana, v["id"])
    assert seen["status"] == "playing"
    kinds = [e["type"] for e in await events(client, ana, v["id"])]
    assert "forfeit" not in kinds


async def test_a_sweeper_that_claims_first_forfeits_and_the_move_is_refused(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    mover = _on_turn(v, ana, bob)
    mine = await view(client, mover, v["id"])
    clock.set(parse(v["turn"]["deadline"]))
    report = await sweep_pass(core)
    assert [o.detail for o in report.outcomes] == [f"forfeit seat {mine['you']['seat']} (clock)"]
    body = {**first_legal(mine), "seq": mine["seq"]}
    late = await client.post(f"/v1/matches/{v['id']}/moves", json=body, headers=mover["headers"])
    assert late.status_code == 409 and late.json()["code"] == "match_over"
