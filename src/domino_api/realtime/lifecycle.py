"""The realtime parts of a server process: hub, listener, keepalive ticker, catch-up and
presence refresher.

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

from fastapi import FastAPI

from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.engine.clock_text import iso
from domino_api.errors import database_state
from domino_api.matches import presence
from domino_api.realtime.hub import Hub, dumps
from domino_api.realtime.listener import make_listener
from domino_api.store import match_reads
from domino_api.store.db import transaction

log = logging.getLogger(__name__)

CATCH_UP_BATCH = 1000


class Realtime:
    """Started lazily by the first socket, or eagerly by the app's lifespan."""

    def __init__(self, app: FastAPI) -> None:
        self.settings: Settings = app.state.settings
        self.clock: Clock = app.state.clock
        self.maker = app.state.sessionmaker
        self.core = app.state.core  # the write core (matches/unit.py)
        self.hub = Hub(self.maker)
        self.listener = make_listener(self.settings, app.state.database_url, self.hub)
        self.core.announcer.deliver_locally(self.hub.hand_over, self.hub.visibility_changed)
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        self._started = False
        self._presence_started = False

    async def ensure_started(self) -> None:
        if self._started:
            return
        async with self._lock:
            if self._started:
                return
            await self.listener.start()
            interval = max(0.5, self.settings.keepalive_s * 0.75)
            self._tasks.append(self._every(interval, self._tick, "keepalive"))
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
        self.core.announcer.deliver_locally(None)
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

    async def _tick(self) -> None:
        now = iso(self.clock.now())
        self.hub.broadcast(dumps({"type": "keepalive", "now": now}))

    async def catch_up(self) -> list[str]:
        """Read the matches whose sockets are behind the table; returns their ids."""
        ids = list(self.hub.cursors())
        stored: dict[str, int] = {}
        for start in range(0, len(ids), CATCH_UP_BATCH):
            chunk = ids[start : start + CATCH_UP_BATCH]
            async with transaction(self.maker) as session:
                stored.update(await match_reads.stored_seqs(session, chunk))
        return self.hub.catch_up(stored)

    async def refresh_presence(self) -> None:
        lease = self.settings.presence_lease_s
        await presence.hold_leases(self.core, self.hub.held_seats(), lease)
        await presence.expire_presence(self.core, self.clock.now())


def realtime_of(app: FastAPI) -> Realtime:
    realtime: Realtime | None = getattr(app.state, "realtime", None)
    if realtime is None:
        realtime = Realtime(app)
        app.state.realtime = realtime
    return realtime


async def start_realtime(app: FastAPI, start_background: bool) -> None:
    """With background work on, listen and refresh presence from the start; else lazily."""
    realtime = realtime_of(app)
    if start_background:
        await realtime.start_presence()


async def stop_realtime(app: FastAPI) -> None:
    realtime: Realtime | None = getattr(app.state, "realtime", None)
    if realtime is not None:
        await realtime.stop()
