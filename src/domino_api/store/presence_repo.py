"""Presence in the seats table: the sockets' leases and the seats whose lease lapsed.

A socket's lease extension writes only the seats' lease marks (`connected_until`,
`last_seen_at`), never the `connected` flag or an event, so it need not move the match's
version: the flag changes only through the table reducer's `Connect` and `Lapse`, steps of the
write core (matches/presence.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.table import LEASE_S
from domino_api.store.models import Match, Seat

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


async def lapsed_seats(session: AsyncSession, now: datetime, lease_s: float) -> list[SeatKey]:
    """Seats flagged connected whose lease (socket or request) has run out."""
    lease = timedelta(seconds=lease_s)
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
    return [(match_id, seat) for match_id, seat in (await session.execute(stmt)).all()]
