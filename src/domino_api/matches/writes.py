"""The one write driver: every change of every match is committed here, then announced.

A request's step (matches/unit.py), a batch of presence steps and the sweep's batches
(jobs/sweeper.py) each hand the writer their `Write`s, and new matches come as `Stepped`
tables to insert. The writer saves every change with the one guarded statement
(store/matches_repo.save_many, each match under the row version it was read at), and:

- a set of changes that writes only its matches (their columns, seats and events: most moves,
  starts, joins, presence) is that one statement on a pool connection, atomic on its own; one
  such change of one match (a step's) may share its statement with other steps' waiting at
  the same time (matches/grouped.py: group commit, each match still under its own version);
- one that writes more (a match's end with its records and hooks, a new match, an
  idempotency key, a claim of due matches) runs in one transaction (`Writer.transaction`, or
  `Writer.within` a unit of work's: a tournament opening its matches).

After the commit, and outside it, each step goes to the announcer with its events
(matches/ports.Committed): this process's sockets are sent those events as they are, and
other processes hear that the match moved.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import Clock
from domino_api.engine.table import Stepped
from domino_api.matches.ends import Ends
from domino_api.matches.grouped import Grouped
from domino_api.matches.ports import Announces, Committed, Follows
from domino_api.store import civil_repo, idempotency
from domino_api.store import matches_repo as repo
from domino_api.store.db import Pool, after_commit, raw_connection, transaction
from domino_api.store.matches_repo import Change

# An idempotency key's answer, stored with the step: (player, key, body).
Answer = tuple[str, idempotency.Key, object]
# A new match inserted in a transaction of the writer (`Tx.insert`), announced after it.
Insert = Callable[[Stepped, datetime], Awaitable[Stepped]]


@dataclass(frozen=True, slots=True)
class Write:
    """One match's change, with what else its step writes: new matches (a rematch) and the
    answer of an idempotency key."""

    change: Change
    created: Sequence[Stepped] = ()
    answer: Answer | None = None

    @property
    def ends(self) -> bool:
        return self.change.after.over and not self.change.before.over

    def more(self) -> bool:
        """Whether it writes more than its match (so it needs a transaction)."""
        return self.ends or bool(self.created) or self.answer is not None


@dataclass
class Tx:
    """One transaction of the writer: what was written in it is announced after its commit."""

    writer: Writer
    session: AsyncSession
    connection: asyncpg.Connection
    done: list[Committed] = field(default_factory=list)

    @property
    def clock(self) -> Clock:
        return self.writer.clock

    async def write(self, writes: Sequence[Write]) -> dict[str, int]:
        """Save the changes, insert the matches they create, finish those that ended (records
        and hooks) and store the answers; each match's new version."""
        writer, connection = self.writer, self.connection
        versions = await repo.save_many(connection, [w.change for w in writes])
        for write in writes:
            for new in write.created:  # a rematch: the same seats, their mutes kept
                await self.insert(new, write.change.at)
                await civil_repo.carry_mutes(
                    connection, write.change.id, new.table.match.id, write.change.at
                )
        ended = [w.change.after for w in writes if w.ends]
        if ended:
            await writer.ends.finish(self, ended)
        for write in writes:
            if write.answer is not None:
                player_id, key, body = write.answer
                match_id, at = write.change.id, write.change.at
                await idempotency.store_answer(connection, player_id, match_id, key, body, at)
        self.done += steps_of(writes)
        return versions

    async def insert(self, new: Stepped, at: datetime) -> Stepped:
        """A new match (its game number taken), as inserted."""
        table = await repo.insert(self.connection, new.table, new.events, at)
        self.done.append(Committed(table.match.id, table.state.seq, new.events, at, table))
        return Stepped(table, new.events)


@dataclass
class Writer:
    """The process's write driver: its pool, sessions (for transactions), clock, announcer and
    the finishes of matches that end."""

    pool: Pool  # the process's one pool (store/db.py), as the sessions of `maker`
    maker: async_sessionmaker[AsyncSession]
    clock: Clock
    announcer: Announces
    ends: Ends
    # Read models told of every committed step after its announcement (the lobby).
    followers: Sequence[Follows] = ()
    grouped: Grouped = field(init=False)

    def __post_init__(self) -> None:
        # Half the pool for the steps' statements: the reads, transactions and announcements
        # keep the rest, and steps waiting meanwhile share statements.
        self.grouped = Grouped(self.pool, self.pool.size // 2, self._orphaned)

    async def save(self, writes: Sequence[Write]) -> dict[str, int]:
        """Save the writes (one statement, or one transaction if any writes more), then
        announce them; each match's new version. `WriteConflict`: nothing was written."""
        if not writes:
            return {}
        if any(write.more() for write in writes):
            async with self.transaction() as tx:
                return await tx.write(writes)
        if len(writes) == 1:
            change = writes[0].change
            versions = {change.id: await self.grouped.save(change)}
        else:
            async with self.pool.acquire() as connection:
                versions = await repo.save_many(connection, [w.change for w in writes])
        await self.committed(steps_of(writes))
        return versions

    async def _orphaned(self, change: Change) -> None:
        """A step saved in a shared statement after its caller stopped waiting."""
        await self.committed(steps_of([Write(change)]))

    async def committed(self, steps: Sequence[Committed]) -> None:
        """After a commit: announce the steps (this process's sockets first), then tell the
        read models."""
        await self.announcer.announce_committed(steps)
        for follower in self.followers:
            follower.follow(steps)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One transaction; what was written in it is announced once it has committed."""
        async with transaction(self.maker) as session:
            tx = Tx(self, session, await raw_connection(session))
            yield tx
        await self.committed(tx.done)

    async def within(self, session: AsyncSession) -> Tx:
        """The writer in a unit of work's transaction (`store/db.transaction`: a tournament's
        route opening matches); what it writes is announced after that commit."""
        tx = Tx(self, session, await raw_connection(session))
        after_commit(session, lambda: self.committed(tx.done))
        return tx


def steps_of(writes: Sequence[Write]) -> list[Committed]:
    return [
        Committed(
            w.change.id, w.change.after.state.seq, w.change.events, w.change.at, w.change.after
        )
        for w in writes
        if w.change.events
    ]
