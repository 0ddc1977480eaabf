"""The event stream through real servers: two processes, order, completeness, reconnects."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx

from tests.realtime.wsclient import (
    Socket,
    events_of,
    rest_step,
    seat_sockets,
    start,
    two_seat_match,
)
from tests.support.servers import ServerProcess


async def _stored(database_url: str, match_id: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(database_url)
    try:
        return list(
            await conn.fetch(
                "SELECT seq, type, data, private FROM match_events WHERE match_id = $1 "
                "ORDER BY seq",
                match_id,
            )
        )
    finally:
        await conn.close()


def _expected_copy(row: asyncpg.Record, seat: int) -> dict[str, Any]:
    import json

    data = json.loads(row["data"])
    private = json.loads(row["private"] or "{}")
    data.update(private.get(str(seat), {}))
    return data


async def test_two_processes_stream_in_order_complete_and_hidden(
    servers: list[ServerProcess], ws_database: str
) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        holders = {0: ana, 1: bob}
        # Both seats watch through process B, from the very beginning.
        feeds = await seat_sockets(b.ws_url, match_id, holders, after=0)
        await start(http, ana, match_id)
        # Every move is made through process A.
        drivers = await seat_sockets(a.ws_url, match_id, holders, after=0)
        status = "playing"
        for _ in range(2000):
            status = await rest_step(http, match_id, holders, drivers)
            if status in ("finished", "abandoned"):
                break
        assert status == "finished"
        final = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        stored = await _stored(ws_database, match_id)
        for seat, feed in feeds.items():
            received = await feed.events_until(final["seq"])
            seqs = [e["seq"] for e in received]
            assert seqs == list(range(1, len(seqs) + 1)), "in order, no gap, no repeat"
            player = holders[seat]
            assert received[: final["seq"]] == await events_of(http, player, match_id)
            # Hidden information: each copy is the public data plus this seat's part only.
            by_seq = {row["seq"]: row for row in stored}
            for event in received:
                assert event["data"] == _expected_copy(by_seq[event["seq"]], seat)
            types = {e["type"] for e in received}
            assert {"turn", "tile_played", "hand_ended", "match_ended"} <= types
            turns = [e for e in received if e["type"] == "turn"]
            assert all(("legal" in e["data"]) == (e["data"]["seat"] == seat) for e in turns)
            await feed.close()
        for driver in drivers.values():
            await driver.close()


async def test_snapshot_then_events_and_reconnect_with_after(servers: list[ServerProcess]) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        await start(http, ana, match_id)
        first = await Socket.open(a.ws_url, match_id, ana["token"])
        snapshot = await first.recv()
        assert snapshot["type"] == "snapshot" and snapshot["view"]["you"]["seat"] == 0
        seen = snapshot["view"]["seq"]
        holders = {0: ana, 1: bob}
        drivers = await seat_sockets(a.ws_url, match_id, holders, after=0)
        for _ in range(3):
            await rest_step(http, match_id, holders, drivers)
        now = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()["seq"]
        got = await first.events_until(now)
        assert [e["seq"] for e in got] == list(range(seen + 1, now + 1))
        await first.close()
        # Missed while away: moves through A, reconnect to B with after=N.
        for _ in range(4):
            await rest_step(http, match_id, holders, drivers)
        again = await Socket.open(b.ws_url, match_id, ana["token"], after=now)
        latest = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()["seq"]
        missed = await again.events_until(latest)
        # seat_connected may come right after; everything up to `latest` must match exactly.
        assert missed[0]["seq"] == now + 1
        expected = await events_of(http, ana, match_id, after=now)
        assert missed == expected[: len(missed)]
        assert [e["seq"] for e in missed] == list(range(now + 1, latest + 1))
        await again.close()
        for driver in drivers.values():
            await driver.close()
