"""The receiving side of announcements: each one pokes the hub, which reads the event table.

Two backends, matching realtime/announce.py: `PgListener` (one LISTEN connection per process,
every match's NOTIFYs) and `NatsListener` (one NATS connection, subscribed only to the matches
this process has sockets for). Both also hear every revoked credential (`on_revoked`:
web/revocation.py). An announcement is only a hint of which match moved, so either
listener, when its connection drops, pokes every watched match once it is back: announcements
sent meanwhile are lost, and the hub reads whatever they would have announced.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

import asyncpg
from nats.aio.client import Client as Nats
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from domino_api.config import Settings
from domino_api.realtime.announce import (
    CHANNEL,
    REVOKED_CHANNEL,
    REVOKED_SUBJECT,
    VISIBILITY_TAIL,
    subject,
)
from domino_api.realtime.hub import Hub
from domino_api.realtime.nats_link import close_quietly, connect
from domino_api.store import notify
from domino_api.store.connect import Connector
from domino_api.store.db import to_plain_url

log = logging.getLogger(__name__)

# Reconnecting: soon, then at most every second, so sockets hear announcements again within
# about a second of PostgreSQL accepting connections after a restart or a failover (a refused
# attempt costs the server nothing).
RECONNECT_FIRST_S = 0.1
RECONNECT_MAX_S = 1.0


def parse_payload(payload: str) -> tuple[str, int] | None:
    """The match id and seq of a `match_id:seq` payload, or None when it is not one."""
    match_id, sep, seq = payload.rpartition(":")
    if not sep or not match_id or len(match_id) > 36 or not seq.isdigit() or len(seq) > 18:
        return None
    return match_id, int(seq)


def parse_revoked(payload: str) -> str | None:
    """The token hash of a revocation's `<sha256 hex>:0` payload, or None when it is not one."""
    token_hash, sep, _ = payload.rpartition(":")
    if not sep or len(token_hash) != 64 or not all(c in "0123456789abcdef" for c in token_hash):
        return None
    return token_hash


# Called with each revoked token's hash announced (web/revocation.py); never raises.
OnRevoked = Callable[[str], None]


def _ignore(_token_hash: str) -> None:
    return None


def hear(hub: Hub, text: str) -> None:
    """One announcement's payload handed to the hub: a match's seq, or a change of its mutes."""
    if text.endswith(VISIBILITY_TAIL):
        match_id = text.removesuffix(VISIBILITY_TAIL)
        if 0 < len(match_id) <= 36:
            hub.visibility_changed(match_id)
        return
    announced = parse_payload(text)
    if announced is not None:
        hub.notify(*announced)


class AnnouncementListener(Protocol):
    async def start(self, timeout: float = 10.0) -> None:
        """Returns once listening (so no announcement after it is missed)."""

    async def stop(self) -> None: ...


