"""Idempotency keys: a repeated request answers what the first one did (per player and match)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg

from domino_api import jsontext


async def idempotent_answer(
    connection: asyncpg.Connection, player_id: str, match_id: str, key: str
) -> tuple[int, dict[str, Any]] | None:
    """The stored answer to this player's key on this match (keys are scoped per match)."""
    row = await connection.fetchrow(
        "SELECT status_code, body FROM idempotency_keys "
        "WHERE player_id = $1 AND match_id = $2 AND key = $3",
        player_id,
        match_id,
        key,
    )
    if row is None:
        return None
    body = row["body"]
    return int(row["status_code"]), body if isinstance(body, dict) else jsontext.loads(body)


async def store_answer(
    connection: asyncpg.Connection,
    player_id: str,
    match_id: str,
    key: str,
    body: dict[str, Any],
    now: datetime,
) -> None:
    """In the step's transaction: a retry of the same key finds this answer, never a 500."""
    await connection.execute(
        "INSERT INTO idempotency_keys (player_id, match_id, key, status_code, body, created_at) "
        "VALUES ($1, $2, $3, 200, $4, $5) ON CONFLICT DO NOTHING",
        player_id,
        match_id,
        key,
        jsontext.dumps(body),
        now,
    )
