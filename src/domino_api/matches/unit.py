"""The write core: one unit of work for every step of a match, whoever asks for it.

REST, the socket, the recovery job, presence and tournaments all call `Core.run(match_id,
step)`. A unit loads the match (or this process's copy of it, kept at most `COPY_TTL_S`) as
the engine's immutable `Table`, applies whatever is due first (`Tick`), marks the caller seen
(`Seen`), runs the service's `step`, which asks the table reducer (engine/table) for each
change through `Stage.do`, lets the computers reply, and saves the result, guarded by the
row version it read, through the one write driver (matches/writes.py: one statement, or a
transaction when the step writes more than its match; announced after the commit, with its
events).

Another writer that got there first (another process, a sweeper) has moved the version: the
save matches nothing and the unit loads and computes again. The core is handed what it calls
on (matches/ports.py): the announcer, the computers' decisions, the service's outages and the
finishes of ended matches.

A refusal computed on a copy (a stale seq, not your turn) may come from the copy being behind,
so it is checked again on a fresh read before it is answered; so is a step that wrote nothing.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Generic, TypeVar

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api import engine, metrics
from domino_api.clock import Clock
from domino_api.engine import EngineError
from domino_api.engine import table as tables
from domino_api.engine.table import Stepped, Table
from domino_api.errors import MatchBusy, MatchNotFound, ServiceError
from domino_api.matches.ports import Announces, Decide, OutagesOf, WitnessOf
from domino_api.matches.writes import Answer, Write, Writer
from domino_api.store import idempotency
from domino_api.store import matches_repo as repo
from domino_api.store.db import Pool
from domino_api.store.matches_repo import Change, Read, WriteConflict
from domino_api.store.presence_repo import Renewed

T = TypeVar("T")


@dataclass
class Stage:
    """A unit's table while its step runs: each `do` asks the reducer for the next table."""

    table: Table
    now: datetime
    events: list[tables.Staged] = field(default_factory=list)
    # New matches to insert with this step (a rematch).
    created: list[Stepped] = field(default_factory=list)

    def do(self, command: tables.Command) -> Table:
        return self.add(tables.step(self.table, command, self.now))

    def add(self, stepped: Stepped) -> Table:
        self.table = stepped.table
        self.events += stepped.events
        return self.table


@dataclass(frozen=True, slots=True)
class Later(Generic[T]):
    """A step's answer read off the stage once the computers it woke have replied (a move's
    answer carries their moves and the view after them)."""

    read: Callable[[Stage], T]


Step = Callable[[Stage], T | Later[T]]

# A copy is loaded again after this long, so presence marks and names written by others show
# within it. Under load a match moves many times a second.
COPY_TTL_S = 2.0
# Loads and computations per unit before giving up (each conflict means another step on the
# same match committed: the match moved on, so the loop is not stuck, only contended).
TRIES = 12
# Presence marks closer together than this are not rewritten: a write saved on most requests,
# at the cost of the away clock starting up to this much early.
TOUCH_EVERY_S = 1.0
# Matches whose socket leases one statement renews (as a sweep batches its matches).
PRESENCE_BATCH = 200


@dataclass(frozen=True, slots=True)
class Copy:
    """A match as this process last loaded or saved it, with its version."""

    table: Table
    version: int
    read_at: float  # the clock's monotonic time of the load it descends from


