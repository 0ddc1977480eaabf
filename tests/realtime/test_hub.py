"""The hub without a database: order, catch-up from any cursor, and slow subscribers."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from domino_api.realtime.hub import Hub, Subscriber
from domino_api.realtime.listener import parse_payload

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class FakeLog:
    """An event table: rows appended by `commit`, read by seq like the repository does."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def commit(self, count: int) -> None:
        for _ in range(count):
            seq = len(self.rows) + 1
            self.rows.append(
                {
                    "seq": seq,
                    "type": "tile_drawn",
                    "at": AT,
                    "data": {"seat": 1, "stock": 10},
                    "private": {"1": {"tile": [seq % 7, 6]}},
                }
            )

    async def read(self, match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        await asyncio.sleep(0)
        return self.rows[after : after + limit]


def _drain(subscriber: Subscriber) -> list[dict[str, Any]]:
    out = []
    while not subscriber.queue.empty():
        out.append(json.loads(subscriber.queue.get_nowait())["event"])
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


def test_notify_payloads_name_only_a_match() -> None:
    assert parse_payload("0970bbea-c38c-46d0-b9fe-bc08d82547bc:42") == (
        "0970bbea-c38c-46d0-b9fe-bc08d82547bc"
    )
    for junk in ("", "42", ":42", "m:x", "m" * 40 + ":1"):
        assert parse_payload(junk) is None
