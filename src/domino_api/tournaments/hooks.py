"""What a match tells its tournament: check-in expiry and results (filled in by tournaments)."""

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