@dataclass
class Core:
    """The write core of one process: its write driver, the computers' decisions, the
    service's outages, and its copies of the matches."""

    writer: Writer
    decide: Decide
    outages: OutagesOf
    witness: WitnessOf  # what the service could see: presence is witnessed (issue 48)
    lease_s: float = tables.LEASE_S  # DOMINO_PRESENCE_LEASE_S: sockets and requests alike
    copies: dict[str, Copy] = field(default_factory=dict)

    @property
    def pool(self) -> Pool:
        return self.writer.pool

    @property
    def maker(self) -> async_sessionmaker[AsyncSession]:
        return self.writer.maker

    @property
    def clock(self) -> Clock:
        return self.writer.clock

    @property
    def announcer(self) -> Announces:
        return self.writer.announcer

    async def run(
        self,
        match_id: str,
        step: Step[T],
        *,
        player_id: str | None = None,
        action: str = "other",
        key: idempotency.Keyed[T] | None = None,
        fresh: bool = False,
        due_first: bool = True,
        outages: tables.Outages | None = None,
    ) -> T:
        """`step`'s answer, its changes saved; refusals raise as the step raised them.

        `player_id`: the caller, marked seen at the table. `key`: an idempotency key (a
        repeat answers what the first did, per player and match). `fresh`: never use a copy
        (a read that writes nothing must not answer from one). `due_first`: apply what is due
        before the step (the sweeper's step does it itself, to report what it found).
        """
        if len(match_id) > 36 or "\x00" in match_id:  # no id is longer, or holds a NUL
            raise MatchNotFound(f"No match {match_id[:40]!r}.")
        unit = _Unit(self, match_id, step, player_id, action, key, due_first, outages)
        for attempt in range(TRIES):
            copy = None if fresh or attempt else self._kept(match_id)
            try:
                return await unit.once(copy)
            except WriteConflict:
                self.copies.pop(match_id, None)
                metrics.count_write_conflict(action)
                if attempt >= 2:  # several writers at once: let them pass
                    await asyncio.sleep(random.random() * 0.002 * attempt)
            except _Recheck:
                self.copies.pop(match_id, None)
        raise MatchBusy("The match kept changing under this request; try again.")

    async def step_many(self, commands: dict[str, list[tables.Command]]) -> None:
        """Presence steps of many matches at once (a process's socket leases): each match's
        commands on its copy or a fresh load, saved together by the one guarded statement,
        `PRESENCE_BATCH` matches a statement. Nothing is due first (the sweep's and the
        requests' to apply). A match that moved meanwhile is run alone (`run`)."""
        ids = list(commands)
        for start in range(0, len(ids), PRESENCE_BATCH):
            alone = await self._step_batch(
                {m: commands[m] for m in ids[start : start + PRESENCE_BATCH]}
            )
            for match_id in alone:
                await self.run(match_id, partial(_do_all, commands[match_id]), due_first=False)

    async def _step_batch(self, commands: dict[str, list[tables.Command]]) -> list[str]:
        now, writes = self.clock.now(), []
        loaded_ones, alone = await self.load_many(list(commands))
        for match_id, loaded in loaded_ones.items():
            stage = Stage(loaded.table, now)
            _do_all(commands[match_id], stage)
            if _changed(loaded.table, stage):
                change = Change(loaded.table, stage.table, loaded.version, stage.events, now)
                writes.append(Write(change))
        try:
            saved = await self.writer.save(writes)
        except WriteConflict:  # nothing was written: each is stepped again on its own
            return alone + [write.change.id for write in writes]
        for write in writes:
            change = write.change
            self.keep(change.after, saved[change.id], loaded_ones[change.id].read_at)
        return alone

    # ------------------------------------------------------------ loading

    async def peek(self, match_id: str, fresh: bool = False) -> Table:
        """The match as committed, for a reader that writes nothing (a watching socket): this
        process's copy (at most `COPY_TTL_S` old, so the events after it follow) or, `fresh`
        or without one, a read, kept as the copy; no step runs, nothing is due first, nothing
        is saved."""
        if len(match_id) > 36 or "\x00" in match_id:
            raise MatchNotFound(f"No match {match_id[:40]!r}.")
        copy = None if fresh else self._kept(match_id)
        for _ in range(TRIES):
            if copy is not None:
                return copy.table
            try:
                copy = await self.load(match_id, None)
            except WriteConflict:  # it moved while it was read: read it again
                continue
            self.keep(copy.table, copy.version, copy.read_at)
        raise MatchBusy("The match kept changing under this request; try again.")

    def _kept(self, match_id: str) -> Copy | None:
        copy = self.copies.get(match_id)
        if copy is not None and self.clock.monotonic() - copy.read_at >= COPY_TTL_S:
            return None
        return copy

    async def load(self, match_id: str, copy: Copy | None) -> Copy:
        """The match from the copy, else loaded: row and seats, and the snapshot only when the
        version read is not the one the kept state was parsed from."""
        if copy is not None:
            return copy
        loaded, moved = await self._read([match_id])
        if moved:
            raise WriteConflict(f"match {match_id} changed while it was read")
        if match_id not in loaded:
            raise MatchNotFound(f"No match {match_id!r}.")
        return loaded[match_id]

    async def load_many(self, match_ids: list[str]) -> tuple[dict[str, Copy], list[str]]:
        """`load` for many matches, those without a fresh copy read together; and the ones that
        moved while they were read. A match not found is left out."""
        copies = {m: copy for m in match_ids if (copy := self._kept(m)) is not None}
        loaded, moved = await self._read([m for m in match_ids if m not in copies])
        return copies | loaded, moved

    async def _read(self, match_ids: list[str]) -> tuple[dict[str, Copy], list[str]]:
        read_at, loaded, moved = self.clock.monotonic(), {}, []
        async with self.pool.acquire() as connection:
            for match_id, found in (await repo.read_many(connection, match_ids)).items():
                try:
                    state = await self._state(connection, found)
                except WriteConflict:  # the row moved on since it was read
                    moved.append(match_id)
                    continue
                loaded[match_id] = Copy(found.table(state), found.version, read_at)
        return loaded, moved

    async def _state(self, connection: asyncpg.Connection, found: Read) -> engine.MatchState:
        cached = self.copies.get(found.info.id)
        if cached is not None and cached.version == found.version:
            return cached.table.state
        snapshot = await repo.snapshot(connection, found.info.id, found.version)
        if snapshot is None:  # the row moved on since it was read: read it again
            raise WriteConflict(f"match {found.info.id} changed while it was read")
        return engine.from_json(snapshot)

    def keep(self, table: Table, version: int, read_at: float) -> None:
        if table.over:
            # An ended match is rarely read again: keeping it would only grow the heap, and a
            # heap that keeps growing brings full garbage collections into the move path.
            self.copies.pop(table.match.id, None)
            return
        if len(self.copies) >= 10_000:
            self.copies.clear()
        self.copies[table.match.id] = Copy(table, version, read_at)

    def renewed(self, seats: Iterable[Renewed], now: datetime) -> None:
        """Seats whose lease marks a renewal wrote without moving their match's version
        (matches/presence.py): a copy takes them, as if its step had written them."""
        for match_id, number, until in seats:
            copy = self.copies.get(match_id)
            if copy is not None:
                marks = {"connected_until": until, "last_seen_at": now, "away_since": None}
                table = tables.with_seat(copy.table, number, **marks)
                self.copies[match_id] = Copy(table, copy.version, copy.read_at)

    # ------------------------------------------------------------ saving

    async def save(
        self, base: Table, stage: Stage, version: int, answer: Answer | None = None
    ) -> int:
        """Save the stage's changes since `base`, guarded by `version`, with what else the step
        writes (new matches, the end of this one, an idempotency key's `answer`), through the
        write driver; returns the row's new version."""
        change = Change(base, stage.table, version, stage.events, stage.now)
        saved = await self.writer.save([Write(change, tuple(stage.created), answer)])
        return saved[change.id]

    async def reply(self, stage: Stage) -> None:
        """Let every computer seat that has the turn move, until a human's turn or the end
        (the engine's one loop, `tables.replies`): each decision is awaited from the worker
        processes (`decide`: bots/computers.py), and the replies are staged for the unit's
        one save."""
        loop = tables.replies(stage.table, stage.now)
        try:
            decision = next(loop)
            while True:
                decision = loop.send(await self.decide(*decision))
        except StopIteration as done:
            stage.add(done.value)


