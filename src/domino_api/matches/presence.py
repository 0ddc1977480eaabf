"""Presence in the database: a seat is connected while any of its sockets, or a request about
the match, was seen within the lease (docs/ARCHITECTURE.md, "Presence").

The lease lives in the seats table (`connected_until` for sockets, `last_seen_at` for requests),
so it is right across server processes and when a process dies: each process extends the leases
of the seats it holds sockets for, a request marks its seats seen (matches/unit.py), and whoever
runs `expire_presence` (the recovery job, or any process) records the lapses. The rules that
turn a lease into `seat_connected` and `seat_disconnected` events are the table reducer's
(engine/table/seating.py); the view
shows the flag those events set, so a view and the event stream never disagree. Presence events
are steps of the write core, so they never make a move stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import and_, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine import table as tables
from domino_api.engine.table import LEASE_S
from domino_api.store.db import transaction
from domino_api.store.models import Match, Seat

if TYPE_CHECKING:  # a type only: these are units the write core runs
    from domino_api.matches.unit import Core, Stage

SeatKey = tuple[str, int]


async def refresh_leases(
    session: AsyncSession, keys: Iterable[SeatKey], now: datetime, lease_s: float = LEASE_S
) -> list[SeatKey]:
    """Extend the leases of seats this process holds sockets for (no match lock: only leases).

    Returns the seats whose `connected` flag is off (lapsed meanwhile): the caller announces
    them through `connect_seats`, under the match lock.
    """
    wanted = sorted(set(keys))
    if not wanted:
        return []
    until = now + timedelta(seconds=lease_s)
    stmt = (
        update(Seat)
        .where(tuple_(Seat.match_id, Seat.seat).in_(wanted), Seat.type == "human")
        .values(connected_until=until, last_seen_at=now, away_since=None)
        .returning(Seat.match_id, Seat.seat, Seat.connected)
        .execution_options(synchronize_session=False)
    )
    result = await session.execute(stmt)
    return [(match_id, seat) for match_id, seat, connected in result.all() if not connected]


async def release(
    session: AsyncSession,
    match_id: str,
    seats: Iterable[int],
    now: datetime,
    lease_s: float = LEASE_S,
) -> None:
    """A socket closed: its seats stay connected for one more lease from now, then lapse."""
    numbers = list(seats)
    if not numbers:
        return
    until = now + timedelta(seconds=lease_s)
    await session.execute(
        update(Seat)
        .where(Seat.match_id == match_id, Seat.seat.in_(numbers), Seat.type == "human")
        .values(connected_until=until, last_seen_at=now)
        .execution_options(synchronize_session=False)
    )


async def connect_seats(
    core: Core, match_id: str, seats: Iterable[int], lease_s: float = LEASE_S
) -> None:
    """Announce seats that have a live socket again (a step of the write core)."""
    command = tables.Connect(tuple(seats), lease_s)

    def step(stage: Stage) -> None:
        stage.do(command)

    await core.run(match_id, step)


async def expire_presence(core: Core, now: datetime) -> list[SeatKey]:
    """Record `seat_disconnected` for every seat whose lease lapsed; returns those seats.

    Safe to run from several processes at once: each match is a step of the write core, which
    re-checks the lapse on the row it saves over (a process that got there first leaves
    nothing to do).
    """
    lease = timedelta(seconds=core.lease_s)
    lapsed = and_(
        or_(Seat.connected_until.is_(None), Seat.connected_until <= now),
        or_(Seat.last_seen_at.is_(None), Seat.last_seen_at <= now - lease),
    )
    stmt = (
        select(Seat.match_id, Seat.seat)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.connected.is_(True), lapsed)
        .order_by(Seat.match_id, Seat.seat)
    )
    async with transaction(core.maker) as session:
        found = (await session.execute(stmt)).all()
    by_match: dict[str, list[int]] = {}
    for match_id, seat in found:
        by_match.setdefault(match_id, []).append(seat)
    done: list[SeatKey] = []
    for match_id, numbers in by_match.items():

        def step(stage: Stage, numbers: list[int] = numbers) -> list[int]:
            table = stage.table
            gone = [n for n in numbers if tables.lapsed(table.seats[n], now, core.lease_s)]
            stage.do(tables.Lapse(tuple(gone), core.lease_s))
            return gone

        # Presence only: what is due is the sweep's to apply and report (jobs/sweeper.py).
        done += [(match_id, n) for n in await core.run(match_id, step, due_first=False)]
    return done


__all__ = [
    "LEASE_S",
    "connect_seats",
    "expire_presence",
    "refresh_leases",
    "release",
]
