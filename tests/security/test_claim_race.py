"""Issue 26, item 7 (first part): a join never answers with a seat it does not hold once both
requests have committed.

The race, made deterministic: a stranger's claim (the holder has been gone for the lease) is
read and decided, then held at its save by a lock this test takes on the match row; the
holder's own join arrives meanwhile. Before the fix the holder's join wrote nothing guarded, so
it answered 200 with its hand while the claim then committed and took the seat. Now the
holder's join saves under the row's version like every step: whichever commits second is
decided again on what the first wrote.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx

from domino_api.clock import FakeClock
from domino_api.store.db import to_plain_url
from tests.security.conftest import Secured, player

LEASE = 30.0


async def _blocked(watch: asyncpg.Connection, count: int) -> bool:
    """Whether `count` backends wait for a lock on a match row update."""
    waiting = await watch.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND query LIKE '%UPDATE matches%' AND datname = current_database()"
    )
    return int(waiting) >= count


async def _until(check: Any, what: str) -> None:
    for _ in range(1000):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def _join(http: httpx.AsyncClient, who: dict[str, Any], code: str) -> httpx.Response:
    return await http.post("/v1/matches/join", json={"code": code}, headers=who["headers"])


async def test_a_holders_join_racing_a_claim_never_answers_a_seat_it_lost(
    secured: Secured, clock: FakeClock, clean_db: str
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        body = {"ruleset": "house-nines", "seats": [{"type": "human"}] * 2}
        made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        assert (await _join(http, bob, made["code"])).status_code == 200
        r = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=ana["headers"])
        assert r.status_code == 200, r.text
        stranger = await player(http, "Bob")
        clock.advance(LEASE + 1)  # Bob has been gone for the lease: his seat is claimable

        lock = await asyncpg.connect(to_plain_url(clean_db))
        watch = await asyncpg.connect(to_plain_url(clean_db))
        try:
            await lock.execute("BEGIN")
            await lock.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", made["id"])
            claim = asyncio.create_task(_join(http, stranger, made["code"]))
            await _until(lambda: _blocked(watch, 1), "the claim waits at its save")
            own = asyncio.create_task(_join(http, bob, made["code"]))
            # The holder's join either answers at once or waits behind the claim.
            await _until(lambda: _done_or_blocked(own, watch), "the holder's join")
            await lock.execute("ROLLBACK")
            answers = {"bob": await own, "stranger": await claim}
        finally:
            await lock.close()
            await watch.close()

        views = {
            name: await http.get(f"/v1/matches/{made['id']}", headers=who["headers"])
            for name, who in (("bob", bob), ("stranger", stranger))
        }
        seated = [n for n, r in views.items() if r.status_code == 200 and r.json()["you"]]
        assert len(seated) == 1, seated
        for name, answer in answers.items():
            if answer.status_code == 200:
                assert answer.json()["you"]["seat"] == 1
                # The seat an answer gave is the seat its caller holds after both committed.
                assert name in seated, (name, seated)
            else:
                assert answer.status_code == 404, answer.text
                assert answer.json()["code"] == "code_not_found"


async def _done_or_blocked(task: asyncio.Task[Any], watch: asyncpg.Connection) -> bool:
    return task.done() or await _blocked(watch, 2)
