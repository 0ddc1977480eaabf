"""Putting a process's write core together: its database pool, the announcer, the computers,
the service's outages and the finishes of ended matches.

The app's lifespan and the recovery job's commands (`domino-api sweep`, `worker`) open the
same core, so every process writes, announces and ends matches alike. Everything the core
calls on is made here and handed to it (matches/ports.py): nothing below reaches up for it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from domino_api.bots.computers import Computers
from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.lobby.follower import LobbyFollower
from domino_api.matches.ends import Ends
from domino_api.matches.ports import OutagesOf, WitnessOf, always_witnessed
from domino_api.matches.unit import Core
from domino_api.matches.writes import Writer
from domino_api.ratings.service import finish as ratings_finish
from domino_api.realtime.announce import make_announcer
from domino_api.realtime.fault import with_fault
from domino_api.store.db import Pool, make_engine, make_sessionmaker
from domino_api.tournaments.hooks import END_HOOK
from domino_api.turns.notices import TurnNotices

# The service's outages read through a process's sessions (jobs/liveness.outages_of): handed
# in by whoever opens the core, as the recovery job builds on the core and not under it.
OutagesFrom = Callable[[async_sessionmaker[AsyncSession]], OutagesOf]
# What the service could see (jobs/witness.witness_of: sessions, clock, the presence refresh).
WitnessFrom = Callable[[async_sessionmaker[AsyncSession], Clock, float], WitnessOf]


@asynccontextmanager
async def write_core(
    url: str,
    settings: Settings,
    clock: Clock,
    outages_of: OutagesFrom,
    computers: Computers | None = None,
    witness_from: WitnessFrom | None = None,
) -> AsyncIterator[tuple[Core, AsyncEngine]]:
    """The write core on the database at `url` (an asyncpg URL), and its ORM engine.
    `computers`: the process's workers (the app starts and stops its own); without, workers
    made here, started on first use and stopped on leaving. `witness_from`: how presence is
    witnessed; without (a process with no presence loop), the clock alone decides."""
    own = computers is None
    deciders = Computers.from_settings(settings) if computers is None else computers
    engine = make_engine(url, settings)  # the process's one pool (docs/ARCHITECTURE.md)
    pool = Pool(engine)
    announcer = with_fault(make_announcer(settings, pool), settings)
    # The lobby follows every committed step (a read model, lobby/follower.py).
    lobby = LobbyFollower(pool, announcer)
    # Players told their turn at correspondence tables (turns/notices.py): lobby and Web Push.
    notices = TurnNotices(pool, announcer)
    try:
        await announcer.start()
        maker = make_sessionmaker(engine, announcer)
        # Ratings move (ratings/service.py) and tournaments see their matches end
        # (tournaments/hooks.py), in the transaction of the step that ended them.
        ends = Ends([END_HOOK], [ratings_finish])
        writer = Writer(pool, maker, clock, announcer, ends, followers=(lobby, notices))
        witness = (
            always_witnessed
            if witness_from is None
            else witness_from(maker, clock, settings.presence_refresh_s)
        )
        core = Core(
            writer,
            deciders.choose,
            outages_of(maker),
            witness,
            lease_s=settings.presence_lease_s,
        )
        yield core, engine
    finally:
        await lobby.stop()
        await notices.stop()
        if own:
            await deciders.stop()
        await announcer.close()
        await engine.dispose()
