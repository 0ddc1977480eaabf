"""Migration 0015 (accounts): each player's one token becomes its "First device" session, so
every token given before it still opens its player, and the downgrade gives it back."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime

import asyncpg
from alembic import command

from domino_api.store.db import to_asyncpg_url, to_plain_url
from domino_api.store.migrate import alembic_config, upgrade_to_head
from tests.conftest import TEST_DB
from tests.support.servers import create_database, drop_database

TOKEN_HASH = hashlib.sha256(b"a token from before accounts").hexdigest()
PLAYER = "00000000-0000-4000-8000-000000000015"


async def test_a_token_from_before_accounts_becomes_a_session_and_back() -> None:
    name = f"{TEST_DB}_accounts"
    url = to_asyncpg_url(await create_database(name))
    try:
        await asyncio.to_thread(command.upgrade, alembic_config(url), "0014")
        conn = await asyncpg.connect(to_plain_url(url))
        try:
            await conn.execute(
                "INSERT INTO players (id, name, token_hash, tile_back, plan, settings, created_at)"
                " VALUES ($1, 'Old', $2, 'moon', 'free', '{}', $3)",
                PLAYER,
                TOKEN_HASH,
                datetime(2026, 1, 1, tzinfo=UTC),
            )
            await asyncio.to_thread(upgrade_to_head, url)
            rows = await conn.fetch("SELECT player_id, kind, name, token_hash FROM player_tokens")
            assert [tuple(row) for row in rows] == [(PLAYER, "session", "First device", TOKEN_HASH)]
            columns = await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'players'"
            )
            assert "token_hash" not in {row["column_name"] for row in columns}
            await asyncio.to_thread(command.downgrade, alembic_config(url), "0014")
            back = await conn.fetchval("SELECT token_hash FROM players WHERE id = $1", PLAYER)
            assert back == TOKEN_HASH
        finally:
            await conn.close()
    finally:
        await drop_database(name)
