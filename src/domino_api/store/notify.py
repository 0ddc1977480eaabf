"""The SQL of the `postgres` announcement backend: a batch's NOTIFY and the LISTEN keepalive."""

from __future__ import annotations

from typing import Protocol

import asyncpg

# The channels of the `postgres` backend: every match's announcements, tournaments' feeds,
# and revocations.
CHANNEL = "domino_events"
TOURNAMENT_CHANNEL = "domino_tournaments"
# Revoked credentials (a token's hash): every process closes the sockets opened with it.
REVOKED_CHANNEL = "domino_revoked"
LOBBY_CHANNEL = "domino_lobby"
# One statement for a whole batch, each payload on its own channel (matches and tournaments
# share a batch), in its own implicit transaction: never inside a step's (docs/ARCHITECTURE.md).
NOTIFY_BATCH = "SELECT pg_notify(c, x) FROM unnest($1::text[], $2::text[]) AS t(c, x)"


class Executes(Protocol):
    """The process's `store.db.Pool`, or an asyncpg pool (tests announce through one)."""

    async def execute(self, query: str, *args: object) -> str: ...


async def notify_batch(pool: Executes, channels: list[str], payloads: list[str]) -> None:
    """NOTIFY `payloads[i]` on `channels[i]`, in order, in one statement on a pool connection."""
    await pool.execute(NOTIFY_BATCH, channels, payloads)


async def ping(connection: asyncpg.Connection) -> None:
    """A cheap round trip that notices a dead peer of a LISTEN connection."""
    await connection.execute("SELECT 1")
