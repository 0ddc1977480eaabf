"""SQL about service liveness: each process's row in `service_starts` and its heartbeats."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, and_, case, false, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import ServiceStart


def _of_kind(kind: str) -> ColumnElement[bool]:
    # A row's `note` begins with its process's kind (jobs/liveness.py writes it).
    return ServiceStart.note.like(f"{kind}%")


async def insert_start(session: AsyncSession, now: datetime, note: str) -> int:
    """A process's row, alive from `now`; returns its id."""
    row = ServiceStart(started_at=now, last_alive_at=now, note=note)
    session.add(row)
    await session.flush()
    return int(row.id)


async def beat(session: AsyncSession, row_id: int, now: datetime) -> None:
    await session.execute(
        update(ServiceStart)
        .where(ServiceStart.id == row_id, ServiceStart.last_alive_at < now)
        .values(last_alive_at=now)
    )


async def stop(session: AsyncSession, row_id: int, now: datetime) -> None:
    """The process stops cleanly: alive until `now`, and no longer."""
    await session.execute(
        update(ServiceStart)
        .where(ServiceStart.id == row_id)
        .values(last_alive_at=func.greatest(ServiceStart.last_alive_at, now), stopped_at=now)
    )


Span = tuple[datetime, datetime, datetime | None]  # started, last alive, stopped cleanly


async def spans(session: AsyncSession, kind: str) -> tuple[Span, ...]:
    """(started_at, last_alive_at, stopped_at) of every process of `kind` ever recorded."""
    columns = (ServiceStart.started_at, ServiceStart.last_alive_at, ServiceStart.stopped_at)
    stmt = select(*columns).where(_of_kind(kind))
    return tuple((a, b, c) for a, b, c in (await session.execute(stmt)).all())


async def last_alive(session: AsyncSession, kind: str) -> tuple[datetime | None, datetime | None]:
    """The latest sign of life of any process of `kind`, and of any not stopped cleanly
    (None: none recorded)."""
    running = ServiceStart.stopped_at.is_(None)
    stmt = select(
        func.max(ServiceStart.last_alive_at),
        func.max(ServiceStart.last_alive_at).filter(running),
    ).where(_of_kind(kind))
    row = (await session.execute(stmt)).one()
    return row[0], row[1]


async def witness(
    session: AsyncSession, row_id: int, at: datetime, carried: datetime | None
) -> None:
    """The process renewed its sockets' leases as of `at`: its unbroken run of renewals goes on
    when its last one is no older than `carried`, else (or with None) a new one starts at `at`."""
    unbroken = (
        and_(ServiceStart.witnessed_at.is_not(None), ServiceStart.witnessed_at >= carried)
        if carried is not None
        else false()
    )
    await session.execute(
        update(ServiceStart)
        .where(ServiceStart.id == row_id)
        .values(
            witnessed_at=func.greatest(ServiceStart.witnessed_at, at),
            witness_since=case((unbroken, ServiceStart.witness_since), else_=at),
        )
    )


# started, witnessed, the run of witnessing since, stopped cleanly
Watch = tuple[datetime, datetime | None, datetime | None, datetime | None]


async def watches(session: AsyncSession, kind: str) -> tuple[Watch, ...]:
    """What every process of `kind` not stopped cleanly witnessed (jobs/witness.py): a clean
    stop closed its sockets, so its row has nothing to say."""
    stmt = select(
        ServiceStart.started_at,
        ServiceStart.witnessed_at,
        ServiceStart.witness_since,
        ServiceStart.stopped_at,
    ).where(_of_kind(kind), ServiceStart.stopped_at.is_(None))
    return tuple((a, b, c, d) for a, b, c, d in (await session.execute(stmt)).all())
