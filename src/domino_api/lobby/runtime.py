"""The lobby's parts in one process: its feed (realtime/lobby_feed.py) and its sweep, started
by the first lobby request or socket the process serves (a process nobody asks about the lobby
holds no connection for it), stopped with the app (app/runtime.py)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import FastAPI
from starlette.requests import HTTPConnection

from domino_api.errors import database_state
from domino_api.lobby import seeks, tables
from domino_api.matches.unit import Core
from domino_api.realtime.lobby_feed import LobbyFeed
from domino_api.store import lobby_repo

log = logging.getLogger(__name__)

# How often each process's sweep announces the listed tables' changes and pairs the seekers
# that no request paired (each request pairs at once what it can: lobby/seeks.py).
SWEEP_S = 0.5
# Lobby events and closed seeks are kept this long, and pruned once per this many passes.
KEEP_S = 3600.0
PRUNE_EVERY = 120


class Lobby:
    def __init__(self, app: FastAPI) -> None:
        self.core: Core = app.state.core
        self.settings = app.state.settings
        self.feed = LobbyFeed(self.core.pool, self.settings, app.state.database_url)
        self._sweep: asyncio.Task[None] | None = None

    @property
    def lease_s(self) -> float:
        lease: float = self.settings.seek_lease_s
        return lease

    def publish(self) -> None:
        self.feed.publish()

    async def ensure_started(self) -> None:
        await self.feed.start()
        if self._sweep is None:
            self._sweep = asyncio.get_running_loop().create_task(self._sweeping(), name="lobby")

    async def stop(self) -> None:
        if self._sweep is not None:
            self._sweep.cancel()
            await asyncio.gather(self._sweep, return_exceptions=True)
            self._sweep = None
        await self.feed.stop()

    async def _sweeping(self) -> None:
        passes = 0
        while True:
            await asyncio.sleep(SWEEP_S)
            passes += 1
            try:
                await tables.reconcile(self.core, self.publish)
                await seeks.pair_waiting(self.core, self.publish)
                if passes % PRUNE_EVERY == 0:
                    async with self.core.pool.acquire() as connection:
                        await lobby_repo.prune(connection, KEEP_S)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if database_state(exc) is None:
                    log.exception("lobby sweep failed")
                else:
                    log.warning("lobby sweep waits for the database")


async def lobby_of(connection: HTTPConnection) -> Lobby:
    """The process's lobby, started on first use."""
    app = connection.app
    lobby: Lobby | None = getattr(app.state, "lobby", None)
    if lobby is None:
        lobby = Lobby(app)
        app.state.lobby = lobby
    await lobby.ensure_started()
    return lobby


async def stop_lobby(app: FastAPI) -> None:
    lobby: Lobby | None = getattr(app.state, "lobby", None)
    if lobby is not None:
        await lobby.stop()
