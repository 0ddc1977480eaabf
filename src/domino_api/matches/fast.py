"""A game step on the asyncpg driver: the same write path, without the ORM session or a lock.

Most write requests are a move (one play, draw or pass plus the computers' replies), the next
hand or the start, in a match that goes on. For those, the ORM's share of the request (the
session, the two reads, the commit) was the largest part of the server's time (bench/README.md,
"Load"). Here the match row and its seats are read with the driver as `DriverRow`s, and the
service code itself (`service.play_move`, `next_hand_on`, `start_on`: the seat, the checks,
`table.apply`, the view) runs on them unchanged, its step written by `matches_repo.write_step`
on the same connection.

Optimistic, not locked: the read takes no lock and opens no transaction, and the step's write is
one statement guarded by the row version it was computed from (`xmin`): the row update, the
events and the NOTIFY, atomic on their own. A writer that got there first (another request, a
sweeper, the ORM path) has moved the version, the guarded write matches nothing, and the step
is computed again from a fresh read. A move is then one round trip for the write and at most one
for the read, against four with a lock (BEGIN, lock, write, COMMIT).

A process also keeps a copy of each live match's row and seats as it last read or wrote them
(with their version) for `COPY_TTL_S`: a request that finds a copy skips the read. The guard
makes that safe for the step; a refusal computed on a copy (a stale seq, not your turn) may
come from the copy being behind, so it is checked again on a fresh read before it is answered.
What a copy can show late is only what changes without moving the row: presence marks and the
holders' names and tile backs, for at most `COPY_TTL_S`.

A step that finishes the match stays here too, in a transaction begun just before its write
(the guarded write first, then its players' finishes and records, players/records.py
`write_finishes_on`, then COMMIT). Anything else hands the request back to the ORM path by
raising `Fallback` before anything is written: a timeout due on the match, a tournament match
ending (its hooks use the session, inside that transaction, which is rolled back), or a change
to a seat (bots filling empty seats at the start). The ORM path then does the whole request
from the start, exactly as it did before this path existed. (Moves with an idempotency key go
straight to the ORM path: the key is stored with the session.)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import asyncpg
from asyncpg.transaction import Transaction
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine, metrics
from domino_api.clock import Clock
from domino_api.errors import MatchNotFound
from domino_api.matches import service, timeouts
from domino_api.matches.table import Table, assemble, cached_state, remember_state
from domino_api.players import records
from domino_api.store.matches_repo import SessionStandIn, WriteConflict
from domino_api.store.models import Match, Player, Seat
from domino_api.store.rows import DriverRow

# Every column the write path reads, the snapshot aside: the parsed state is usually cached
# (matches/table.py), and the snapshot is read only when it is not.
_MATCH_COLUMNS = tuple(c.name for c in Match.__table__.columns if c.name != "snapshot")
_SEAT_COLUMNS = tuple(c.name for c in Seat.__table__.columns)
# The row, its version and its seats in one statement: one snapshot, so they agree.
MATCH_WITH_SEATS = (
    f"SELECT {', '.join(f'm.{name}' for name in _MATCH_COLUMNS)}, m.xmin AS version, "
    f"{', '.join(f's.{name}' for name in _SEAT_COLUMNS)}, p.name, p.tile_back "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id "
    "LEFT JOIN players p ON p.id = s.player_id WHERE m.id = $1"
)
# The snapshot of the version read, or nothing once the row has moved on.
SNAPSHOT = "SELECT snapshot FROM matches WHERE id = $1 AND xmin = $2::xid"
# A presence mark for the caller's seats; the holder is checked because a copy may be older
# than a seat's change of holder.
TOUCH = (
    "UPDATE seats SET last_seen_at = $3, away_since = NULL "
    "WHERE match_id = $1 AND seat = ANY($2::int[]) AND player_id = $4"
)

# As long as the ORM pool waits for a connection (SQLAlchemy's pool_timeout) before giving up.
ACQUIRE_TIMEOUT_S = 30.0
# A copy is read again after this long, so presence marks and names written by others (which
# do not move the row) show within it. Under load a match moves many times a second.
COPY_TTL_S = 2.0
# Fresh reads per request before handing it to the ORM path, whose lock always gets through.
TRIES = 3


class Fallback(Exception):
    """This request needs the ORM path; nothing of the attempt is kept."""


class _Session(SessionStandIn):
    """Takes the ORM session's place in the write path: it offers the driver connection, on
    which `matches_repo.write_step` writes the step guarded by the version read, and refuses
    anything else."""

    def __init__(self, connection: asyncpg.Connection, table: Table, version: int) -> None:
        self.driver_connection = self._connection = connection
        self.table = table
        self.version = version  # the row's xmin as read; after the write, as written
        self.transaction: Transaction | None = None  # only for a step that ends the match
        self.wrote = False
        # A match that finishes leaves its finishes here (players/records.py); `commit`
        # writes them in the step's transaction.
        self.info: dict[str, Any] = {records.BATCHED: []}

    @property
    def settled(self) -> bool:
        """The step's write is committed: it can no longer be undone or computed again."""
        return self.wrote and self.transaction is None

    async def guard(self, match: Match | DriverRow) -> int:
        if self.wrote:  # every step on this path is written once (table.flush)
            raise RuntimeError("a second write in one driver step")
        if any(cast(DriverRow, seat).changes() for seat in self.table.seats):
            raise Fallback("a seat changed")  # the ORM path writes seats with the row
        if self.table.over:
            # Finishes, records or a tournament's hooks follow the write: all or nothing.
            transaction = self._connection.transaction()
            await transaction.start()
            self.transaction = transaction
        return self.version

    def written(self, version: int) -> None:
        self.version, self.wrote = version, True

    async def flush(self) -> None:
        """Nothing pending: the step is written by write_step, and a changed seat falls back."""

    async def commit(self) -> None:
        """The step's finishes, then its transaction, if it has one; any other change left on
        the rows is for the ORM path."""
        await records.write_finishes_on(self._connection, self.info[records.BATCHED])
        table = self.table
        if any(cast(DriverRow, row).changes() for row in (table.match, *table.seats)):
            if self.settled:
                raise RuntimeError("a row changed after its step was committed")
            raise Fallback("a row changed after its step was written")
        transaction, self.transaction = self.transaction, None
        if transaction is not None:
            await transaction.commit()  # if this fails, the pool's reset rolls back

    async def roll_back(self) -> None:
        """Undo an open step transaction while another exception is on its way: a rollback
        that fails too (a lost connection) must not hide it; the pool resets the connection."""
        transaction, self.transaction = self.transaction, None
        if transaction is not None:
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                await transaction.rollback()

    def __getattr__(self, name: str) -> Any:
        if self.settled:
            raise RuntimeError(f"session.{name} after the driver step was committed")
        raise Fallback(f"session.{name} is not on the driver path")


