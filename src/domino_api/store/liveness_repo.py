"""SQL about service liveness: each process's row in `service_starts` and its heartbeats."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, func, select, update
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


async def spans(session: AsyncSession, kind: str) -> tuple[tuple[datetime, datetime], ...]:
    """(started_at, last_alive_at) of every process of `kind` ever recorded."""
    stmt = select(ServiceStart.started_at, ServiceStart.last_alive_at).where(_of_kind(kind))
    return tuple((a, b) for a, b in (await session.execute(stmt)).all())


async def last_alive(session: AsyncSession, kind: str) -> datetime | None:
    """The latest sign of life of any process of `kind`; None when none was recorded."""
    stmt = select(func.max(ServiceStart.last_alive_at)).where(_of_kind(kind))
    moment: datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return moment
