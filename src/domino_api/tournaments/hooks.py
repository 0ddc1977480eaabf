"""What a match tells its tournament: its result, in the transaction that ended it.

`END_HOOK` is handed to the write core (matches/ends.py) where every process that writes
matches is wired (domino_api/app/wiring.py: the app, the worker, the sweep command), so matches
never import tournaments.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock
from domino_api.engine.table import Table
from domino_api.engine.teams import team_of
from domino_api.matches import ends
from domino_api.store import tournaments_repo
from domino_api.store.models import Tournament, TournamentMatch
from domino_api.tournaments import event_types as ev
from domino_api.tournaments import pairs, service


def _is_tournament_match(table: Table) -> bool:
    return table.match.tournament_id is not None


async def record_result(within: ends.Within, table: Table) -> None:
    """A tournament match is over: store its result and move the tournament on (its next
    matches inserted in the same transaction, through the write driver)."""
    session, clock = within.session, within.clock
    row = await tournaments_repo.by_match(session, table.match.id)
    if row is None or row.reason is not None:
        return
    tournament = await tournaments_repo.lock(session, row.tournament_id)
    if tournament is None:
        return
    result = table.state.result
    seat_of = {seat.player_id: seat.seat for seat in table.seats}
    a, b = seat_of[row.player_a], seat_of[row.player_b]
    if result is not None:
        row.hands_a, row.hands_b = result.hands_won[a], result.hands_won[b]
        row.points_a, row.points_b = result.scores[a], result.scores[b]
    row.decided_at = clock.now()
    winner_seat = result.winner if result is not None else None
    left_last = pairs.left_last(table) if winner_seat is None else None
    if left_last is not None:
        winner_seat = left_last  # both pairs left: the pair that stayed longer wins by forfeit
    if winner_seat is None:
        # Nobody checked in (or the match ended without a result): cancel rather than invent
        # one (seed 004).
        row.reason = "no_show"
        await session.flush()
        await _match_decided(session, clock, tournament, row)
        if tournament.status == "running":
            await service.cancel(session, clock, tournament)
            await session.flush()
        return
    # The winning seat's team: in a pairs tournament either partner's win is its pair's
    # (the lead's entry, seated at 0 or 1); with two seats the team is the seat.
    row.winner = row.player_a if team_of(winner_seat) == team_of(a) else row.player_b
    assert result is not None
    row.reason = "forfeit" if result.reason == "forfeit" or left_last is not None else "played"
    await session.flush()
    await _match_decided(session, clock, tournament, row)
    if tournament.status == "running" and await service.round_complete(
        session, tournament, row.round
    ):
        await service.emit(session, clock, tournament, ev.RoundCompletedData(round=row.round))
    await service.progress(session, clock, tournament, within.insert)
    await session.flush()


async def _match_decided(
    session: AsyncSession, clock: Clock, tournament: Tournament, row: TournamentMatch
) -> None:
    data = ev.MatchDecidedData(
        round=row.round,
        index=row.index,
        match_id=row.match_id,
        winner=row.winner,
        reason=row.reason,
    )
    await service.emit(session, clock, tournament, data)


END_HOOK = ends.EndHook(record_result, applies=_is_tournament_match)
