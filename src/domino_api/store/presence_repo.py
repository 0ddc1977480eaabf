"""Presence in the seats table: the seats whose lease lapsed (a read; every presence write is
a step of the write core, saved by store/matches_repo's guarded statement: matches/presence.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import Match, Seat

SeatKey = tuple[str, int]


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
