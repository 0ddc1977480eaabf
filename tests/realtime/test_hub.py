"""The hub without a database: order, catch-up from any cursor, and slow subscribers."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from domino_api.realtime.hub import Hub, Subscriber
from domino_api.realtime.listener import parse_payload
from domino_api.store.models import MatchEvent

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class FakeLog:
    """An event table: rows appended by `commit`, read by seq like the repository does."""

    def __init__(self) -> None:
        self.rows: list[MatchEvent] = []

    def commit(self, count: int) -> None:
        for _ in range(count):
            seq = len(self.rows) + 1
            self.rows.append(
                MatchEvent(
                    match_id="m1",
                    seq=seq,
                    type="tile_drawn",
                    at=AT,
                    data={"seat": 1, "stock": 10},
                    private={"1": {"tile": [seq % 7, 6]}},
                )
            )

    async def read(self, match_id: str, after: int, limit: int) -> list[MatchEvent]:
        await asyncio.sleep(0)
        return self.rows[after : after + limit]


def _drain(subscriber: Subscriber) -> list[dict[str, Any]]:
    out = []
    while not subscriber.queue.empty():
        out.append(json.loads(subscriber.queue.get_nowait().text)["event"])
    return out


async def test_each_subscriber_gets_its_copy_in_order_from_its_cursor() -> None:
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    log.commit(5)
    early = Subscriber("m", 0, 0, 100)
    late = Subscriber("m", 1, 3, 100)
    hub.subscribe(early)
    hub.subscribe(late)
    await hub.sync("m")
    log.commit(2)
    hub.notify("m")
    hub.notify("m")  # a repeated NOTIFY repeats nothing
    await hub.sync("m")
    first, second = _drain(early), _drain(late)
    assert [e["seq"] for e in first] == [1, 2, 3, 4, 5, 6, 7]
    assert [e["seq"] for e in second] == [4, 5, 6, 7]
    assert all("tile" not in e["data"] for e in first)  # seat 0 never sees seat 1's draw
    assert all("tile" in e["data"] for e in second)


async def test_a_slow_subscriber_is_cut_and_never_stalls_the_others() -> None:
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    slow = Subscriber("m", 0, 0, 3)
    fast = Subscriber("m", 0, 0, 1000)
    hub.subscribe(slow)
    hub.subscribe(fast)
    for _ in range(20):
        log.commit(10)
        hub.notify("m")
        await hub.sync("m")
    assert slow.too_slow.is_set()
    assert [e["seq"] for e in _drain(slow)] == [1, 2, 3]
    assert [e["seq"] for e in _drain(fast)] == list(range(1, 201))
    # It resumes with after=3 and gets exactly the rest.
    resumed = Subscriber("m", 0, 3, 1000)
    hub.unsubscribe(slow)
    hub.subscribe(resumed)
    await hub.sync("m")
    assert [e["seq"] for e in _drain(resumed)] == list(range(4, 201))


def test_notify_payloads_name_a_match_and_a_seq() -> None:
    assert parse_payload("0970bbea-c38c-46d0-b9fe-bc08d82547bc:42") == (
        "0970bbea-c38c-46d0-b9fe-bc08d82547bc",
        42,
    )
    for junk in ("", "42", ":42", "m:x", "m" * 40 + ":1", "m:" + "9" * 19):
        assert parse_payload(junk) is None


async def test_an_announcement_already_read_is_not_read_again() -> None:
    """A process hears its own commit twice: at once from its announcer (local first) and
    again from the broker. The second finds the seq read and costs no read, and no frame."""
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    socket = Subscriber("m", 0, 0, 100)
    hub.subscribe(socket)
    await hub.sync("m")
    log.commit(3)
    hub.notify("m", 3)  # the local hand-over
    await hub.sync("m")
    reads = hub.reads
    hub.notify("m", 3)  # the same announcement through the broker
    hub.notify("m", 2)  # an older one, late
    await asyncio.sleep(0)
    assert hub.reads == reads
    log.commit(1)
    hub.notify("m", 4)
    await hub.sync("m")
    assert hub.reads == reads + 1
    assert [e["seq"] for e in _drain(socket)] == [1, 2, 3, 4]


async def test_an_announcement_during_a_read_is_read_after_it() -> None:
    """An announcement that arrives while a read is on its way may be past what that read
    sees: the pump reads once more for it."""
    log = FakeLog()
    gate = asyncio.Event()

    async def slow_read(match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        rows = log.rows[after : after + limit]  # what the table held when the read began
        await gate.wait()
        return rows

    hub = Hub(None, reader=slow_read)
    socket = Subscriber("m", 0, 0, 100)
    log.commit(1)
    hub.subscribe(socket)  # a read of seq 1 begins and waits
    await asyncio.sleep(0)
    log.commit(1)
    hub.notify("m", 2)
    gate.set()
    await hub.sync("m")
    assert [e["seq"] for e in _drain(socket)] == [1, 2]
