"""Putting a process's write core together: its database pool, the announcer, the hooks.

The app's lifespan and the recovery job's commands (`domino-api sweep`, `worker`) open the
same core, so every process writes, announces and ends matches alike.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncEngine

from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.matches.service import announce_tile_back
from domino_api.matches.unit import Core
from domino_api.players import profile_hooks
from domino_api.realtime.announce import make_announcer
from domino_api.store.db import Pool, make_engine, make_sessionmaker
from domino_api.tournaments import hooks as tournament_hooks


@asynccontextmanager
async def write_core(
    url: str, settings: Settings, clock: Clock
) -> AsyncIterator[tuple[Core, AsyncEngine]]:
    """The write core on the database at `url` (an asyncpg URL), and its ORM engine."""
    tournament_hooks.install()  # tournaments see their matches end (matches/ends.py)
    profile_hooks.on_tile_back_changed(announce_tile_back)  # tables show a new tile back
    engine = make_engine(url, settings)  # the process's one pool (docs/ARCHITECTURE.md)
    pool = Pool(engine)
    announcer = make_announcer(settings, pool)
    try:
        await announcer.start()
        maker = make_sessionmaker(engine, announcer)
        core = Core(pool, maker, clock, announcer, lease_s=settings.presence_lease_s)
        yield core, engine
    finally:
        await announcer.close()
        await engine.dispose()
