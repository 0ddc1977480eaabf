"""Sent once: a step this process committed reaches its sockets from the step itself, each seat
its own copy, with no read of the event table; only a gap is read."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import httpx

from domino_api.engine.clock_text import iso
from domino_api.engine.events import Event
from domino_api.engine.table import Staged
from domino_api.matches.ports import Committed
from domino_api.realtime.hub import Hub, Subscriber
from domino_api.store.models import MatchEvent
from tests.api.helpers import first_legal
from tests.jobs.factory import two_seat_match
from tests.realtime.test_hub import FakeLog

AT = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def _drain(subscriber: Subscriber) -> list[dict[str, Any]]:
    out = []
    while not subscriber.queue.empty():
        out.append(json.loads(subscriber.queue.get_nowait().text)["event"])
    return out


def _staged(row: MatchEvent) -> Staged:
    return Staged(event=Event.stored(row.seq, row.type, iso(row.at), row.data, row.private))


async def test_a_step_handed_over_is_sent_without_a_read_each_seat_its_own_part() -> None:
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    seats = {seat: Subscriber("m", seat, 0, 100) for seat in (0, 1, None)}
    for subscriber in seats.values():
        hub.subscribe(subscriber)
    await hub.sync("m")
    reads = hub.reads
    log.commit(3)
    hub.hand_over(Committed("m", 3, [_staged(row) for row in log.rows], AT))
    hub.notify("m", 3)  # the same step, heard again through the broker
    await asyncio.sleep(0)
    assert hub.reads == reads
    for seat, subscriber in seats.items():
        got = _drain(subscriber)
        assert [e["seq"] for e in got] == [1, 2, 3]
        assert all(("tile" in e["data"]) == (seat == 1) for e in got)  # seat 1's draws
        assert [e["at"] for e in got] == [iso(row.at) for row in log.rows]  # each its own


async def test_a_step_handed_over_after_a_gap_is_read_and_the_order_holds() -> None:
    """Two commits handed over in the wrong order (or the first lost): the second finds the
    subscriber behind it, so the gap is read, and the first, late, repeats nothing."""
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    socket = Subscriber("m", 1, 0, 100)
    hub.subscribe(socket)
    await hub.sync("m")
    log.commit(2)
    first, second = [_staged(row) for row in log.rows]
    hub.hand_over(Committed("m", 2, [second], AT))
    await hub.sync("m")
    hub.hand_over(Committed("m", 1, [first], AT))
    assert [e["seq"] for e in _drain(socket)] == [1, 2]
    assert hub.reads == 2  # the subscription's and the gap's


async def test_a_move_reaches_the_process_sockets_from_its_step(
    app: Any, client: httpx.AsyncClient
) -> None:
    """A move over REST: the hub of the process that committed it hands its events to each
    seat's subscriber, each with its own hand, and reads nothing from the event table."""
    ana, bob, v = await two_seat_match(client)
    hub = app.state.realtime.hub
    seats = {seat: Subscriber(v["id"], seat, v["seq"], 100) for seat in (0, 1)}
    for subscriber in seats.values():
        hub.subscribe(subscriber)
    await hub.sync(v["id"])
    reads = hub.reads
    mover = ana if v["turn"]["seat"] == 0 else bob
    mine = (await client.get(f"/v1/matches/{v['id']}", headers=mover["headers"])).json()
    body = {**first_legal(mine), "seq": mine["seq"]}
    moved = await client.post(f"/v1/matches/{v['id']}/moves", json=body, headers=mover["headers"])
    assert moved.status_code == 200, moved.text
    answer = moved.json()
    assert hub.reads == reads
    stored = {
        seat: (
            await client.get(
                f"/v1/matches/{v['id']}/events",
                params={"after": v["seq"]},
                headers=(ana if seat == 0 else bob)["headers"],
            )
        ).json()["events"]
        for seat in seats
    }
    for seat, subscriber in seats.items():
        got = _drain(subscriber)
        assert got and got[-1]["seq"] == answer["view"]["seq"]
        assert got == stored[seat]  # as REST serves them from the table, this seat's copy
    for subscriber in seats.values():
        hub.unsubscribe(subscriber)
