"""SQL about tournaments: their rows, entrants, matches and the events feed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, exists, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from domino_api.engine.kinds import OVER
from domino_api.store.json_types import JSONObject
from domino_api.store.models import (
    Match,
    Seat,
    Tournament,
    TournamentEntrant,
    TournamentEvent,
    TournamentMatch,
)


async def get(session: AsyncSession, tournament_id: str) -> Tournament | None:
    return await session.get(Tournament, tournament_id)


async def lock(session: AsyncSession, tournament_id: str) -> Tournament | None:
    result = await session.execute(
        select(Tournament)
        .where(Tournament.id == tournament_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return result.scalar_one_or_none()


async def entrants(session: AsyncSession, tournament_id: str) -> list[TournamentEntrant]:
    """Every entrant in entry order."""
    result = await session.execute(
        select(TournamentEntrant)
        .where(TournamentEntrant.tournament_id == tournament_id)
        .order_by(TournamentEntrant.entry_no)
    )
    return list(result.scalars())


async def entrant(
    session: AsyncSession, tournament_id: str, player_id: str
) -> TournamentEntrant | None:
    return await session.get(TournamentEntrant, (tournament_id, player_id))


async def next_entry_no(session: AsyncSession, tournament_id: str) -> int:
    result = await session.execute(
        select(func.coalesce(func.max(TournamentEntrant.entry_no), 0)).where(
            TournamentEntrant.tournament_id == tournament_id
        )
    )
    return int(result.scalar_one()) + 1


async def remove_entrant(session: AsyncSession, tournament_id: str, player_id: str) -> None:
    await session.execute(
        delete(TournamentEntrant).where(
            TournamentEntrant.tournament_id == tournament_id,
            TournamentEntrant.player_id == player_id,
        )
    )


async def matches(session: AsyncSession, tournament_id: str) -> list[TournamentMatch]:
    result = await session.execute(
        select(TournamentMatch)
        .where(TournamentMatch.tournament_id == tournament_id)
        .order_by(TournamentMatch.round, TournamentMatch.index)
        .execution_options(populate_existing=True)
    )
    return list(result.scalars())


async def by_match(session: AsyncSession, match_id: str) -> TournamentMatch | None:
    result = await session.execute(
        select(TournamentMatch)
        .where(TournamentMatch.match_id == match_id)
        .execution_options(populate_existing=True)
    )
    return result.scalar_one_or_none()


@dataclass(frozen=True)
class MatchProgress:
    """A tournament match as its table stands: status, and each player's score and hands won."""

    status: str
    scores: dict[str, int]
    hands_won: dict[str, int]


async def match_progress(session: AsyncSession, tournament_id: str) -> dict[str, MatchProgress]:
    """Every match of the tournament by id; the scores come from the snapshot's public totals
    (never its secret or hands), keyed by the player holding each seat."""
    result = await session.execute(
        select(Match.id, Match.status, Match.snapshot["scores"], Match.snapshot["hands_won"]).where(
            Match.tournament_id == tournament_id
        )
    )
    matches = list(result)
    seats = await session.execute(
        select(Seat.match_id, Seat.seat, Seat.player_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Match.tournament_id == tournament_id, Seat.player_id.is_not(None))
    )
    holders: dict[str, dict[int, str]] = {}
    for match_id, seat, player_id in seats:
        holders.setdefault(match_id, {})[seat] = player_id
    progress = {}
    for match_id, status, scores, hands_won in matches:
        by_seat = holders.get(match_id, {})
        progress[match_id] = MatchProgress(
            status=status,
            scores={pid: int(scores[seat]) for seat, pid in by_seat.items()},
            hands_won={pid: int(hands_won[seat]) for seat, pid in by_seat.items()},
        )
    return progress


async def overdue_matches(session: AsyncSession, tournament_id: str, now: datetime) -> list[str]:
    """The tournament's matches with something due (check-in, turn clock, ...), oldest first."""
    result = await session.execute(
        select(Match.id)
        .where(
            Match.tournament_id == tournament_id,
            Match.status.not_in(OVER),
            Match.due_at.is_not(None),
            Match.due_at <= now,
        )
        .order_by(Match.created_at, Match.id)
    )
    return list(result.scalars())


async def add_event(
    session: AsyncSession, tournament_id: str, type_: str, at: datetime, data: JSONObject
) -> int:
    """Append one event; returns its seq (the tournament's last + 1).

    The caller holds the tournament row lock (``lock``) for the whole transaction, so no other
    transaction can append to this tournament until it ends: seqs are gap-free and race-free.
    """
    result = await session.execute(
        select(func.coalesce(func.max(TournamentEvent.seq), 0)).where(
            TournamentEvent.tournament_id == tournament_id
        )
    )
    seq = int(result.scalar_one()) + 1
    session.add(TournamentEvent(tournament_id=tournament_id, seq=seq, type=type_, at=at, data=data))
    await session.flush()
    return seq


async def events_after(
    session: AsyncSession, tournament_id: str, after: int, limit: int
) -> list[TournamentEvent]:
    result = await session.execute(
        select(TournamentEvent)
        .where(TournamentEvent.tournament_id == tournament_id, TournamentEvent.seq > after)
        .order_by(TournamentEvent.seq)
        .limit(limit)
    )
    return list(result.scalars())


async def may_watch(session: AsyncSession, tournament_id: str, player_id: str) -> bool:
    """The player hosts the tournament or entered it (its matches are theirs to watch)."""
    entrant = exists().where(
        TournamentEntrant.tournament_id == tournament_id,
        TournamentEntrant.player_id == player_id,
    )
    query = select(Tournament.id).where(
        Tournament.id == tournament_id, or_(Tournament.host_player_id == player_id, entrant)
    )
    return (await session.execute(query)).first() is not None


async def page(
    session: AsyncSession,
    after: tuple[datetime, str] | None,
    limit: int,
    status: str | None,
    player_id: str | None,
) -> list[tuple[Tournament, int]]:
    """Up to `limit` tournaments with their entrant counts, newest first (created_at, id),
    strictly after the keyset `after`; of one `status`, and those `player_id` hosts or entered."""
    # Entrants as `max_entrants` counts them: a pair's second entry (its partner entered
    # before, naming it) is the same entrant as the first.
    mate = aliased(TournamentEntrant)
    second_half = exists().where(
        mate.tournament_id == TournamentEntrant.tournament_id,
        mate.player_id == TournamentEntrant.partner_id,
        mate.partner_id == TournamentEntrant.player_id,
        mate.entry_no < TournamentEntrant.entry_no,
    )
    entrants = (
        select(func.count())
        .where(TournamentEntrant.tournament_id == Tournament.id, ~second_half)
        .scalar_subquery()
    )
    stmt = select(Tournament, entrants).order_by(Tournament.created_at.desc(), Tournament.id.desc())
    if after is not None:
        stmt = stmt.where(tuple_(Tournament.created_at, Tournament.id) < after)
    if status is not None:
        stmt = stmt.where(Tournament.status == status)
    if player_id is not None:
        entered = exists().where(
            TournamentEntrant.tournament_id == Tournament.id,
            TournamentEntrant.player_id == player_id,
        )
        stmt = stmt.where(or_(Tournament.host_player_id == player_id, entered))
    rows = await session.execute(stmt.limit(limit))
    return [(tournament, int(count)) for tournament, count in rows.all()]
