"""Service liveness: API processes record their start and a heartbeat in `service_starts`.

RULES 10 forfeits a seat whose deadline passes, but nobody can move while no server process
is alive (a deploy, a crash). A deadline that fell at a moment no API process was alive, when
a process started again after it, is an outage deadline: `timeouts.enforce` moves it to the
restart plus the grace period instead of forfeiting. While API processes have recorded
themselves but none is alive now, the sweeper holds every match (`api_down_since`), so a
worker that outlives the API never forfeits players who cannot reach the table. A process that
stops cleanly records it (`stopped_at`): it was alive until exactly then, while one that died
without a word is counted alive for `ALIVE_SLACK` past its last beat (issue 41: a deadline
within that slack after a clean stop of every process was forfeited, not moved).
See docs/RULES.md section 10 ("Outages") and docs/OPERATING.md, "Clocks and the recovery job".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import Clock
from domino_api.jobs import witness
from domino_api.store import liveness_repo
from domino_api.store.db import transaction

log = logging.getLogger(__name__)

HEARTBEAT_S = 10.0
# A process counts as alive until its last heartbeat plus this (three missed beats).
ALIVE_SLACK = timedelta(seconds=3 * HEARTBEAT_S)
API = "api"
WORKER = "worker"


async def record_start(session: AsyncSession, now: datetime, kind: str = API) -> int:
    """A process started: its row, alive from now (`note` begins with its kind)."""
    note = f"{kind} {socket.gethostname()} pid {os.getpid()}"
    return await liveness_repo.insert_start(session, now, note)


async def beat(session: AsyncSession, row_id: int, now: datetime) -> None:
    """The process is still alive at `now`."""
    await liveness_repo.beat(session, row_id, now)


@dataclass(frozen=True)
class Lifetimes:
    """The API processes' recorded lifetimes, read once per sweep pass (the table is small):
    each forfeit asks `outage_restart` in memory, so a pass of thousands asks the database once."""

    spans: tuple[liveness_repo.Span, ...]  # (started_at, last_alive_at, stopped_at)

    def outage_restart(self, moment: datetime) -> datetime | None:
        if any(
            start <= moment <= alive_until(alive, stopped) for start, alive, stopped in self.spans
        ):
            return None
        later = [start for start, _, _ in self.spans if start > moment]
        return min(later) if later else None


def alive_until(last_alive: datetime, stopped: datetime | None) -> datetime:
    """Until when a process counts as alive: its clean stop, else its last beat plus the slack
    (it may have lived up to three beats longer)."""
    return stopped if stopped is not None else last_alive + ALIVE_SLACK


async def lifetimes(session: AsyncSession) -> Lifetimes:
    return Lifetimes(await liveness_repo.spans(session, API))


def outages_of(maker: async_sessionmaker[AsyncSession]) -> Callable[[], Awaitable[Lifetimes]]:
    """The service's outages as recorded when asked: what the write core is handed
    (domino_api/app/wiring.py), read when a step is due."""

    async def outages() -> Lifetimes:
        async with maker() as session:
            return await lifetimes(session)

    return outages


async def api_down_since(session: AsyncSession, now: datetime) -> datetime | None:
    """The API's last sign of life when API processes have recorded themselves but none is
    alive now (the sweeper then holds every match); None when one is alive or none recorded."""
    last, running = await liveness_repo.last_alive(session, API)
    if last is None or (running is not None and running + ALIVE_SLACK >= now):
        return None
    return last


class Heartbeat:
    """Records one process's start, then beats every HEARTBEAT_S until stopped."""

    def __init__(
        self,
        maker: async_sessionmaker[AsyncSession],
        clock: Clock,
        kind: str = API,
        interval_s: float = HEARTBEAT_S,
    ) -> None:
        self.maker, self.clock, self.kind, self.interval_s = maker, clock, kind, interval_s
        self.row_id: int | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._record_start()
        self._task = asyncio.create_task(self._run(), name=f"heartbeat-{self.kind}")

    async def _record_start(self) -> None:
        try:
            async with transaction(self.maker) as session:
                self.row_id = await record_start(session, self.clock.now(), self.kind)
        except Exception:  # liveness must never keep a process from serving
            log.warning("could not record the service start; trying again", exc_info=True)

    async def beat_now(self) -> None:
        if self.row_id is None:
            return
        try:
            async with transaction(self.maker) as session:
                await beat(session, self.row_id, self.clock.now())
        except Exception:
            log.warning("heartbeat failed", exc_info=True)

    async def witnessed(self, began: datetime, refresh_s: float, broken: bool) -> None:
        """A presence pass that began at `began` renewed this process's sockets' leases
        (jobs/witness.py); raises when the database is away (the pass is then not witnessed)."""
        if self.row_id is None:  # not recorded yet: the next pass, once it is
            return
        async with transaction(self.maker) as session:
            await witness.record_pass(session, self.row_id, began, refresh_s, broken)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval_s)
            if self.row_id is None:  # the database was away at the start
                await self._record_start()
            else:
                await self.beat_now()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.record_stop()

    async def record_stop(self) -> None:
        """A clean stop: alive until now, and no longer (a deadline after it is an outage's)."""
        if self.row_id is None:
            return
        try:
            async with transaction(self.maker) as session:
                await liveness_repo.stop(session, self.row_id, self.clock.now())
        except Exception:
            log.warning("could not record the service stop", exc_info=True)


async def start_api_heartbeat(app: FastAPI) -> Heartbeat:
    """Called by a server process's runtime: record its start and keep beating."""
    heartbeat = Heartbeat(app.state.sessionmaker, app.state.clock, kind=API)
    await heartbeat.start()
    app.state.heartbeat = heartbeat
    return heartbeat


async def stop_api_heartbeat(app: FastAPI) -> None:
    heartbeat = getattr(app.state, "heartbeat", None)
    if heartbeat is not None:
        await heartbeat.stop()
