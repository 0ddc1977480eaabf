"""SQL about matches, seats, events and idempotency keys."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import (
    OVER_STATUSES,
    IdempotentAnswer,
    Match,
    MatchEvent,
    Player,
    Seat,
)

CHANNEL = "domino_events"


async def get(session: AsyncSession, match_id: str) -> Match | None:
    return await session.get(Match, match_id)


async def lock(session: AsyncSession, match_id: str) -> Match | None:
    """The write path's first step: the row lock serialises every action on one match."""
    stmt = select(Match).where(Match.id == match_id).with_for_update()
    return (await session.execute(stmt)).scalar_one_or_none()


async def seats(session: AsyncSession, match_id: str) -> list[Seat]:
    stmt = select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat)
    return list((await session.execute(stmt)).scalars())


async def seats_with_holders(
    session: AsyncSession, match_id: str
) -> list[tuple[Seat, str | None, str | None]]:
    """Seats and their holders' names and tile backs, in one round trip."""
    stmt = (
        select(Seat, Player.name, Player.tile_back)
        .outerjoin(Player, Player.id == Seat.player_id)
        .where(Seat.match_id == match_id)
        .order_by(Seat.seat)
    )
    return [(row[0], row[1], row[2]) for row in (await session.execute(stmt)).all()]


async def live_by_code(session: AsyncSession, code: str) -> Match | None:
    stmt = select(Match).where(Match.code == code, Match.status.not_in(OVER_STATUSES))
    return (await session.execute(stmt)).scalar_one_or_none()


async def live_codes(session: AsyncSession) -> set[str]:
    stmt = select(Match.code).where(Match.code.is_not(None), Match.status.not_in(OVER_STATUSES))
    return {code for code in (await session.execute(stmt)).scalars() if code}


def add(session: AsyncSession, *rows: Any) -> None:
    session.add_all(rows)


async def insert_events(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        await session.execute(insert(MatchEvent), list(rows))


async def notify(session: AsyncSession, match_id: str, seq: int) -> None:
    """Sent by PostgreSQL only when the transaction commits: nothing is announced early."""
    await session.execute(
        text("SELECT pg_notify(:channel, :payload)"),
        {"channel": CHANNEL, "payload": f"{match_id}:{seq}"},
    )


async def events_after(
    session: AsyncSession, match_id: str, after: int, limit: int | None = None
) -> list[MatchEvent]:
    stmt = (
        select(MatchEvent)
        .where(MatchEvent.match_id == match_id, MatchEvent.seq > after)
        .order_by(MatchEvent.seq)
    )
    if limit is not None:
        stmt = stmt.limit(limit)
    return list((await session.execute(stmt)).scalars())


async def idempotent_answer(
    session: AsyncSession, player_id: str, key: str
) -> IdempotentAnswer | None:
    return await session.get(IdempotentAnswer, (player_id, key))


async def matches_of_player(session: AsyncSession, player_id: str) -> list[str]:
    stmt = (
        select(Seat.match_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player_id == player_id, Match.status.not_in(OVER_STATUSES))
        .distinct()
    )
    return list((await session.execute(stmt)).scalars())


async def touch_seats(
    session: AsyncSession, match_id: str, seat_numbers: Sequence[int], now: datetime
) -> None:
    """Record an authenticated request about the match: the seats are at the table."""
    await session.execute(
        update(Seat)
        .where(Seat.match_id == match_id, Seat.seat.in_(list(seat_numbers)))
        .values(last_seen_at=now, away_since=None)
    )


async def count_events(session: AsyncSession, match_id: str) -> int:
    stmt = select(func.count()).select_from(MatchEvent).where(MatchEvent.match_id == match_id)
    return int((await session.execute(stmt)).scalar_one())
