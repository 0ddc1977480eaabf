"""Game numbers in `match_codes` (migration 0010): two creators drawing the same free number at
once, one waits for the other's commit and then finds the number taken."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx

from domino_api.store.db import to_plain_url
from domino_api.store.match_codes import take
from tests.realtime.wsclient import two_seat_match

# A copy of a live match's row under another id and number.
CLONE = """
INSERT INTO matches
SELECT (jsonb_populate_record(NULL::matches,
        to_jsonb(m) || jsonb_build_object('id', $1::text, 'code', $2::text))).*
FROM matches m WHERE m.id = $3
"""
WAITING = "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1"


async def test_a_number_taken_meanwhile_is_refused_to_the_second_creator(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    _, _, template = await two_seat_match(client)  # a live match to copy rows from
    code = "0000" if template["code"] != "0000" else "0001"
    url = to_plain_url(clean_db)
    first, second, watcher = [await asyncpg.connect(url) for _ in range(3)]
    try:
        await first.execute("BEGIN")
        assert await take(first, code, "first")
        await first.execute(CLONE, "first", code, template["id"])
        await second.execute("BEGIN")
        taking = asyncio.create_task(take(second, code, "second"))
        pid = second.get_server_pid()
        for _ in range(6000):  # until it waits on the first's row (a minute at most)
            if await watcher.fetchval(WAITING, pid) == "Lock":
                break
            assert not taking.done(), taking
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the second creator never waited for the first")
        await first.execute("COMMIT")
        assert await taking is False  # the first's match holds it now, and is live
        await second.execute("ROLLBACK")
        holder = await watcher.fetchval("SELECT match_id FROM match_codes WHERE code = $1", code)
        assert holder == "first"
    finally:
        for conn in (first, second, watcher):
            await conn.close()
