"""Group commit (matches/grouped.py): steps of different matches that wait for a statement at
the same time share one, each match still guarded by its own version, each answered after
that statement's commit, on real PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx
import pytest

from domino_api import engine
from domino_api.clock import FakeClock
from domino_api.engine import table as tables
from domino_api.matches.grouped import Grouped
from domino_api.store import matches_repo as repo
from domino_api.store.db import to_plain_url
from domino_api.store.matches_repo import Change, WriteConflict
from tests.api.helpers import create_match, new_player

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def _chats(client: httpx.AsyncClient, app: Any, clock: FakeClock, count: int) -> list[Change]:
    """`count` matches, each with a table talk line computed on it and not yet saved."""
    host = await new_player(client, "Ana")
    changes = []
    async with app.state.core.pool.acquire() as connection:
        for n in range(count):
            mid = (await create_match(client, host, "all-fives", SEATS, {"target": 50}))["id"]
            found = await repo.read(connection, mid)
            assert found is not None
            snapshot = await repo.snapshot(connection, mid, found.version)
            table = found.table(engine.from_json(snapshot))
            said = tables.step(table, tables.Chat(host["id"], f"line {n}"), clock.now())
            changes.append(Change(table, said.table, found.version, said.events, clock.now()))
    return changes


async def _stored_lines(url: str, match_ids: list[str]) -> dict[str, int]:
    conn = await asyncpg.connect(to_plain_url(url))
    try:
        rows = await conn.fetch(
            "SELECT match_id, count(*) AS n FROM match_events "
            "WHERE type = 'message' AND match_id = ANY($1::text[]) GROUP BY match_id",
            match_ids,
        )
    finally:
        await conn.close()
    return {r["match_id"]: r["n"] for r in rows}


async def _held(
    url: str, match_id: str
) -> tuple[asyncpg.Connection, asyncpg.transaction.Transaction]:
    """Another writer holding the match's row (its statement waits until it lets go)."""
    conn = await asyncpg.connect(to_plain_url(url))
    tx = conn.transaction()
    await tx.start()
    await conn.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
    return conn, tx


async def _until(check: Any) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the grouped saves never got there")


async def test_steps_waiting_at_once_share_one_statement(
    client: httpx.AsyncClient, app: Any, clock: FakeClock, clean_db: str
) -> None:
    changes = await _chats(client, app, clock, 6)
    grouped = Grouped(app.state.core.pool, 1, _never)
    holder, tx = await _held(clean_db, changes[0].id)
    try:
        first = asyncio.create_task(grouped.save(changes[0]))  # alone, waiting for the lock
        await _until(lambda: grouped.statements == 1)
        rest = [asyncio.create_task(grouped.save(c)) for c in changes[1:]]
        await asyncio.sleep(0.05)
        assert grouped.statements == 1  # the others wait for the one slot
    finally:
        await tx.rollback()
        await holder.close()
    versions = await asyncio.gather(first, *rest)
    assert grouped.statements == 2 and grouped.saves == 6
    assert all(v != c.version for v, c in zip(versions, changes, strict=True))
    stored = await _stored_lines(clean_db, [c.id for c in changes])
    assert stored == {c.id: 1 for c in changes}


async def test_a_moved_match_fails_only_its_own_step_in_a_shared_statement(
    client: httpx.AsyncClient, app: Any, clock: FakeClock, clean_db: str
) -> None:
    changes = await _chats(client, app, clock, 4)
    moved = changes[2]
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:  # another writer moves one row: its step was computed on a version now gone
        await conn.execute("UPDATE matches SET updated_at = updated_at WHERE id = $1", moved.id)
    finally:
        await conn.close()
    grouped = Grouped(app.state.core.pool, 1, _never)
    holder, tx = await _held(clean_db, changes[0].id)
    try:
        first = asyncio.create_task(grouped.save(changes[0]))
        await _until(lambda: grouped.statements == 1)
        rest = [asyncio.create_task(grouped.save(c)) for c in changes[1:]]
        await asyncio.sleep(0.05)
    finally:
        await tx.rollback()
        await holder.close()
    answers = await asyncio.gather(first, *rest, return_exceptions=True)
    assert grouped.statements == 2
    assert isinstance(answers[2], WriteConflict)
    assert all(isinstance(a, int) for n, a in enumerate(answers) if n != 2)
    stored = await _stored_lines(clean_db, [c.id for c in changes])
    assert stored == {c.id: 1 for c in changes if c is not moved}  # nothing of the moved one


