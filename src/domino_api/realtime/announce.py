"""Announcements: after a step commits, "match M reached seq S" goes to every API process.

An announcement is only a hint to go and read the event table by seq (docs/ARCHITECTURE.md,
"Fan-out"); it is sent after the commit and outside any transaction, because a NOTIFY inside a
transaction holds PostgreSQL's database-wide notify lock until that commit is flushed.

The write core calls `Announcer.announce` once per committed step. Backends, chosen by
`Settings.announce_backend`: PostgreSQL LISTEN/NOTIFY on channel `CHANNEL` (the default) and
NATS core subjects, one per match (`subject(match_id)`), at `Settings.nats_url`. The receiving
side of each is in `realtime/listener.py`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Protocol

import asyncpg
import nats
from nats.aio.client import Client as Nats

from domino_api.config import Settings

log = logging.getLogger(__name__)

CHANNEL = "domino_events"
SUBJECT_PREFIX = "domino.match."
# Test-only fault (tests/realtime/test_lost_announcement.py): while the file this names exists,
# the process SIGKILLs itself after a step's commit and before its announcement. No setting can
# put a real crash at that exact point, and the repair of exactly that loss is what is tested.
FAULT_ENV = "DOMINO_FAULT_KILL_BEFORE_ANNOUNCE"


def payload(match_id: str, seq: int) -> str:
    return f"{match_id}:{seq}"


def subject(match_id: str) -> str:
    """The NATS subject of one match: a process subscribes to the matches it has sockets for."""
    return SUBJECT_PREFIX + match_id


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


class NatsAnnouncer:
    """Publishes on the match's core subject. Core NATS, not JetStream: an announcement that
    finds no subscriber is worthless (nobody watches that match here), and one lost in a
    disconnect is repaired from the event table, so storing announcements would buy nothing."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._nc: Nats | None = None

    async def start(self) -> None:
        if self._nc is None:
            self._nc = await connect(self._url, "domino-announcer")

    async def close(self) -> None:
        if self._nc is not None:
            nc, self._nc = self._nc, None
            await close_quietly(nc)

    async def announce(self, match_id: str, seq: int) -> None:
        try:
            if self._nc is None:
                raise ConnectionError("not started")
            # Buffered while reconnecting (nats-py's pending buffer), sent by its flusher.
            await self._nc.publish(subject(match_id), payload(match_id, seq).encode())
        except Exception as exc:  # the event table is the truth; see the module docstring
            log.warning("announcement of %s:%s lost (%s)", match_id, seq, exc)


class KillBeforeAnnounce:
    """The test-only fault of `FAULT_ENV` around a real announcer."""

    def __init__(self, inner: Announcer, armed_path: str) -> None:
        self._inner = inner
        self._armed_path = armed_path

    async def start(self) -> None:
        await self._inner.start()

    async def close(self) -> None:
        await self._inner.close()

    async def announce(self, match_id: str, seq: int) -> None:
        if os.path.exists(self._armed_path):
            log.warning("fault: killed after the commit of %s:%s, before announcing", match_id, seq)
            os.kill(os.getpid(), signal.SIGKILL)
        await self._inner.announce(match_id, seq)


async def connect(url: str, name: str, timeout: float = 10.0, **callbacks: object) -> Nats:
    """A NATS connection that reconnects for ever once made (a process outlives a NATS
    restart); the first connection must succeed within `timeout`, else ConnectionError (a
    process configured for NATS does not start without it)."""

    async def on_error(exc: Exception) -> None:
        log.warning("NATS (%s): %s", name, exc)

    options: dict[str, object] = {"error_cb": on_error, **callbacks}
    first = nats.connect(
        url, name=name, max_reconnect_attempts=-1, reconnect_time_wait=0.5, **options
    )
    try:
        return await asyncio.wait_for(first, timeout)
    except TimeoutError as exc:
        raise ConnectionError(f"NATS at {url} did not answer within {timeout:g} s") from exc


async def close_quietly(nc: Nats) -> None:
    try:
        await nc.drain()
    except Exception:
        await nc.close()


def make_announcer(settings: Settings, pool: asyncpg.Pool) -> Announcer:
    """The configured backend; the caller awaits `start()` before the first announcement and
    `close()` at shutdown. `pool` is a pool of the match database (asyncpg)."""
    announcer: Announcer
    if settings.announce_backend == "nats":
        announcer = NatsAnnouncer(settings.nats_url)
    else:
        announcer = PgAnnouncer(pool)
    armed_path = os.environ.get(FAULT_ENV)
    if armed_path:
        announcer = KillBeforeAnnounce(announcer, armed_path)
    return announcer
