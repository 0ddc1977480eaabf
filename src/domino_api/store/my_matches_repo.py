"""SQL about one player's matches: the ones it holds a seat at, newest first, a page at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, exists, literal, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.kinds import OVER, is_over
from domino_api.store.models import Match, Player, Seat


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    type: str
    strategy: str | None
    player_id: str | None
    name: str | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: str
    code: str | None
    status: str
    ruleset: str
    host_player_id: str | None
    tournament_id: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    seats: tuple[SeatRow, ...]


_COLUMNS = (
    Match.id,
    Match.code,
    Match.status,
    Match.ruleset,
    Match.host_player_id,
    Match.tournament_id,
    Match.created_at,
    Match.updated_at,
    Match.finished_at,
)


async def page(
    session: AsyncSession,
    player_id: str,
    after: tuple[datetime, str] | None,
    limit: int,
    live: bool | None,
) -> list[MatchRow]:
    """Up to `limit` matches the player holds a seat at, ordered by (created_at, id) descending,
    strictly after the keyset `after`; `live` keeps only live (True) or only over (False) ones.
    The seats table's player index finds them; the matches' primary key orders nothing, so the
    page is sorted on the few rows found."""
    held = exists().where(and_(Seat.match_id == Match.id, Seat.player_id == player_id))
    # Named columns: the snapshot (the whole engine state) is not read for a list.
    query = select(*_COLUMNS).where(held)
    if after is not None:
        query = query.where(
            tuple_(Match.created_at, Match.id) < tuple_(literal(after[0]), literal(after[1]))
        )
    if live is not None:
        over = Match.status.in_(OVER)
        query = query.where(~over if live else over)
    query = query.order_by(Match.created_at.desc(), Match.id.desc()).limit(limit)
    matches = list(await session.execute(query))
    seats = await seats_of(session, [m.id for m in matches])
    return [MatchRow(**m._mapping, seats=seats.get(m.id, ())) for m in matches]


async def seats_of(session: AsyncSession, ids: list[str]) -> dict[str, tuple[SeatRow, ...]]:
    if not ids:
        return {}
    query = (
        select(Seat, Player.name)
        .outerjoin(Player, Player.id == Seat.player_id)
        .where(Seat.match_id.in_(ids))
        .order_by(Seat.match_id, Seat.seat)
    )
    found: dict[str, list[SeatRow]] = {}
    for seat, profile_name in await session.execute(query):
        name = seat.name or profile_name
        row = SeatRow(seat.seat, seat.type, seat.strategy, seat.player_id, name)
        found.setdefault(seat.match_id, []).append(row)
    return {match_id: tuple(rows) for match_id, rows in found.items()}


def is_live(status: str) -> bool:
    return not is_over(status)
