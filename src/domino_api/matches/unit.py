"""The write core: one unit of work for every step of a match, whoever asks for it.

REST, the socket, the recovery job, presence and tournaments all call `Core.run(match_id,
step)`. A unit reads the match row and its seats (or this process's copy of them, kept at most
`COPY_TTL_S`), applies whatever timeout is due first, marks the caller present, runs the
service's `step` on the table in memory, and saves what it staged guarded by the row version
it read:

- a step that writes only the match (most moves, starts, next hands) is one statement on a
  pool connection: the row and its events, atomic on their own (store/matches_repo.save);
- a step that writes more (seats, the end of the match with its records and tournament hooks,
  a new match, an idempotency key) runs in one transaction that does all of it.

Another writer that got there first (another process, a sweeper) has moved the version: the
save matches nothing and the unit reads and computes again. After the commit, and outside it,
the new seq is announced (realtime/announce.py): a NOTIFY inside a transaction would hold
PostgreSQL's database-wide notify lock through the commit.

A refusal computed on a copy (a stale seq, not your turn) may come from the copy being behind,
so it is checked again on a fresh read before it is answered; so is a step that wrote nothing.
What a copy shows late is only what changes without moving the row: presence marks and the
holders' names and tile backs, for at most `COPY_TTL_S`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api import engine, metrics
from domino_api.clock import Clock
from domino_api.engine import EngineError
from domino_api.errors import MatchBusy, MatchNotFound, ServiceError
from domino_api.jobs import liveness
from domino_api.matches import computers, ends, leases, timeouts
from domino_api.matches.table import Table, assemble
from domino_api.realtime.announce import Announcer
from domino_api.store import matches_repo as repo
from domino_api.store.db import Pool, announce_after_commit, raw_connection, transaction
from domino_api.store.matches_repo import Read, WriteConflict
from domino_api.store.rows import Row

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Later(Generic[T]):
    """A step's answer read off the table once the computers it woke have replied (a move's
    answer carries their moves and the view after them)."""

    read: Callable[[Table], T]


Step = Callable[[Table], T | Later[T]]

# A copy is read again after this long, so presence marks and names written by others (which
# do not move the row) show within it. Under load a match moves many times a second.
COPY_TTL_S = 2.0
# Reads and computations per unit before giving up (each conflict means another step on the
# same match committed: the match moved on, so the loop is not stuck, only contended).
TRIES = 12
# Presence marks closer together than this are skipped: a write saved on most requests, at
# the cost of the away clock starting up to this much early.
TOUCH_EVERY_S = 1.0


@dataclass(frozen=True, slots=True)
class Copy:
    """A match as this process last read or wrote it: row, seats, version, parsed state."""

    read: Read
    state: engine.MatchState
    read_at: float  # monotonic time of the read it descends from


@dataclass
class Core:
    """The write core of one process: its pool, sessions (for transactions), clock, announcer."""

    pool: Pool  # the process's one pool (store/db.py), as the sessions of `maker`
    maker: async_sessionmaker[AsyncSession]
    clock: Clock
    announcer: Announcer
    lease_s: float = leases.LEASE_S  # DOMINO_PRESENCE_LEASE_S: sockets and requests alike
    copies: dict[str, Copy] = field(default_factory=dict)

    async def run(
        self,
        match_id: str,
        step: Step[T],
        *,
        player_id: str | None = None,
        action: str = "other",
        key: str | None = None,
        fresh: bool = False,
        due_first: bool = True,
        lifetimes: liveness.Lifetimes | None = None,
    ) -> T:
        """`step`'s answer, its changes saved; refusals raise as the step raised them.

        `player_id`: the caller, marked present at the table. `key`: an idempotency key (a
        repeat answers what the first did, per player and match). `fresh`: never use a copy
        (a read that writes nothing must not answer from one). `due_first`: apply what is due
        before the step (the sweeper's step does it itself, to report what it found).
        """
        if len(match_id) > 36 or "\x00" in match_id:  # no id is longer, or holds a NUL
            raise MatchNotFound(f"No match {match_id[:40]!r}.")
        for attempt in range(TRIES):
            copy = None if fresh or attempt else self._kept(match_id)
            try:
                return await self._once(
                    match_id, step, copy, player_id, action, key, due_first, lifetimes
                )
            except WriteConflict:
                self.copies.pop(match_id, None)
                metrics.count_write_conflict(action)
                if attempt >= 2:  # several writers at once: let them pass
                    await asyncio.sleep(random.random() * 0.002 * attempt)
            except _Recheck:
                self.copies.pop(match_id, None)
        raise MatchBusy("The match kept changing under this request; try again.")

    async def _once(
        self,
        match_id: str,
        step: Step[T],
        copy: Copy | None,
        player_id: str | None,
        action: str,
        key: str | None,
        due_first: bool,
        lifetimes: liveness.Lifetimes | None,
    ) -> T:
        announce: list[tuple[str, int]] = []  # saved by one statement: announced once released
        # Connections are held for statements only, never while computers decide (a decision is
        # awaited from their process pool): the guarded save finds whatever moved meanwhile.
        if key is not None and player_id is not None:
            async with self.pool.acquire() as connection:
                earlier = await repo.idempotent_answer(connection, player_id, match_id, key)
            if earlier is not None:
                return earlier[1]  # type: ignore[return-value]
        table, version, read_at = await self._open(match_id, copy)
        now = self.clock.now()
        if due_first and not table.over and timeouts.is_due(table, now):
            # Timeouts first, saved as their own step: a refusal of what follows must
            # not undo a forfeit that was due.
            timeouts.enforce(table, now, lifetimes or await self._lifetimes())
            await computers.reply(table, now)
            if _changed(table):
                version = await self._save(table, version, None, None, announce)
                copy = None  # what follows stands on a table just written
        if player_id is not None:
            await _touch(self.pool, table, player_id, now)
        try:
            answer = step(table)
        except (ServiceError, EngineError):
            if copy is not None:
                raise _Recheck() from None
            raise
        await computers.reply(table, now)
        if isinstance(answer, Later):
            answer = answer.read(table)
        if _changed(table):
            path = "transaction" if _needs_transaction(table, key) else "statement"
            saved = (key, answer)
            version = await self._save(table, version, player_id, saved, announce)
            metrics.count_write_path(action, path)
        elif copy is not None:
            raise _Recheck()  # nothing written, so nothing checked the copy
        await self.announcer.announce_many(announce)  # queued: the answer does not wait
        self._keep(table, version, read_at)
        return answer

    # ------------------------------------------------------------ reading

    def _kept(self, match_id: str) -> Copy | None:
        copy = self.copies.get(match_id)
        if copy is not None and time.monotonic() - copy.read_at > COPY_TTL_S:
            return None
        return copy

    async def _open(self, match_id: str, copy: Copy | None) -> tuple[Table, int, float]:
        """The table from the copy, else read: row and seats, and the snapshot only when the
        version read is not the one the cached state was parsed from."""
        if copy is not None:
            return _table(copy.read, copy.state), copy.read.version, copy.read_at
        read_at = time.monotonic()
        async with self.pool.acquire() as connection:
            found = await repo.read(connection, match_id)
            if found is None:
                raise MatchNotFound(f"No match {match_id!r}.")
            cached = self.copies.get(match_id)
            if cached is not None and cached.read.version == found.version:
                state = cached.state
            else:
                snapshot = await repo.snapshot(connection, match_id, found.version)
                if snapshot is None:  # the row moved on since it was read: read it again
                    raise WriteConflict(f"match {match_id} changed while it was read")
                state = engine.from_json(snapshot)
        return _table(found, state), found.version, read_at

    async def _lifetimes(self) -> liveness.Lifetimes:
        async with self.maker() as session:
            return await liveness.lifetimes(session)

    def _keep(self, table: Table, version: int, read_at: float) -> None:
        match_id = table.match.id
        if table.over:
            # An ended match is rarely read again: keeping it would only grow the heap, and a
            # heap that keeps growing brings full garbage collections into the move path.
            self.copies.pop(match_id, None)
            return
        if len(self.copies) >= 10_000:
            self.copies.clear()
        seats = [
            (
                Row(seat.columns()),
                table.names.get(seat.player_id) if seat.player_id else None,
                table.tile_backs.get(seat.player_id) if seat.player_id else None,
            )
            for seat in table.seats
        ]
        columns = table.match.columns()
        columns.pop("snapshot", None)  # the parsed state stands for it (and weighs less)
        self.copies[match_id] = Copy(Read(Row(columns), seats, version), table.state, read_at)

    # ------------------------------------------------------------ saving

    async def _save(
        self,
        table: Table,
        version: int,
        player_id: str | None,
        answer: tuple[str | None, Any] | None,
        announce: list[tuple[str, int]],
    ) -> int:
        """Save what the table staged, guarded by `version`: one statement on a connection of
        the pool (its announcement left in `announce`), or one transaction that announces once
        it has committed. Returns the row's new version."""
        key = answer[0] if answer is not None else None
        if table.staged:
            table.match.snapshot = engine.to_json(table.state)
        if not _needs_transaction(table, key):
            async with self.pool.acquire() as connection:
                version = await repo.save(connection, table.match, version, table.staged)
            if table.staged:
                announce.append((table.match.id, table.state.seq))
            _clear(table)
            return version
        async with transaction(self.maker) as session:
            raw = await raw_connection(session)
            version = await repo.save(raw, table.match, version, table.staged)
            await repo.save_seats(raw, table.seats)
            for match, seats, events in table.created:
                await repo.insert_match(raw, match, seats, events)
                announce_after_commit(session, match.id, int(match.seq))
            if table.ended:
                hooked = ends.needs_session(table)
                await ends.finish(raw, session if hooked else None, self.clock, table)
            if key is not None and player_id is not None and answer is not None:
                now = self.clock.now()
                await repo.store_answer(raw, player_id, table.match.id, key, answer[1], now)
            if table.staged:
                announce_after_commit(session, table.match.id, table.state.seq)
        _clear(table)
        return version


class _Recheck(Exception):
    """A refusal (or nothing to write) computed on a copy: ask the table itself."""


def _table(found: Read, state: engine.MatchState) -> Table:
    # Fresh rows for every unit: a refused step's changes never reach the copy.
    match = Row(found.match.columns())
    seats = [(Row(seat.columns()), name, back) for seat, name, back in found.seats]
    return assemble(match, seats, state)


def _changed(table: Table) -> bool:
    return bool(table.staged or table.match.changes() or table.seats_changed() or table.created)


def _needs_transaction(table: Table, key: str | None) -> bool:
    return bool(table.ended or table.created or key is not None or table.seats_changed())


def _clear(table: Table) -> None:
    """The staged work is saved: the table may take another step (timeouts, then the step)."""
    table.staged, table.created, table.ended = [], [], False


async def _touch(pool: Pool, table: Table, player_id: str, now: datetime) -> None:
    """Mark the caller's seats present: written at once, whatever the step does (no match
    version moves: presence is no step)."""
    if table.over:
        return
    leases.seen_by_request(table, now, table.seats_of(player_id))  # an event if it was away
    stale = [
        n
        for n in table.seats_of(player_id)
        if table.seats[n].last_seen_at is None
        or (now - table.seats[n].last_seen_at).total_seconds() >= TOUCH_EVERY_S
    ]
    if not stale:
        return
    async with pool.acquire() as connection:
        await repo.touch(connection, table.match.id, stale, now, player_id)
    for number in stale:
        seat = table.seats[number]
        seat.last_seen_at, seat.away_since = now, None
        seat.mark_written(("last_seen_at", "away_since"))
