"""Presence witnessed (issue 48): what the service could see, read from what its API processes
recorded, so that an outage never makes a present holder look gone.

Each API process, once a presence pass has renewed its sockets' leases, records the moment the
pass began (`witnessed_at`) and the start of its unbroken run of passes (`witness_since`); a
pass that failed (the database away) or one that came more than `GAP_PASSES` refreshes after
the last starts a new run. `witness_from` turns those rows into the engine's `Witness`
(engine/table/witness.py):

- a process is *watching* while its last pass is within `SLACK_PASSES` refreshes; the service's
  watch began at the earliest run start of the processes watching (now, when none is: nobody
  can see, so nothing lapses);
- a process is *gone* once it stopped cleanly, or the service watched it stay silent for
  `SLACK_PASSES` refreshes (it crashed, or cannot reach the database: its sockets cannot serve);
- `looked`: the earliest last pass of the processes not gone (the moment up to which every
  process that may hold a socket has renewed what it holds); a process that has not passed yet
  counts from its start.

A process with no presence loop (an in-process test app) is handed `ALWAYS` instead: the clock
alone decides there (domino_api/app/wiring.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import Clock
from domino_api.engine.table import Witness
from domino_api.store import liveness_repo
from domino_api.store.liveness_repo import Watch

# A pass later than this many refreshes after the last one starts a new run (one was missed).
GAP_PASSES = 2.0
# A process whose last pass is older than this many refreshes is not watching; one the service
# watched stay silent this long is gone.
SLACK_PASSES = 3.0
API = "api"


def witness_from(rows: tuple[Watch, ...], now: datetime, refresh_s: float) -> Witness:
    """The service's witness at `now` from its API processes' rows (see the module's text)."""
    slack = timedelta(seconds=SLACK_PASSES * refresh_s)
    running = [row for row in rows if row[3] is None]
    watching = [since for _, at, since, _ in running if at and since and now - at <= slack]
    watch_began = min(watching) if watching else now
    last_pass = [at or started for started, at, _, _ in running]
    live = [at for at in last_pass if now - max(at, watch_began) < slack]
    return Witness(looked=min(live) if live else None, since=watch_began)


async def read_witness(session: AsyncSession, now: datetime, refresh_s: float) -> Witness:
    return witness_from(await liveness_repo.watches(session, API), now, refresh_s)


def witness_of(
    maker: async_sessionmaker[AsyncSession], clock: Clock, refresh_s: float
) -> Callable[[], Awaitable[Witness]]:
    """The witness as recorded when asked: what the write core is handed (app/wiring.py), read
    before a step that may find a holder gone (a release, a claim, autopilot, the lapses)."""

    async def witness() -> Witness:
        async with maker() as session:
            return await read_witness(session, clock.now(), refresh_s)

    return witness


async def record_pass(
    session: AsyncSession, row_id: int, began: datetime, refresh_s: float, broken: bool
) -> None:
    """A presence pass that began at `began` renewed every lease this process holds. `broken`:
    a pass since the last recorded one failed, so the run starts again at `began`."""
    carried = None if broken else began - timedelta(seconds=GAP_PASSES * refresh_s)
    await liveness_repo.witness(session, row_id, began, carried)
