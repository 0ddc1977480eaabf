"""Timeouts first (RULES 10): whatever is due for a match is applied before anything else.

The same function serves every request that opens a match and the recovery job, so the
result is the same whichever comes first.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.clock import Clock
from domino_api.matches.table import Table, apply, seat_present_until

if TYPE_CHECKING:
    pass

ABANDON_AFTER = timedelta(hours=24)


def is_due(table: Table, now: datetime) -> bool:
    """The cheap check: compare the stored due moment with now, no lock needed."""
    due = table.match.due_at
    return due is not None and due <= now


def away_forfeiter(table: Table, now: datetime) -> tuple[int | None, bool]:
    """Which human seat has been away past the limit: (seat, tie). The first to leave forfeits."""
    limit = table.state.ruleset.away_forfeit_s
    if not limit or table.match.solo or table.state.status not in ("playing", "hand_over"):
        return None, False
    overdue: list[tuple[datetime, int]] = []
    for seat in table.humans_in_play():
        row = table.seats[seat]
        if row.connected_until is not None and row.connected_until > now:
            continue
        present = seat_present_until(row, table.match)
        if present is not None and now - present >= timedelta(seconds=limit):
            overdue.append((present, seat))
    if not overdue:
        return None, False
    overdue.sort()
    tie = len(overdue) > 1 and overdue[0][0] == overdue[1][0]
    return overdue[0][1], tie


async def enforce(session: AsyncSession, clock: Clock, table: Table) -> list[dict[str, Any]]:
    """Apply every due timeout to a locked table; returns the stored event rows."""
    from domino_api.matches import service  # late: service imports this module

    now = clock.now()
    if not is_due(table, now) or table.over:
        return []
    match, state = table.match, table.state
    rows: list[dict[str, Any]] = []
    if state.status == "waiting":
        if match.check_in_deadline is not None and match.check_in_deadline <= now:
            from domino_api.tournaments.hooks import check_in_expired

            return await check_in_expired(session, clock, table)
        if match.tournament_id is None and now - match.created_at >= ABANDON_AFTER:
            return await service.abandon(session, clock, table, "abandoned")
        return rows
    if match.turn_deadline is not None and match.turn_deadline <= now and state.turn is not None:
        return await service.forfeit(session, clock, table, state.turn, "clock")
    seat, tie = away_forfeiter(table, now)
    if seat is not None:
        if tie:
            return await service.abandon(session, clock, table, "abandoned")
        return await service.forfeit(session, clock, table, seat, "away")
    if match.next_hand_at is not None and match.next_hand_at <= now:
        return await apply(session, clock, table, None, engine.NextHand())
    if _nobody_connected_for(table, now, ABANDON_AFTER):
        return await service.abandon(session, clock, table, "abandoned")
    return rows


def _nobody_connected_for(table: Table, now: datetime, span: timedelta) -> bool:
    humans = [table.seats[s] for s in table.humans_in_play()]
    if not humans:
        return False
    marks = [seat_present_until(row, table.match) for row in humans]
    return all(m is not None and now - m >= span for m in marks)


async def start_if_checked_in(session: AsyncSession, clock: Clock, table: Table) -> None:
    """A tournament match starts by itself (server-picked cut) once both seats are ready."""
    import secrets

    if table.match.tournament_id is None or table.state.status != "waiting":
        return
    if all(row.ready for row in table.seats):
        cut = secrets.token_hex(8)
        table.match.cut = cut
        table.match.check_in_deadline = None
        await apply(session, clock, table, None, engine.Start(cut))
