"""A token's lookup on an auth-cache miss (store/players_repo.py `by_token_hash`): one prepared
statement, no ORM session; the player it builds carries every column as stored, and the token's
`last_used_at` moves at most once a minute."""

from __future__ import annotations

import json
from datetime import timedelta

import httpx
from fastapi import FastAPI

from domino_api.clock import FakeClock
from domino_api.store import players_repo
from domino_api.web.tokens import hash_token
from tests.api.helpers import new_player

LAST_USED = "SELECT last_used_at FROM player_tokens WHERE token_hash = $1"


async def test_the_player_read_by_its_token_is_the_stored_one(
    app: FastAPI, client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana = await new_player(client, "Ana")
    patch = {"tile_back": "apollo-8", "settings": {"target": 150}}
    patched = await client.patch("/v1/players/me", json=patch, headers=ana["headers"])
    assert patched.status_code == 200, patched.text
    pool = app.state.core.pool
    async with pool.acquire() as connection:
        player = await players_repo.by_token_hash(connection, hash_token(ana["token"]), clock.now())
        stored = await connection.fetchrow(
            "SELECT id, name, tile_back, plan, settings::text, created_at FROM players"
            " WHERE id = $1",
            ana["id"],
        )
        unknown = await players_repo.by_token_hash(connection, "0" * 64, clock.now())
    assert player is not None and unknown is None
    assert (player.id, player.name, player.tile_back, player.plan) == tuple(stored[:4])
    assert player.created_at == stored[5] and player.settings == json.loads(stored[4])
    assert player.tile_back == "apollo-8" and player.settings["target"] == 150


async def test_a_lookup_marks_the_token_used_at_most_once_a_minute(
    app: FastAPI, client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana = await new_player(client, "Ana")
    token_hash = hash_token(ana["token"])
    async with app.state.core.pool.acquire() as connection:
        await connection.execute(
            "UPDATE player_tokens SET last_used_at = NULL WHERE token_hash = $1", token_hash
        )
        first = clock.now()
        await players_repo.by_token_hash(connection, token_hash, first)
        assert await connection.fetchval(LAST_USED, token_hash) == first
        await players_repo.by_token_hash(connection, token_hash, first + timedelta(seconds=59))
        assert await connection.fetchval(LAST_USED, token_hash) == first
        later = first + timedelta(seconds=60)
        await players_repo.by_token_hash(connection, token_hash, later)
        assert await connection.fetchval(LAST_USED, token_hash) == later
