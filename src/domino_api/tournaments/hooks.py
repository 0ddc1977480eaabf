"""What a match tells its tournament: check-in expiry and results."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock


async def check_in_expired(session: AsyncSession, clock: Clock, table: Any) -> list[dict[str, Any]]:
    """Seed 004: one ready player advances by forfeit; none ready cancels the tournament."""
    from domino_api.matches import service

    ready = [row.seat for row in table.seats if row.ready]
    table.match.check_in_deadline = None
    if len(ready) == 1:
        return await service.forfeit_before_start(session, clock, table, 1 - ready[0])
    return await service.abandon(session, clock, table, "cancelled")


async def on_match_over(session: AsyncSession, clock: Clock, table: Any) -> None:
    """Called by the write path (matches/table.persist) when a tournament match is newly over:
    record the result, advance the bracket or round, open newly ready matches at once."""
    if table.match.tournament_id is None:
        return
    from domino_api.tournaments import service

    await service.record_result(session, clock, table)
