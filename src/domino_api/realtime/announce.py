"""Announcements: after a step commits, "match M reached seq S" goes to every API process.

An announcement is only a hint to go and read the event table by seq (docs/ARCHITECTURE.md,
"Fan-out"); it is sent after the commit and outside any transaction, because a NOTIFY inside a
transaction holds PostgreSQL's database-wide notify lock until that commit is flushed.

The write core calls `Announcer.announce` once per committed step. Backends: PostgreSQL
LISTEN/NOTIFY (the default) and NATS (subjects per match).
"""

from __future__ import annotations

import logging
from typing import Protocol

import asyncpg

from domino_api.config import Settings

log = logging.getLogger(__name__)

CHANNEL = "domino_events"


def payload(match_id: str, seq: int) -> str:
    return f"{match_id}:{seq}"


class Announcer(Protocol):
    async def start(self) -> None:
        """Connect (a backend that needs a connection of its own)."""

    async def close(self) -> None: ...

    async def announce(self, match_id: str, seq: int) -> None:
        """Tell every process that `match_id` reached `seq`; never raises (a lost
        announcement is repaired by the next one and by the periodic catch-up)."""


class PgAnnouncer:
    """NOTIFY on a pooled connection, each in its own implicit transaction."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def announce(self, match_id: str, seq: int) -> None:
        try:
            await self._pool.execute("SELECT pg_notify($1, $2)", CHANNEL, payload(match_id, seq))
        except Exception as exc:  # the event table is the truth; see the module docstring
            log.warning("announcement of %s:%s lost (%s)", match_id, seq, exc)


def make_announcer(settings: Settings, pool: asyncpg.Pool) -> Announcer:
    """The configured backend; the caller awaits `start()` before the first announcement and
    `close()` at shutdown. `pool` is a pool of the match database (asyncpg)."""
    return PgAnnouncer(pool)