class PgListener:
    def __init__(
        self, database_url: str, hub: Hub, connector: Connector, on_revoked: OnRevoked = _ignore
    ) -> None:
        self._url = to_plain_url(database_url)
        self._hub = hub
        self._connector = connector
        self._on_revoked = on_revoked
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._lost = asyncio.Event()

    async def start(self, timeout: float = 10.0) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def _on_notify(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        hear(self._hub, payload)

    def _on_revoke(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        token_hash = parse_revoked(payload)
        if token_hash is not None:
            self._on_revoked(token_hash)

    def _on_terminate(self, _conn: object) -> None:
        self._lost.set()

    async def _run(self) -> None:
        delay = RECONNECT_FIRST_S
        while True:
            connection = None
            try:
                connection = await self._connector.connect_url(self._url)
                connection.add_termination_listener(self._on_terminate)
                await connection.add_listener(CHANNEL, self._on_notify)
                await connection.add_listener(REVOKED_CHANNEL, self._on_revoke)
                self._lost.clear()
                self._ready.set()
                delay = RECONNECT_FIRST_S
                self._hub.poke_all()
                await self._watch(connection)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("LISTEN connection lost (%s); reconnecting in %.1fs", exc, delay)
            finally:
                if connection is not None and not connection.is_closed():
                    await _close_pg_quietly(connection)
            await asyncio.sleep(delay)
            delay = min(RECONNECT_MAX_S, delay * 2)

    async def _watch(self, connection: asyncpg.Connection) -> None:
        """Wait for the connection to drop; a cheap query now and then notices a dead peer."""
        while not self._lost.is_set():
            try:
                await asyncio.wait_for(self._lost.wait(), 15.0)
            except TimeoutError:
                await asyncio.wait_for(notify.ping(connection), 10.0)
        raise ConnectionError("LISTEN connection closed")


# The name the rest of the code base knew before there were two backends.
Listener = PgListener


class NatsListener:
    """Subscribes to `domino.match.<id>` when the hub gets its first local subscriber for the
    match and unsubscribes when the last one leaves (Hub.on_watch / on_unwatch).

    A subscription is confirmed by the server (a flush) before the match is read once more:
    a step committed while the subscription was on its way is read then, and every later one
    is announced to us, so a new socket misses nothing.
    """

    def __init__(self, servers: list[str], hub: Hub, on_revoked: OnRevoked = _ignore) -> None:
        self._servers = servers
        self._hub = hub
        self._on_revoked = on_revoked
        self._nc: Nats | None = None
        self._subs: dict[str, Subscription] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._pending: dict[str, int] = {}  # reconciliations asked for, per match
        self._tasks: set[asyncio.Task[None]] = set()
        self.received = 0

    async def start(self, timeout: float = 10.0) -> None:
        if self._nc is not None:
            return
        self._nc = await connect(
            self._servers, "domino-listener", timeout, reconnected_cb=self._on_reconnected
        )
        await self._nc.subscribe(REVOKED_SUBJECT, cb=self._on_revoke)
        self._hub.on_watch = self._schedule
        self._hub.on_unwatch = self._schedule
        for match_id in self._hub.match_ids():
            self._schedule(match_id)

    async def stop(self) -> None:
        self._hub.on_watch = self._hub.on_unwatch = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._nc is not None:
            nc, self._nc = self._nc, None
            self._subs.clear()
            await close_quietly(nc)

    def subscribed(self) -> set[str]:
        """The matches this process is subscribed to now."""
        return set(self._subs)

    async def settled(self) -> None:
        """Wait until every subscribe and unsubscribe asked for so far is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _schedule(self, match_id: str) -> None:
        self._pending[match_id] = self._pending.get(match_id, 0) + 1
        task = asyncio.get_running_loop().create_task(self._reconcile(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reconcile(self, match_id: str) -> None:
        """Make the subscription agree with the hub, whatever order watch/unwatch came in."""
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                await self._apply(match_id)
        except Exception as exc:
            # The catch-up (lifecycle) still delivers this match's events, only later.
            log.warning("NATS subscription of match %s failed (%s)", match_id, exc)
        finally:
            left = self._pending.pop(match_id, 1) - 1
            if left:
                self._pending[match_id] = left
            else:  # nobody else waits on this lock: forget it, a later watch makes a new one
                self._locks.pop(match_id, None)

    async def _apply(self, match_id: str) -> None:
        nc = self._nc
        if nc is None:
            return
        wanted = self._hub.watches(match_id)
        if wanted and match_id not in self._subs:
            self._subs[match_id] = await nc.subscribe(subject(match_id), cb=self._on_message)
            await nc.flush()
            self._hub.poke(match_id)
        elif not wanted and match_id in self._subs:
            await self._subs.pop(match_id).unsubscribe()

    async def _on_message(self, message: Msg) -> None:
        self.received += 1
        hear(self._hub, message.data.decode(errors="replace"))

    async def _on_revoke(self, message: Msg) -> None:
        token_hash = parse_revoked(message.data.decode(errors="replace"))
        if token_hash is not None:
            self._on_revoked(token_hash)

    async def _on_reconnected(self) -> None:
        log.warning("NATS connection back; reading every watched match")
        self._hub.poke_all()


def make_listener(
    settings: Settings, database_url: str, hub: Hub, on_revoked: OnRevoked = _ignore
) -> AnnouncementListener:
    """The listener of the configured backend (`Settings.announce_backend`); `on_revoked` is
    told of every revoked credential announced."""
    if settings.announce_backend == "nats":
        return NatsListener(settings.nats_servers, hub, on_revoked)
    # LISTEN holds a session: beside a transaction pooler it connects to PostgreSQL directly.
    connector = Connector(settings)
    return PgListener(settings.listen_database_url or database_url, hub, connector, on_revoked)


async def _close_pg_quietly(connection: asyncpg.Connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), 2.0)
    except Exception:
        connection.terminate()
