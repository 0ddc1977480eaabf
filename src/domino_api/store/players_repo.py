"""SQL about players."""

from __future__ import annotations

from datetime import datetime, timedelta

import asyncpg
from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.account_models import PlayerToken
from domino_api.store.models import Player

# A token's `last_used_at` moves in steps of this: a lookup writes at most once a minute.
LAST_USED_STEP = timedelta(minutes=1)


async def by_token_hash(session: AsyncSession, token_hash: str, now: datetime) -> Player | None:
    """The player a bearer token (a session or an API key) belongs to; marks the token used."""
    result = await session.execute(
        select(Player, PlayerToken.id, PlayerToken.last_used_at)
        .join(PlayerToken, PlayerToken.player_id == Player.id)
        .where(PlayerToken.token_hash == token_hash)
    )
    row = result.one_or_none()
    if row is None:
        return None
    player: Player = row[0]
    token_id, last_used = row[1], row[2]
    if last_used is None or now - last_used >= LAST_USED_STEP:
        await session.execute(
            update(PlayerToken).where(PlayerToken.id == token_id).values(last_used_at=now)
        )
    return player


async def existing_tokens(connection: asyncpg.Connection, token_hashes: list[str]) -> set[str]:
    """Which of `token_hashes` are still tokens (neither signed out nor revoked): one prepared
    statement over an array, whatever their number (a process's catch-up asks for all its
    sockets' thousands: an `IN` list was a new statement text, built and parsed, per count)."""
    rows = await connection.fetch(EXISTING_TOKENS, token_hashes)
    return {row[0] for row in rows}


EXISTING_TOKENS = "SELECT token_hash FROM player_tokens WHERE token_hash = ANY($1::text[])"


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
