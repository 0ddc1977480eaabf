"""A game step on the asyncpg driver: the same write path, without the ORM session.

Most write requests are a move (one play, draw or pass plus the computers' replies), the next
hand or the start, in a match that goes on. For those, the ORM's share of the request (the
session, the two reads, the commit) was the largest part of the server's time (bench/README.md,
"Load"). Here the match row and its seats are read with the driver as `DriverRow`s, and the
service code itself (`service.play_move`, `next_hand_on`, `start_on`: the seat, the checks,
`table.apply`, the view) runs on them unchanged, its step written by `matches_repo.write_step`
on the same connection.

A step that finishes the match stays here too: its players' finishes and records are written
on the same connection (players/records.py `write_finishes_on`). Anything else hands the
request back to the ORM path by raising `Fallback`, before the transaction commits, so nothing
of the attempt is kept: a timeout due on the match, a tournament match ending (its hooks use
the session), or a change to a seat (bots filling empty seats at the start). The ORM path then
does the whole request from the start, exactly as it did before this path existed. (Moves with
an idempotency key go straight to the ORM path: the key is stored with the session.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, cast

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine, metrics
from domino_api.clock import Clock
from domino_api.errors import MatchNotFound
from domino_api.matches import service, timeouts
from domino_api.matches.table import Table, assemble, cached_state, remember_state
from domino_api.players import records
from domino_api.store.matches_repo import SessionStandIn
from domino_api.store.models import Match, Player, Seat
from domino_api.store.rows import DriverRow

# Every column the write path reads, the snapshot aside: the parsed state is usually cached
# (matches/table.py), and the snapshot is read only when it is not.
_MATCH_COLUMNS = tuple(c.name for c in Match.__table__.columns if c.name != "snapshot")
_SEAT_COLUMNS = tuple(c.name for c in Seat.__table__.columns)
# The row lock and the seats in one round trip. Under READ COMMITTED a statement reads with
# the snapshot it started with, while FOR UPDATE returns the newest version of the row it
# waited for: seats read in the same statement may then predate that version's transaction.
# `fresh` tells (the locked version is the one the snapshot sees); when it is false, the
# seats are read again, now after the lock. Every writer of seats holds this lock and moves
# the row, except the presence marks (seen, connected), which may then lag by one request:
# those only ever make a deadline early, never late (table.due_at).
LOCK_WITH_SEATS = (
    f"SELECT {', '.join(f'm.{name}' for name in _MATCH_COLUMNS)}, "
    "m.xmin = (SELECT o.xmin FROM matches o WHERE o.id = $1) AS fresh, "
    f"{', '.join(f's.{name}' for name in _SEAT_COLUMNS)}, p.name, p.tile_back "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id "
    "LEFT JOIN players p ON p.id = s.player_id WHERE m.id = $1 FOR UPDATE OF m"
)
SEATS = (
    f"SELECT {', '.join(f's.{name}' for name in _SEAT_COLUMNS)}, p.name, p.tile_back "
    "FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat"
)
SNAPSHOT = "SELECT snapshot FROM matches WHERE id = $1"
TOUCH = (
    "UPDATE seats SET last_seen_at = $3, away_since = NULL "
    "WHERE match_id = $1 AND seat = ANY($2::int[])"
)


# As long as the ORM pool waits for a connection (SQLAlchemy's pool_timeout) before giving up.
ACQUIRE_TIMEOUT_S = 30.0


class Fallback(Exception):
    """This request needs the ORM path; the attempt's transaction is rolled back."""


class _Session(SessionStandIn):
    """Takes the ORM session's place in the write path: it offers the driver connection, on
    which `matches_repo.write_step` writes the step, and refuses anything else."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.driver_connection = connection
        # A match that finishes leaves its finishes here (players/records.py); `attempt`
        # writes them on the connection after the step.
        self.info: dict[str, Any] = {records.BATCHED: []}

    async def flush(self) -> None:
        """Nothing pending: the step is written by write_step, and a changed seat falls back."""

    def __getattr__(self, name: str) -> Any:
        raise Fallback(f"session.{name} is not on the driver path")


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
        async with pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as connection, connection.transaction():
            table = await _open_table(connection, clock, match_id, player)
            session = _Session(connection)
            answer = await step(cast(AsyncSession, session), clock, player, table)
            await records.write_finishes_on(connection, session.info[records.BATCHED])
            # Every write of this path is the step's own (write_step) or the presence mark;
            # a row changed after the last write is for the ORM path, which saves it all.
            if any(cast(DriverRow, row).changes() for row in (table.match, *table.seats)):
                raise Fallback("a row changed after its step was written")
    except Fallback:
        metrics.count_write_path(action, "orm")
        return None
    metrics.count_write_path(action, "driver")
    return answer


def _seats(rows: Iterable[Sequence[Any]]) -> list[tuple[DriverRow, str | None, str | None]]:
    """Seats in order, each with its holder's name and tile back (the last two columns)."""
    seats = [
        (DriverRow(dict(zip(_SEAT_COLUMNS, row, strict=False))), row[-2], row[-1])
        for row in rows
        if row[1] is not None  # a match without seats comes back as one row of nulls
    ]
    return sorted(seats, key=lambda seat: cast(int, seat[0].seat))


async def _open_table(
    connection: asyncpg.Connection, clock: Clock, match_id: str, player: Player
) -> Table:
    """`service.open_table` on the driver: lock, seats, presence; a due timeout falls back."""
    if len(match_id) > 36 or "\x00" in match_id:  # no id is longer, or holds a NUL
        raise MatchNotFound(f"No match {match_id[:40]!r}.")
    rows = await connection.fetch(LOCK_WITH_SEATS, match_id)
    if not rows:
        raise MatchNotFound(f"No match {match_id!r}.")
    match = DriverRow(dict(zip(_MATCH_COLUMNS, rows[0], strict=False)))
    if rows[0]["fresh"]:
        seats = _seats(row[len(_MATCH_COLUMNS) + 1 :] for row in rows)
    else:
        seats = _seats(await connection.fetch(SEATS, match_id))
    state = cached_state(cast(Match, match))
    if state is None:
        state = engine.from_json(await connection.fetchval(SNAPSHOT, match_id))
        remember_state(cast(Match, match), state)
    table = assemble(cast(Match, match), cast(Any, seats), state)
    now = clock.now()
    if not table.over and timeouts.is_due(table, now):
        raise Fallback("a timeout is due")
    stale = service.seats_to_touch(table, player, now)
    if stale:
        await connection.execute(TOUCH, match_id, stale, now)
        for number in stale:
            seat = cast(DriverRow, table.seats[number])
            seat.last_seen_at, seat.away_since = now, None
            seat.mark_written(("last_seen_at", "away_since"))
    return table
