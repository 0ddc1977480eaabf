"""SQL of a player's public profile (players/profile.py): who they are, their finished
matches with each seat's final score, and their wins and losses by preset and opponent kind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import Finish, Match, Seat
from domino_api.store.my_matches_repo import SeatRow, seats_of

SHOWN = ("finished", "abandoned")  # over after being played: a cancelled table never was


@dataclass(frozen=True, slots=True)
class EndedRow:
    """A finished or abandoned match: its final scores (JSON text, from the snapshot) and its
    winner's seat (None: nobody won)."""

    id: str
    ruleset: str
    status: str
    rated: bool
    finished_at: datetime | None
    scores: str
    winner: str | None
    seats: tuple[SeatRow, ...]


async def ended(session: AsyncSession, player_id: str, limit: int) -> list[EndedRow]:
    """The player's last `limit` finished or abandoned matches, newest first. Only the
    snapshot's scores and winner are read from it: never a hand, never the game number."""
    held = exists().where(and_(Seat.match_id == Match.id, Seat.player_id == player_id))
    query = (
        select(
            Match.id,
            Match.ruleset,
            Match.status,
            Match.rated,
            Match.finished_at,
            Match.snapshot["scores"].as_string().label("scores"),
            Match.snapshot[("result", "winner")].as_string().label("winner"),
        )
        .where(held, Match.status.in_(SHOWN))
        .order_by(Match.finished_at.desc().nulls_last(), Match.id.desc())
        .limit(limit)
    )
    rows = list(await session.execute(query))
    seats = await seats_of(session, [row.id for row in rows])
    return [EndedRow(**row._mapping, seats=seats.get(row.id, ())) for row in rows]


@dataclass(frozen=True, slots=True)
class TallyRow:
    ruleset: str
    opponent: str
    wins: int
    losses: int


async def tally(session: AsyncSession, player_id: str) -> list[TallyRow]:
    """Wins and losses by preset and opponent kind, of the finishes the records count
    (players/records.py: played to the end with a winner, no hot-seat)."""
    wins = func.count().filter(Finish.won)
    losses = func.count().filter(~Finish.won)
    query = (
        select(Finish.ruleset, Finish.opponent, wins, losses)
        .where(Finish.player_id == player_id)
        .group_by(Finish.ruleset, Finish.opponent)
        .order_by(Finish.ruleset, Finish.opponent)
    )
    return [TallyRow(*row) for row in await session.execute(query)]