async def test_a_queued_step_waits_for_the_statement_carrying_its_match(
    client: httpx.AsyncClient, app: Any, clock: FakeClock, clean_db: str
) -> None:
    """Two steps of one match never share a statement: the second waits for the first's
    commit, then finds its version gone, as it would have alone."""
    a, b, c = await _chats(client, app, clock, 3)
    grouped = Grouped(app.state.core.pool, 2, _never)
    holder_a, tx_a = await _held(clean_db, a.id)
    holder_b, _ = await _held(clean_db, b.id)
    try:
        first = asyncio.create_task(grouped.save(a))  # alone, slot 1
        await _until(lambda: grouped.statements == 1)
        other = asyncio.create_task(grouped.save(b))  # alone, slot 2
        await _until(lambda: grouped.statements == 2)
        again = asyncio.create_task(grouped.save(a))  # queued, as `c`: no slot is free
        last = asyncio.create_task(grouped.save(c))
        await asyncio.sleep(0.05)
        await holder_b.close()  # slot 2 frees: its statement takes `c`, not `a` in flight
        await other
        await last
        assert grouped.statements == 3 and grouped.saves == 3
        assert not again.done()
    finally:
        await holder_b.close()  # its transaction ends with it
        await tx_a.rollback()
        await holder_a.close()
    answers = await asyncio.gather(first, again, return_exceptions=True)
    assert isinstance(answers[0], int) and isinstance(answers[1], WriteConflict)
    assert grouped.statements == 4 and grouped.saves == 4
    assert await _stored_lines(clean_db, [a.id, b.id, c.id]) == {a.id: 1, b.id: 1, c.id: 1}


async def test_a_step_saved_after_its_caller_left_is_announced_and_one_not_sent_is_dropped(
    client: httpx.AsyncClient, app: Any, clock: FakeClock, clean_db: str
) -> None:
    first, sent, unsent = await _chats(client, app, clock, 3)
    orphans: list[str] = []

    async def orphaned(change: Change) -> None:
        orphans.append(change.id)

    grouped = Grouped(app.state.core.pool, 1, orphaned)
    holder, tx = await _held(clean_db, first.id)
    other, other_tx = await _held(clean_db, sent.id)
    try:
        alone = asyncio.create_task(grouped.save(first))  # the one slot, waits for the lock
        await _until(lambda: grouped.statements == 1)
        left = asyncio.create_task(grouped.save(sent))  # queued
        await asyncio.sleep(0.05)
        await tx.rollback()  # the first commits; the queue's statement takes `sent`, and waits
        await alone
        await _until(lambda: grouped.statements == 2)
        dropped = asyncio.create_task(grouped.save(unsent))  # queued behind it
        await asyncio.sleep(0.05)
        left.cancel()  # its statement is under way: it commits all the same
        dropped.cancel()  # not sent yet: never written
    finally:
        await other_tx.rollback()
        await other.close()
        await holder.close()
    await _until(lambda: grouped.running == 0 and not grouped.queue)
    assert grouped.statements == 2
    assert orphans == [sent.id]
    stored = await _stored_lines(clean_db, [first.id, sent.id, unsent.id])
    assert stored == {first.id: 1, sent.id: 1}


async def _never(change: Change) -> None:
    raise AssertionError(f"no caller left, yet {change.id} was announced as orphaned")
