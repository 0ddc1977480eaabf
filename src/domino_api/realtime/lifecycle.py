"""The realtime parts of a server process: hub, listener, keepalives (spread over their
interval: realtime/keepalive.py), catch-up and presence refresher.

Local first: the hub takes this process's own steps, with their events, straight from the
announcer (`Announcer.deliver_locally`), so its sockets get a step as soon as it is committed,
whatever the broker is doing, and without reading it back; the listener brings the other
processes' steps.

The catch-up (`Settings.catch_up_s`) repairs announcements that never came: a process that
crashed between a step's commit and its announcement, or a message dropped while a listening
connection was away. One query reads the stored seq of every match this process has sockets
for; the hub reads the events of those its sockets are behind on (docs/ARCHITECTURE.md,
"Fan-out").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from fastapi import FastAPI
from starlette.requests import HTTPConnection

from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.engine.clock_text import iso
from domino_api.errors import database_state
from domino_api.jsontext import dump_bytes
from domino_api.matches import presence
from domino_api.matches.pacing import Pacer
from domino_api.matches.unit import Core
from domino_api.realtime.announce import Announcer
from domino_api.realtime.frames import KeepaliveFrame
from domino_api.realtime.hub import Hub
from domino_api.realtime.keepalive import Keepalives
from domino_api.realtime.listener import make_listener
from domino_api.realtime.outbox import Frame
from domino_api.store import match_reads, players_repo
from domino_api.web.deps import AuthCache
from domino_api.web.revocation import Credentials, revoke_here

log = logging.getLogger(__name__)

CATCH_UP_BATCH = 1000
# (the pass's start, the refresh interval, whether a pass failed since the last recorded one)
Witnessed = Callable[[datetime, float, bool], Awaitable[None]]


class LeaseHolder(Protocol):
    """Other leases a process's sockets hold (social/presence.py: its players online): renewed
    in each presence pass before it is recorded, and expired after."""

    async def hold(self, lease_s: float) -> None: ...

    async def expire(self) -> None: ...


class Realtime:
    """Made by the app's lifespan from the write core it made (app/runtime.py) and handed to
    the socket routes; its listener and tickers start with it when background work is on, else
    with the first socket."""

    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        core: Core,
        announcer: Announcer,
        database_url: str,
        *,
        pacer: Pacer,
        cache: AuthCache,
        credentials: Credentials,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.pacer = pacer
        self.core = core  # the write core (matches/unit.py)
        self.maker = core.maker
        self.announcer = announcer  # the core's (app/wiring.py), which hands the hub its steps
        self.hub = Hub(self.maker)
        # Every open socket's outbox, match or lobby: sent keepalives spread over the interval.
        self.keepalives = Keepalives(settings.keepalive_s, self._keepalive)
        self.cache = cache
        self.credentials = credentials
        self.listener = make_listener(settings, database_url, self.hub, self.revoked)
        announcer.deliver_locally(self.hub.hand_over, self.hub.visibility_changed)
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        self._started = False
        self._presence_started = False
        # Records that a presence pass renewed this process's leases (jobs/witness.py): handed
        # in by the runtime once the process's liveness row exists (None: nothing recorded).
        self.witnessed: Witnessed | None = None
        self._unwitnessed = False  # a pass failed since the last recorded one
        self.holders: list[LeaseHolder] = []

    async def ensure_started(self) -> None:
        if self._started:
            return
        async with self._lock:
            if self._started:
                return
            await self.listener.start()
            loop = asyncio.get_running_loop()
            self._tasks.append(loop.create_task(self.keepalives.run(), name="realtime-keepalive"))
            catch_up = max(0.1, self.settings.catch_up_s)
            self._tasks.append(self._every(catch_up, self.catch_up, "catch-up"))
            self._started = True

    async def start_presence(self) -> None:
        """Refresh this process's leases and expire lapsed ones (every process may do both)."""
        await self.ensure_started()
        if not self._presence_started:
            interval = self.settings.presence_refresh_s
            self._tasks.append(self._every(interval, self.refresh_presence, "presence"))
            self._presence_started = True

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        self.announcer.deliver_locally(None)
        await self.listener.stop()

    def _every(
        self, seconds: float, job: Callable[[], Awaitable[object]], name: str
    ) -> asyncio.Task[None]:
        async def loop() -> None:
            while True:
                await asyncio.sleep(seconds)
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if database_state(exc) is not None:  # a restart, a failover
                        log.warning("realtime %s job waits for the database", name)
                    else:
                        log.exception("realtime %s job failed", name)

        return asyncio.get_running_loop().create_task(loop(), name=f"realtime-{name}")

    def _keepalive(self) -> Frame:
        return Frame(dump_bytes(KeepaliveFrame(now=iso(self.clock.now()))))

    def revoked(self, token_hash: str) -> None:
        """A credential was revoked (announced by whichever process revoked it)."""
        revoke_here(self.cache, self.credentials, [token_hash])

    async def catch_up(self) -> list[str]:
        """Read the matches whose sockets are behind the table; returns their ids. Sockets
        whose credential is gone close too: a revocation's lost announcement, repaired."""
        held = self.credentials.held()
        ids = self.hub.match_ids()
        stored: dict[str, int] = {}
        async with self.core.pool.acquire() as connection:
            gone = await players_repo.gone_tokens(connection, held) if held else set()
            for start in range(0, len(ids), CATCH_UP_BATCH):
                chunk = ids[start : start + CATCH_UP_BATCH]
                stored.update(await match_reads.stored_seqs(connection, chunk))
        revoke_here(self.cache, self.credentials, sorted(gone))
        return self.hub.catch_up(stored)

    async def refresh_presence(self) -> None:
        """Renew this process's sockets' leases, record that it did (so other processes know
        its sockets were looked at up to then), then expire what lapsed."""
        settings, began = self.settings, self.clock.now()
        try:
            await presence.hold_leases(self.core, self.hub.held_seats(), settings.presence_lease_s)
            for holder in self.holders:
                await holder.hold(settings.presence_lease_s)
            if self.witnessed is not None:
                await self.witnessed(began, settings.presence_refresh_s, self._unwitnessed)
        except BaseException:
            self._unwitnessed = True  # the next recorded pass starts a new run of watching
            raise
        self._unwitnessed = False
        await presence.expire_presence(self.core, self.clock.now())
        for holder in self.holders:
            await holder.expire()


def realtime_of(connection: HTTPConnection) -> Realtime:
    """The process's realtime parts, made at start-up (a route's dependency)."""
    realtime: Realtime = connection.app.state.realtime
    return realtime


async def start_realtime(app: FastAPI, core: Core, start_background: bool) -> Realtime:
    """Make the realtime parts; with background work on, listen and refresh presence from
    the start, else from the first socket."""
    announcer: Announcer = app.state.announcer
    state = app.state
    realtime = Realtime(
        state.settings,
        state.clock,
        core,
        announcer,
        state.database_url,
        pacer=state.pacer,
        cache=state.auth_cache,
        credentials=state.credentials,
    )
    app.state.realtime = realtime
    if start_background:
        await realtime.start_presence()
    return realtime


async def stop_realtime(app: FastAPI) -> None:
    realtime: Realtime | None = getattr(app.state, "realtime", None)
    if realtime is not None:
        await realtime.stop()
