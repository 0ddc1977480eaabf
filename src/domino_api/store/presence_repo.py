"""Presence in the seats table: the seats whose lease lapsed, and a socket's renewal of the
leases it holds (one statement for many seats: `renew_leases`). Every other presence write is
a step of the write core, saved by store/matches_repo's guarded statement (matches/presence.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import asyncpg
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


# A socket's renewal of seats already marked connected and still held by its player: only
# their lease marks change (as `Connect` would change them: engine/table/seating.py), so no
# match is read and no version moves. A seat not renewed here (gone, another's, or not
# connected: its return is announced) is left to the write core's step.
RENEW = (
    "UPDATE seats AS s SET connected_until = greatest(s.connected_until, $4::timestamptz), "
    "last_seen_at = $5::timestamptz, away_since = NULL "
    "FROM unnest($1::text[], $2::int[], $3::text[]) AS g(match_id, seat, player_id) "
    "WHERE s.match_id = g.match_id AND s.seat = g.seat AND s.player_id = g.player_id "
    "AND s.type = 'human' AND s.connected "
    "RETURNING s.match_id, s.seat, s.connected_until"
)

Renewed = tuple[str, int, datetime]  # match, seat, its lease's end as stored


async def renew_leases(
    connection: asyncpg.Connection,
    held: Sequence[tuple[str, int, str]],
    now: datetime,
    lease_s: float,
) -> list[Renewed]:
    """One statement: extend the leases of `held` (match, seat, holder) that are connected and
    still the holder's; returns the seats it renewed."""
    if not held:
        return []
    columns = ([h[0] for h in held], [h[1] for h in held], [h[2] for h in held])
    until = now + timedelta(seconds=lease_s)
    rows = await connection.fetch(RENEW, *columns, until, now)
    return [(row[0], row[1], row[2]) for row in rows]
