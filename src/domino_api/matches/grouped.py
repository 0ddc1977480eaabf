"""Group commit: steps that write only their match, waiting for a connection, share one statement.

A step that writes only its match (most moves) is one guarded statement (store/matches_repo.py
`save_many`). Under load several such steps of different matches are ready at once and each
waited for a connection of the pool, then paid its own round trip, its own checkout and its own
commit. Here they go together: while `slots` statements are in flight, the next steps queue,
and the next statement carries every queued match (up to `MOST`), each still guarded by its own
version. The statement commits on its own (no transaction around it): a match whose version
moved is left out of it (its seats and events with it) and only its step sees `WriteConflict`;
the others are saved. A step with nothing in flight before it runs alone, as it always did.

Each step is answered after the commit of the statement that carried it, and announced by its
own caller (so a mover's events still leave with its ack, realtime/outbox.py); a step whose
caller stopped waiting (a closed socket) and that was saved all the same is announced here.
Two steps of one match never share a statement, and a queued one is not sent while another
statement carries its match (it waits for that commit, then finds its version moved, as
before); a step alone may meet another's statement on its match in PostgreSQL and wait for its
row lock there, as before. A statement that waits for one match's row lock (a transaction
holding it) holds its other matches with it, up to `db_command_timeout_s`. A statement
PostgreSQL ends as a deadlock (two statements locking the same matches in other orders) wrote
nothing: its steps see `WriteConflict` and compute again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence

import asyncpg

from domino_api.store import matches_repo as repo
from domino_api.store.db import Pool
from domino_api.store.matches_repo import Change, WriteConflict

log = logging.getLogger(__name__)

# Matches per shared statement: a batch's values stay a few hundred kilobytes.
MOST = 64
# Announces a saved change whose caller no longer waits.
Orphaned = Callable[[Change], Awaitable[None]]


class _Waiting:
    __slots__ = ("change", "done")

    def __init__(self, change: Change, done: asyncio.Future[int]) -> None:
        self.change = change
        self.done = done


class Grouped:
    """The statement-only saves of one process: at most `slots` statements at once."""

    def __init__(self, pool: Pool, slots: int, orphaned: Orphaned) -> None:
        self.pool = pool
        self.slots = max(1, slots)
        self.orphaned = orphaned
        self.running = 0  # statements in flight (or connections being taken for them)
        self.busy: Counter[str] = Counter()  # matches in those statements
        self.queue: deque[_Waiting] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self.statements = 0  # statements sent, and the saves they carried (tests, benchmarks)
        self.saves = 0

    async def save(self, change: Change) -> int:
        """`change` saved, alone or with others; its match's new version. `WriteConflict`:
        its match moved (nothing of it was written)."""
        if self.running < self.slots and not self.queue:
            return await self._alone(change)
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.queue.append(_Waiting(change, done))
        self._start()
        return await done

    async def _alone(self, change: Change) -> int:
        """The caller's own statement, as without grouping: its fate is its own."""
        self.running += 1
        self.busy[change.id] += 1
        try:
            async with self.pool.acquire() as connection:
                saved = await self._send(connection, [change])
        finally:
            self.running -= 1
            self.busy -= Counter((change.id,))
            self._start()
        if change.id not in saved:
            raise WriteConflict(f"match {change.id} changed since it was read")
        return saved[change.id]

    def _start(self) -> None:
        """A statement for the queue, in a task of its own (a waiting caller cancelled never
        takes others' saves with it), if a slot is free and a queued match is not in flight;
        saves whose callers stopped waiting before they were sent are dropped."""
        if self.running >= self.slots:
            return
        live = [w for w in self.queue if not w.done.done()]
        if len(live) != len(self.queue):
            self.queue = deque(live)
        if any(w.change.id not in self.busy for w in live):
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._carry())
            self._tasks.add(task)  # the loop keeps only a weak reference
            task.add_done_callback(self._tasks.discard)

    def _take(self) -> list[_Waiting]:
        """Up to `MOST` queued saves of distinct matches not in flight, in the queue's order;
        those left wait for a later statement."""
        taken: list[_Waiting] = []
        left: deque[_Waiting] = deque()
        ids = set(self.busy)
        while self.queue:
            waiting = self.queue.popleft()
            if waiting.done.done():  # its caller stopped waiting before it was sent
                continue
            if len(taken) < MOST and waiting.change.id not in ids:
                ids.add(waiting.change.id)
                taken.append(waiting)
            else:
                left.append(waiting)
        self.queue = left
        return taken

    async def _carry(self) -> None:
        taken: list[_Waiting] = []
        try:
            async with self.pool.acquire() as connection:
                taken = self._take()
                self.busy.update(w.change.id for w in taken)
                if taken:
                    # In one order of ids, as every batch of the write core, so that two
                    # statements lock their common matches in the same order.
                    changes = sorted((w.change for w in taken), key=lambda c: c.id)
                    saved = await self._send(connection, changes)
                    await self._answer(taken, saved)
        except BaseException as exc:
            for waiting in taken:
                if waiting.done.done():
                    continue
                if isinstance(exc, asyncio.CancelledError):  # the process is stopping
                    waiting.done.cancel()
                else:
                    waiting.done.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self.running -= 1
            self.busy -= Counter(w.change.id for w in taken)
            self._start()

    async def _send(
        self, connection: asyncpg.Connection, changes: Sequence[Change]
    ) -> dict[str, int]:
        self.statements += 1
        self.saves += len(changes)
        try:
            return await repo.save_each(connection, changes)
        except asyncpg.DeadlockDetectedError:  # the statement was undone: nothing was written
            return {}

    async def _answer(self, taken: list[_Waiting], saved: dict[str, int]) -> None:
        orphans = []
        for waiting in taken:
            change, done = waiting.change, waiting.done
            version = saved.get(change.id)
            if done.done():  # its caller is gone: if it was saved, it is announced here
                if version is not None:
                    orphans.append(change)
            elif version is None:
                done.set_exception(WriteConflict(f"match {change.id} changed since it was read"))
            else:
                done.set_result(version)
        for change in orphans:
            try:
                await self.orphaned(change)
            except Exception:  # the catch-up delivers it
                log.exception("announcing match %s's saved step failed", change.id)
