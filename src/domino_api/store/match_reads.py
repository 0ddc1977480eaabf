"""Read-only queries about matches on the ORM session: events by seq, live game numbers, a
player's live matches, what is due, stored seqs, counts by status. Every write is in
store/matches_repo.py."""

from __future__ import annotations

from datetime import datetime

import asyncpg
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.kinds import OVER
from domino_api.store.models import Match, MatchEvent, Seat


async def get(session: AsyncSession, match_id: str) -> Match | None:
    return await session.get(Match, match_id)


async def live_by_code(session: AsyncSession, code: str, player_id: str) -> tuple[str | None, bool]:
    """The live match holding this game number, and whether the player holds a seat there."""
    seated = (
        select(Seat.seat).where(Seat.match_id == Match.id, Seat.player_id == player_id).exists()
    )
    stmt = select(Match.id, seated).where(Match.code == code, Match.status.not_in(OVER))
    row = (await session.execute(stmt)).first()
    return (None, False) if row is None else (str(row[0]), bool(row[1]))


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
        .where(Seat.player_id == player_id, Match.status.not_in(OVER))
        .distinct()
    )
    return list((await session.execute(stmt)).scalars())


async def due_ids(session: AsyncSession, now: datetime, limit: int | None) -> list[str]:
    stmt = select(Match.id).where(Match.due_at <= now).order_by(Match.due_at)
    if limit is not None:
        stmt = stmt.limit(limit)
    return list((await session.execute(stmt)).scalars())


async def stored_seqs(connection: asyncpg.Connection, match_ids: list[str]) -> dict[str, int]:
    """Each match's stored seq (the catch-up compares them with its sockets' cursors): one
    prepared statement over an array, whatever the number of matches."""
    rows = await connection.fetch(STORED_SEQS, match_ids)
    return {row[0]: row[1] for row in rows}


STORED_SEQS = "SELECT id, seq FROM matches WHERE id = ANY($1::text[])"


async def count_by_status(session: AsyncSession) -> dict[str, int]:
    """Matches by status, for a scrape: rides the index on matches.status, and gives up after
    2 s rather than hold a scrape (and a connection) on a loaded database."""
    await session.execute(text("SET LOCAL statement_timeout = 2000"))
    rows = await session.execute(select(Match.status, func.count()).group_by(Match.status))
    return {str(status): int(count) for status, count in rows.all()}
