"""The outage rule: deadlines that passed while no API process was alive get the grace period."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
import msgspec

from domino_api.clock import FakeClock
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.table.clocks import AWAY_OUTAGE_GRACE_S
from domino_api.jobs import liveness
from domino_api.jobs.sweeper import sweep_pass
from domino_api.store.models import ServiceStart
from tests.api.helpers import view
from tests.jobs.factory import events, parse, two_seat_match

TICK = timedelta(microseconds=1)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def _process(maker: Any, started: datetime, last_alive: datetime) -> int:
    async with maker() as session, session.begin():
        row = ServiceStart(started_at=started, last_alive_at=last_alive, note="api test")
        session.add(row)
        await session.flush()
        return int(row.id)


async def _beat(maker: Any, row_id: int, now: datetime) -> None:
    async with maker() as session, session.begin():
        await liveness.beat(session, row_id, now)


async def test_a_deadline_inside_an_outage_moves_to_restart_plus_grace(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, _, v = await two_seat_match(client)  # classic: 180 s + 120 s grace
    deadline = parse(v["turn"]["deadline"])
    assert deadline == start + timedelta(seconds=300)
    await _process(maker, start - timedelta(hours=1), start + timedelta(seconds=10))  # dies
    restart = start + timedelta(seconds=400)
    back = await _process(maker, restart, restart)
    clock.set(restart + timedelta(seconds=1))
    report = await sweep_pass(core)
    assert [(o.action, o.due) for o in report.outcomes] == [("extend", "clock")]
    moved = restart + timedelta(seconds=120)
    seen = await view(client, ana, v["id"])
    assert seen["status"] == "playing" and parse(seen["turn"]["deadline"]) == moved
    # Issue 25: the stream says so too (the `turn` event still carries the old deadline).
    (event,) = [e for e in await events(client, ana, v["id"]) if e["type"] == "deadline_moved"]
    msgspec.convert(event, AnyEvent)  # the contract's type
    turn = seen["turn"]["seat"]
    assert event["data"] == {"seat": turn, "clock": "turn", "deadline": _iso(moved)}
    clock.set(moved - TICK)
    await _beat(maker, back, clock.now())
    assert [o.action for o in (await sweep_pass(core)).outcomes] == []
    clock.set(moved)
    await _beat(maker, back, clock.now())
    report = await sweep_pass(core)
    assert [(o.action, o.due) for o in report.outcomes] == [("forfeit", "clock")]


async def test_a_deadline_while_the_service_was_alive_forfeits(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    _, _, v = await two_seat_match(client)
    deadline = parse(v["turn"]["deadline"])
    alive = await _process(maker, start - timedelta(hours=1), start)
    clock.set(deadline)
    await _beat(maker, alive, deadline - timedelta(seconds=5))  # a beat 5 s before it
    report = await sweep_pass(core)
    assert [(o.action, o.due) for o in report.outcomes] == [("forfeit", "clock")]


async def test_the_sweeper_holds_while_no_api_process_is_alive(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    await two_seat_match(client)
    await _process(maker, start - timedelta(hours=1), start + timedelta(seconds=10))
    clock.set(start + timedelta(seconds=400))
    report = await sweep_pass(core)
    assert report.outcomes == [] and report.held_since == start + timedelta(seconds=10)
    assert "held" in report.summary_line()
    dry = await sweep_pass(core, dry_run=True)
    assert dry.outcomes == [] and dry.held_since is not None


async def test_away_deadlines_in_an_outage_wait_for_the_grace(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    _, bob, v = await two_seat_match(client, "all-fives")
    clock.set(start + timedelta(seconds=100))
    await view(client, bob, v["id"])
    await _process(maker, start - timedelta(hours=1), start + timedelta(seconds=50))
    restart = start + timedelta(seconds=300)
    back = await _process(maker, restart, restart)
    clock.set(restart + timedelta(seconds=1))
    report = await sweep_pass(core)
    assert [(o.action, o.due) for o in report.outcomes] == [("extend", "away")]
    grace_end = restart + timedelta(seconds=AWAY_OUTAGE_GRACE_S)
    seen = await view(client, bob, v["id"])
    moved = [e["data"] for e in await events(client, bob, v["id"]) if e["type"] == "deadline_moved"]
    # Both seats' away deadlines fell in the outage: each moved to the grace's end, as shown.
    assert moved == [
        {"seat": seat, "clock": "away", "deadline": _iso(grace_end)} for seat in (0, 1)
    ]
    assert [s["away_deadline"] for s in seen["seats"]][:1] == [_iso(grace_end)]
    clock.set(grace_end - TICK)
    await _beat(maker, back, clock.now())
    assert [o.action for o in (await sweep_pass(core)).outcomes if o.action != "none"] == []
    clock.set(grace_end)
    await _beat(maker, back, clock.now())
    report = await sweep_pass(core)
    assert [(o.action, o.seat) for o in report.outcomes] == [("forfeit", 0)]  # Ana left first


async def test_a_deadline_after_a_clean_stop_of_every_process_moves(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    """Issue 41: a turn deadline that fell while every process was cleanly stopped (Ctrl-C)
    was forfeited at the next sweep: a stop was recorded as one more beat, and a process
    counts as alive for three beats past its last. A clean stop says when it stopped."""
    start = clock.now()
    ana, _, v = await two_seat_match(client)  # classic: 180 s + 120 s grace
    deadline = parse(v["turn"]["deadline"])
    clock.set(start - timedelta(hours=1))
    server = liveness.Heartbeat(maker, clock, interval_s=3600)
    await server.start()
    clock.set(deadline - timedelta(seconds=10))
    await server.stop()  # Ctrl-C, 10 s before the deadline
    restart = deadline + timedelta(seconds=15)  # within the slack a crashed process is given
    await _process(maker, restart, restart)
    clock.set(restart + timedelta(seconds=1))
    report = await sweep_pass(core)
    assert [(o.action, o.due) for o in report.outcomes] == [("extend", "clock")]
    seen = await view(client, ana, v["id"])
    moved = restart + timedelta(seconds=120)
    assert seen["status"] == "playing" and parse(seen["turn"]["deadline"]) == moved
