"""The counts behind the caps on open tables (matches/hosting.py), each under its advisory lock."""

from __future__ import annotations

import asyncpg

from domino_api.store.models import NUMBERED

_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 16))"
_WAITING = "SELECT count(*) FROM matches WHERE host_player_id = $1 AND status = 'waiting'"
# Each count reads its partial index (store/models.py).
_BY_HOST = f"SELECT count(*) FROM matches WHERE host_player_id = $1 AND {NUMBERED}"
_BY_ADDRESS = f"SELECT count(*) FROM matches WHERE host_address = $1 AND {NUMBERED}"
# A network's tables: an IPv4 /24's addresses share the prefix "a.b.c." (ratelimit.network_key).
_BY_NETWORK = f"SELECT count(*) FROM matches WHERE host_address LIKE $1 AND {NUMBERED}"
_OWNERS = "SELECT host_player_id, host_address FROM matches WHERE id = $1"


async def lock(connection: asyncpg.Connection, key: str) -> None:
    """Hold `key` until the transaction ends: two creations for one key count one at a time."""
    await connection.execute(_LOCK, key)


async def waiting(connection: asyncpg.Connection, player_id: str) -> int:
    return int(await connection.fetchval(_WAITING, player_id) or 0)


async def numbered_by_host(connection: asyncpg.Connection, player_id: str) -> int:
    return int(await connection.fetchval(_BY_HOST, player_id) or 0)


async def numbered_by_address(connection: asyncpg.Connection, address: str) -> int:
    return int(await connection.fetchval(_BY_ADDRESS, address) or 0)


async def numbered_by_network(connection: asyncpg.Connection, pattern: str) -> int:
    """The live numbered tables whose creating address matches `pattern` (a LIKE pattern)."""
    return int(await connection.fetchval(_BY_NETWORK, pattern) or 0)


async def owners(
    connection: asyncpg.Connection, match_id: str
) -> tuple[str | None, str | None] | None:
    """The host and creating address of a match (None: no such match)."""
    row = await connection.fetchrow(_OWNERS, match_id)
    return None if row is None else (row[0], row[1])
