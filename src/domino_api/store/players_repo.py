"""SQL about players."""

from __future__ import annotations

from datetime import datetime, timedelta

import asyncpg
from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from domino_api import jsontext
from domino_api.store.models import Player

# A token's `last_used_at` moves in steps of this: a lookup writes at most once a minute.
LAST_USED_STEP = timedelta(minutes=1)


async def by_token_hash(
    connection: asyncpg.Connection, token_hash: str, now: datetime
) -> Player | None:
    """The player a bearer token (a session or an API key) belongs to; marks the token used.

    A cache miss of every request and socket open asks this (web/deps.py): one prepared
    statement on a pooled connection, no session nor transaction (through the ORM a spectator's
    open cost 2.6-3.2 ms of CPU, now 1.1-1.4: bench/README.md, "Socket opens"). The player
    comes back detached, as a closed session leaves what it loaded."""
    row = await connection.fetchrow(BY_TOKEN_HASH, token_hash)
    if row is None:
        return None
    player = Player(id=row[0], name=row[1], tile_back=row[2], plan=row[3], created_at=row[5])
    settings = jsontext.loads(row[4]) if row[4] is not None else {}
    player.settings = settings if isinstance(settings, dict) else {}
    make_transient_to_detached(player)
    last_used = row[7]
    if last_used is None or now - last_used >= LAST_USED_STEP:
        await connection.execute(TOUCH_TOKEN, row[6], now)
    return player


BY_TOKEN_HASH = (
    "SELECT p.id, p.name, p.tile_back, p.plan, p.settings::text, p.created_at, t.id, "
    "t.last_used_at FROM player_tokens t JOIN players p ON p.id = t.player_id "
    "WHERE t.token_hash = $1"
)
TOUCH_TOKEN = "UPDATE player_tokens SET last_used_at = $2 WHERE id = $1"


async def gone_tokens(connection: asyncpg.Connection, token_hashes: list[str]) -> set[str]:
    """Which of `token_hashes` are no longer tokens (signed out or revoked): one prepared
    statement over an array, whatever their number (a process's catch-up asks for all its
    sockets' thousands: an `IN` list was a new statement text, built and parsed, per count).
    Only the gone come back, most often none: 20,000 held tokens cost the asker 8 ms, where
    reading back those that remain cost 21 ms (bench/SOCKETS.md)."""
    rows = await connection.fetch(GONE_TOKENS, token_hashes)
    return {row[0] for row in rows}


GONE_TOKENS = (
    "SELECT h FROM unnest($1::text[]) AS h "
    "WHERE NOT EXISTS (SELECT 1 FROM player_tokens t WHERE t.token_hash = h)"
)


async def by_id(session: AsyncSession, player_id: str) -> Player | None:
    return await session.get(Player, player_id)


async def by_ids(session: AsyncSession, ids: list[str]) -> dict[str, Player]:
    if not ids:
        return {}
    result = await session.execute(select(Player).where(Player.id.in_(ids)))
    return {player.id: player for player in result.scalars()}


def add(session: AsyncSession, player: Player) -> None:
    session.add(player)


async def plan_of(session: AsyncSession, player_id: str) -> str | None:
    result = await session.execute(select(Player.plan).where(Player.id == player_id))
    return result.scalar_one_or_none()


async def names(session: AsyncSession, player_ids: list[str]) -> dict[str, str]:
    if not player_ids:
        return {}
    result = await session.execute(select(Player.id, Player.name).where(Player.id.in_(player_ids)))
    return {row[0]: row[1] for row in result}


async def set_plan(session: AsyncSession, player_id: str, plan: str) -> bool:
    """Set a player's plan (operators only); False when there is no such player."""
    result = await session.execute(update(Player).where(Player.id == player_id).values(plan=plan))
    assert isinstance(result, CursorResult)  # a DML statement's result
    return bool(result.rowcount)
