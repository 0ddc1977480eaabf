"""SQL about whose turn it is: the live matches where a player's own seat is to move."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg


@dataclass(frozen=True, slots=True)
class TurnRow:
    match_id: str
    ruleset: str
    seat: int
    deadline: datetime | None
    per_move_s: int | None
    updated_at: datetime


async def your_turns(connection: asyncpg.Connection, player_id: str, limit: int) -> list[TurnRow]:
    """The player's seats on turn at matches in play (not on autopilot, not forfeited), the
    nearest deadline first. The seat on turn is the snapshot's (`hand.turn`): read for the
    player's few matches in play, found by the seats' player index."""
    rows = await connection.fetch(
        "SELECT m.id, m.ruleset, s.seat, m.turn_deadline, m.per_move_s, m.updated_at"
        " FROM seats s JOIN matches m ON m.id = s.match_id"
        " WHERE s.player_id = $1 AND s.type = 'human' AND NOT s.autopilot AND NOT s.forfeited"
        " AND m.status = 'playing'"
        " AND (m.snapshot -> 'hand' ->> 'turn')::int = s.seat"
        " ORDER BY m.turn_deadline NULLS LAST, m.updated_at DESC LIMIT $2",
        player_id,
        limit,
    )
    return [TurnRow(*r) for r in rows]