@dataclass
class _Unit(Generic[T]):
    """One `Core.run`: load, what is due, the caller seen, the step, the computers, the save."""

    core: Core
    match_id: str
    step: Step[T]
    player_id: str | None
    action: str
    key: idempotency.Keyed[T] | None
    due_first: bool
    outages: tables.Outages | None

    async def once(self, copy: Copy | None) -> T:
        core = self.core
        if self.key is not None and self.player_id is not None:
            async with core.pool.acquire() as connection:
                earlier = await idempotency.idempotent_answer(
                    connection, self.player_id, self.match_id, self.key.key
                )
            if earlier is not None:
                return self.key.read(earlier[1])
        loaded = await core.load(self.match_id, copy)
        base, version = loaded.table, loaded.version
        now = core.clock.now()
        if self.due_first and not base.over and tables.is_due(base, now):
            # Timeouts first, saved as their own step: a refusal of what follows must not
            # undo a forfeit that was due.
            stage = Stage(base, now)
            stage.do(tables.Tick(self.outages or await core.outages(), secrets.token_hex(8)))
            await core.reply(stage)
            if _changed(base, stage):
                version = await core.save(base, stage, version)
                base, copy = stage.table, None  # what follows stands on a table just written
        seen = Stage(base, now)
        if self.player_id is not None:
            seen.do(tables.Seen(self.player_id, TOUCH_EVERY_S))
        stage = Stage(seen.table, now, list(seen.events))
        try:
            answer = self.step(stage)
        except (ServiceError, EngineError):
            if copy is not None:
                raise _Recheck() from None
            if _changed(base, seen):  # the caller was seen, whatever it asked
                await core.save(base, seen, version)
            raise
        await core.reply(stage)
        if isinstance(answer, Later):
            answer = answer.read(stage)
        if _changed(base, stage):
            saved = None
            if self.key is not None and self.player_id is not None:
                saved = (self.player_id, self.key.key, answer)
            version = await core.save(base, stage, version, saved)
            more = saved or stage.created or stage.table.over != base.over
            metrics.count_write_path(self.action, "transaction" if more else "statement")
        elif copy is not None:
            raise _Recheck()  # nothing written, so nothing checked the copy
        core.keep(stage.table, version, loaded.read_at)
        return answer


def _do_all(commands: list[tables.Command], stage: Stage) -> None:
    for command in commands:
        stage.do(command)


class _Recheck(Exception):
    """A refusal (or nothing to write) computed on a copy: ask the table itself."""


def _changed(base: Table, stage: Stage) -> bool:
    return bool(stage.events or stage.created) or stage.table != base