@dataclass(frozen=True, slots=True)
class _Copy:
    """A match's row and seats as this process last read or wrote them."""

    version: int
    match: dict[str, Any]
    seats: tuple[tuple[dict[str, Any], str | None, str | None], ...]
    read_at: float  # monotonic time of the read it descends from


_COPIES: dict[str, _Copy] = {}


def _keep(table: Table, version: int, read_at: float) -> None:
    match_id = table.match.id
    if table.over:
        _COPIES.pop(match_id, None)  # rarely read again (as table.remember_state)
        return
    if len(_COPIES) >= 10_000:
        _COPIES.clear()
    row = cast(DriverRow, table.match).__dict__
    seats = tuple(
        (
            dict(cast(DriverRow, seat).__dict__),
            table.names.get(seat.player_id) if seat.player_id else None,
            table.tile_backs.get(seat.player_id) if seat.player_id else None,
        )
        for seat in table.seats
    )
    _COPIES[match_id] = _Copy(version, {c: row[c] for c in _MATCH_COLUMNS}, seats, read_at)


def _kept(match_id: str) -> _Copy | None:
    copy = _COPIES.get(match_id)
    if copy is not None and time.monotonic() - copy.read_at > COPY_TTL_S:
        del _COPIES[match_id]
        return None
    return copy


# The service's code for an opened table, called as step(session, clock, player, table):
# `functools.partial(service.play_move, body=body)`, `start_on`, `next_hand_on`.
Step = Callable[[AsyncSession, Clock, Player, Table], Awaitable[dict[str, Any]]]


async def attempt(
    pool: asyncpg.Pool | None,
    clock: Clock,
    player: Player,
    match_id: str,
    action: str,
    step: Step,
) -> dict[str, Any] | None:
    """`step`'s answer on the driver path, or None if the request needs the ORM path.

    `step` is the service's own code for an opened table (`service.play_move`, `next_hand_on`,
    `start_on`). Refusals (not your turn, a stale seq, an illegal tile...) are raised as on the
    ORM path: they come from the same code, and nothing is written. No pool (the path is
    turned off): None at once.
    """
    if pool is None:
        return None
    try:
        async with pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as connection:
            answer = await _step_on(connection, clock, player, match_id, action, step)
    except Fallback:
        metrics.count_write_path(action, "orm")
        return None
    metrics.count_write_path(action, "driver")
    return answer


