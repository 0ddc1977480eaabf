"""SQL about the live tables a player may watch: started, not over, and open to spectators or in
a tournament the player hosts or entered; best rated first."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import Match, Rating, Seat, Tournament, TournamentEntrant
from domino_api.store.my_matches_repo import SeatRow, seats_of

# Dealt and not over: a table still waiting for players shows nothing to watch yet.
IN_PLAY = ("playing", "hand_over")


@dataclass(frozen=True, slots=True)
class WatchRow:
    id: str
    ruleset: str
    status: str
    tournament_id: str | None
    seats: tuple[SeatRow, ...]
    ratings: dict[str, float]  # player id: its rating (OpenSkill's mean) at the match's preset


async def watchable(session: AsyncSession, player_id: str, limit: int) -> list[WatchRow]:
    """Up to `limit` tables in play the player may watch, best rated first (the highest seated
    rating minus three deviations, the leaderboard's order; unrated tables last), then the most
    recently started."""
    best = (
        select(func.max(Rating.ordinal))
        .join(Seat, Seat.player_id == Rating.player_id)
        .where(Seat.match_id == Match.id, Rating.preset == Match.ruleset)
        .scalar_subquery()
    )
    hosted = select(Tournament.id).where(Tournament.host_player_id == player_id)
    entered = select(TournamentEntrant.tournament_id).where(
        TournamentEntrant.player_id == player_id
    )
    query = (
        select(Match.id, Match.ruleset, Match.status, Match.tournament_id)
        .where(Match.status.in_(IN_PLAY))
        .where(
            or_(
                Match.spectators,
                Match.tournament_id.in_(hosted),
                Match.tournament_id.in_(entered),
            )
        )
        .order_by(best.desc().nulls_last(), Match.started_at.desc().nulls_last(), Match.id)
        .limit(limit)
    )
    matches = list(await session.execute(query))
    seats = await seats_of(session, [m.id for m in matches])
    ratings = await _ratings(session, [s for m in matches for s in seats.get(m.id, ())])
    return [
        WatchRow(
            id=m.id,
            ruleset=m.ruleset,
            status=m.status,
            tournament_id=m.tournament_id,
            seats=seats.get(m.id, ()),
            ratings=ratings.get(m.ruleset, {}),
        )
        for m in matches
    ]


async def _ratings(session: AsyncSession, seats: list[SeatRow]) -> dict[str, dict[str, float]]:
    """Every rating the seated players hold, by preset then player."""
    ids = sorted({seat.player_id for seat in seats if seat.player_id})
    if not ids:
        return {}
    query = select(Rating.preset, Rating.player_id, Rating.mu).where(Rating.player_id.in_(ids))
    found: dict[str, dict[str, float]] = {}
    for preset, player, mu in await session.execute(query):
        found.setdefault(preset, {})[player] = mu
    return found
