"""Read-only queries about matches on the ORM session: events by seq, live game numbers, a
player's live matches, what is due. Every write is in store/matches_repo.py."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import OVER_STATUSES, Match, MatchEvent, Seat


async def get(session: AsyncSession, match_id: str) -> Match | None:
    return await session.get(Match, match_id)


async def live_id_by_code(session: AsyncSession, code: str) -> str | None:
    stmt = select(Match.id).where(Match.code == code, Match.status.not_in(OVER_STATUSES))
    return (await session.execute(stmt)).scalar_one_or_none()


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


async def matches_of_player(session: AsyncSession, player_id: str) -> list[str]:
    stmt = (
        select(Seat.match_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player_id == player_id, Match.status.not_in(OVER_STATUSES))
        .distinct()
    )
    return list((await session.execute(stmt)).scalars())


async def due_ids(session: AsyncSession, now: datetime, limit: int | None) -> list[str]:
    stmt = select(Match.id).where(Match.due_at <= now).order_by(Match.due_at)
    if limit is not None:
        stmt = stmt.limit(limit)
    return list((await session.execute(stmt)).scalars())
