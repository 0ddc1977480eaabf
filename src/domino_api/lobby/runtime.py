"""The lobby's parts in one process, built at start-up (app/api.py) and handed to its routes
and socket: the write core, the seeks' lease, the hosts' caps and the feed that brings lobby
events to this process's lobby sockets (realtime/lobby_feed.py, started by the first lobby
socket: a process nobody watches the lobby on holds no connection for it).

The lobby keeps no timer: its listings follow the tables' committed steps (lobby/follower.py),
seekers are paired when a seek is made, polled or held by a socket (lobby/seeks.py), and old
lobby events and closed seeks are pruned by the requests that make new ones, at most once per
`PRUNE_EVERY_S`.
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from domino_api.config import Settings
from domino_api.matches.hosting import Caps, caps_of
from domino_api.matches.unit import Core
from domino_api.realtime.lobby_feed import LobbyFeed
from domino_api.store import lobby_repo

# Lobby events and closed seeks are kept this long; pruned at most this often.
KEEP_S = 3600.0
PRUNE_EVERY_S = 60.0


class Lobby:
    def __init__(self, core: Core, settings: Settings, feed: LobbyFeed) -> None:
        self.core = core
        self.settings = settings
        self.feed = feed
        self.caps: Caps = caps_of(settings)
        self._pruned_at = time.monotonic()

    @property
    def lease_s(self) -> float:
        return self.settings.seek_lease_s

    async def publish(self) -> None:
        """After a commit that stored lobby events: this process's sockets read them now, and
        every other process's when the announcement reaches it."""
        self.feed.wake()
        await self.core.announcer.announce_lobby()
        await self._prune_now_and_then()

    async def stop(self) -> None:
        await self.feed.stop()

    async def _prune_now_and_then(self) -> None:
        if time.monotonic() - self._pruned_at < PRUNE_EVERY_S:
            return
        self._pruned_at = time.monotonic()
        async with self.core.pool.acquire() as connection:
            await lobby_repo.prune(connection, KEEP_S)


def lobby_of(connection: HTTPConnection) -> Lobby:
    """The process's lobby, as its start-up built it."""
    lobby: Lobby = connection.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]