async def _step_on(
    connection: asyncpg.Connection,
    clock: Clock,
    player: Player,
    match_id: str,
    action: str,
    step: Step,
) -> dict[str, Any]:
    """The step on a table read (or kept) without a lock, computed again while another writer
    gets there first. An answer made on a kept copy stands only if its guarded write went
    through; a refusal, or a step that wrote nothing, is made again on a fresh read."""
    for _ in range(TRIES):
        copy = _kept(match_id)
        try:
            table, version, read_at = await _open_table(connection, clock, match_id, player, copy)
        except WriteConflict:  # the row moved between its read and its snapshot's
            _COPIES.pop(match_id, None)
            metrics.count_write_conflict(action)
            continue
        session = _Session(connection, table, version)
        try:
            answer = await step(cast(AsyncSession, session), clock, player, table)
            await session.commit()
        except Fallback:
            await session.roll_back()
            raise
        except WriteConflict:
            await session.roll_back()
            _COPIES.pop(match_id, None)
            metrics.count_write_conflict(action)
            continue
        except BaseException as exc:
            await session.roll_back()
            if copy is None or session.settled or not isinstance(exc, Exception):
                raise
            _COPIES.pop(match_id, None)  # the copy may be behind: ask the table itself
            continue
        if copy is not None and not session.wrote:
            # Nothing written (a next hand already dealt): nothing checked the copy either.
            _COPIES.pop(match_id, None)
            continue
        _keep(table, session.version, read_at)
        return answer
    raise Fallback("the match kept changing under the step")


def _seats(rows: Iterable[Sequence[Any]]) -> list[tuple[DriverRow, str | None, str | None]]:
    """Seats in order, each with its holder's name and tile back (the last two columns)."""
    seats = [
        (DriverRow(dict(zip(_SEAT_COLUMNS, row, strict=False))), row[-2], row[-1])
        for row in rows
        if row[1] is not None  # a match without seats comes back as one row of nulls
    ]
    return sorted(seats, key=lambda seat: cast(int, seat[0].seat))


async def _read(
    connection: asyncpg.Connection, match_id: str, copy: _Copy | None
) -> tuple[DriverRow, list[tuple[DriverRow, str | None, str | None]], int, float]:
    """The row, its seats, its version and when they were read: from the copy if there is one."""
    if copy is not None:
        seats = [(DriverRow(columns), name, back) for columns, name, back in copy.seats]
        return DriverRow(copy.match), seats, copy.version, copy.read_at
    if len(match_id) > 36 or "\x00" in match_id:  # no id is longer, or holds a NUL
        raise MatchNotFound(f"No match {match_id[:40]!r}.")
    read_at = time.monotonic()
    rows = await connection.fetch(MATCH_WITH_SEATS, match_id)
    if not rows:
        raise MatchNotFound(f"No match {match_id!r}.")
    width = len(_MATCH_COLUMNS)
    match = DriverRow(dict(zip(_MATCH_COLUMNS, rows[0], strict=False)))
    seats = _seats(row[width + 1 :] for row in rows)
    return match, seats, int(rows[0]["version"]), read_at


async def _open_table(
    connection: asyncpg.Connection, clock: Clock, match_id: str, player: Player, copy: _Copy | None
) -> tuple[Table, int, float]:
    """`service.open_table` on the driver: row and seats, presence; a due timeout falls back."""
    match, seats, version, read_at = await _read(connection, match_id, copy)
    state = cached_state(cast(Match, match))
    if state is None:
        snapshot = await connection.fetchval(SNAPSHOT, match_id, version)
        if snapshot is None:  # the row moved on since it was read: read it again
            raise WriteConflict(f"match {match_id} changed while it was read")
        state = engine.from_json(snapshot)
        remember_state(cast(Match, match), state)
    table = assemble(cast(Match, match), cast(Any, seats), state)
    now = clock.now()
    if not table.over and timeouts.is_due(table, now):
        raise Fallback("a timeout is due")
    stale = service.seats_to_touch(table, player, now)
    if stale:
        # A presence mark, not part of the step: written at once, whatever the step does.
        await connection.execute(TOUCH, match_id, stale, now, player.id)
        for number in stale:
            seat = cast(DriverRow, table.seats[number])
            seat.last_seen_at, seat.away_since = now, None
            seat.mark_written(("last_seen_at", "away_since"))
    return table, version, read_at
