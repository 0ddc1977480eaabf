"""SQL of a civil table: mutes, blocks and reported messages (matches/civil.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg
import msgspec
from sqlalchemy import CursorResult, delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.event_types import MessageData
from domino_api.store.civil_models import Block, Mute, Report
from domino_api.store.models import Match, MatchEvent, Player, Seat


@dataclass(frozen=True, slots=True)
class Holder:
    seat: int
    type: str
    player_id: str | None
    name: str | None  # the name the seat goes by at this table


async def seats(session: AsyncSession, match_id: str) -> tuple[str | None, list[Holder]] | None:
    """The match's host and its seats' holders; None when there is no such match."""
    host = await session.execute(select(Match.host_player_id).where(Match.id == match_id))
    found = host.first()
    if found is None:
        return None
    rows = await session.execute(
        select(Seat.seat, Seat.type, Seat.player_id, func.coalesce(Seat.name, Player.name))
        .outerjoin(Player, Player.id == Seat.player_id)
        .where(Seat.match_id == match_id)
        .order_by(Seat.seat)
    )
    return found[0], [Holder(*row) for row in rows]


async def mute(
    session: AsyncSession, player_id: str, match_id: str, seat: int, now: datetime
) -> None:
    values = {"player_id": player_id, "match_id": match_id, "seat": seat, "created_at": now}
    await session.execute(insert(Mute).values(**values).on_conflict_do_nothing())


async def unmute(session: AsyncSession, player_id: str, match_id: str, seat: int) -> None:
    await session.execute(
        delete(Mute).where(
            Mute.player_id == player_id, Mute.match_id == match_id, Mute.seat == seat
        )
    )


_CARRY_MUTES = """
INSERT INTO mutes (player_id, match_id, seat, created_at)
SELECT player_id, $2, seat, $3 FROM mutes WHERE match_id = $1
ON CONFLICT DO NOTHING
"""


async def carry_mutes(
    connection: asyncpg.Connection, from_match: str, to_match: str, at: datetime
) -> None:
    """A rematch keeps its players' mutes: the same seats, the same holders (issue 48)."""
    await connection.execute(_CARRY_MUTES, from_match, to_match, at)


async def muted_seats(session: AsyncSession, player_id: str, match_id: str) -> list[int]:
    rows = await session.execute(
        select(Mute.seat)
        .where(Mute.player_id == player_id, Mute.match_id == match_id)
        .order_by(Mute.seat)
    )
    return [int(seat) for seat in rows.scalars()]


async def mutes_of_match(session: AsyncSession, match_id: str) -> dict[str, frozenset[int]]:
    """Every mute at the match: player -> the seats it muted (the hub's, realtime/hub.py)."""
    rows = await session.execute(select(Mute.player_id, Mute.seat).where(Mute.match_id == match_id))
    found: dict[str, set[int]] = {}
    for player_id, seat in rows:
        found.setdefault(player_id, set()).add(int(seat))
    return {player: frozenset(seats) for player, seats in found.items()}


async def block(
    session: AsyncSession, player_id: str, blocked_id: str, name: str, now: datetime
) -> None:
    values = {"player_id": player_id, "blocked_id": blocked_id, "name": name, "created_at": now}
    await session.execute(insert(Block).values(**values).on_conflict_do_nothing())


async def unblock(session: AsyncSession, player_id: str, blocked_id: str) -> bool:
    result = await session.execute(
        delete(Block).where(Block.player_id == player_id, Block.blocked_id == blocked_id)
    )
    assert isinstance(result, CursorResult)  # a DML statement's result
    return bool(result.rowcount)


async def blocks(session: AsyncSession, player_id: str) -> list[Block]:
    rows = await session.execute(
        select(Block).where(Block.player_id == player_id).order_by(Block.created_at.desc())
    )
    return list(rows.scalars())


async def blocked_pairs(session: AsyncSession, player_ids: list[str]) -> set[tuple[str, str]]:
    """(blocker, blocked) among these players: they are never paired (lobby/seeks.py)."""
    if not player_ids:
        return set()
    stmt = select(Block.player_id, Block.blocked_id).where(
        Block.player_id.in_(player_ids), Block.blocked_id.in_(player_ids)
    )
    return {(row[0], row[1]) for row in await session.execute(stmt)}


async def host_blocked(session: AsyncSession, match_id: str, player_id: str) -> bool:
    """Whether the match's host has blocked this player from its tables."""
    stmt = select(Block.blocked_id).join(Match, Match.host_player_id == Block.player_id)
    stmt = stmt.where(Match.id == match_id, Block.blocked_id == player_id)
    return (await session.execute(stmt)).first() is not None


async def message(session: AsyncSession, match_id: str, seq: int) -> MessageData | None:
    """The match's message at `seq`, as it was said (its public data)."""
    stmt = select(MatchEvent.data).where(
        MatchEvent.match_id == match_id, MatchEvent.seq == seq, MatchEvent.type == "message"
    )
    data = (await session.execute(stmt)).scalar_one_or_none()
    return None if data is None else msgspec.convert(data, MessageData)


async def add_report(session: AsyncSession, report: Report) -> int:
    """Keep a report (a new row, not added to the session); the same reporter reporting the
    same message again keeps the first."""
    values = insert(Report).values(
        match_id=report.match_id,
        seq=report.seq,
        reporter_id=report.reporter_id,
        reported_id=report.reported_id,
        seat=report.seat,
        name=report.name,
        text=report.text,
        reason=report.reason,
        created_at=report.created_at,
    )
    stmt = values.on_conflict_do_nothing().returning(Report.id)
    added = (await session.execute(stmt)).scalar_one_or_none()
    if added is not None:
        return int(added)
    again = select(Report.id).where(
        Report.reporter_id == report.reporter_id,
        Report.match_id == report.match_id,
        Report.seq == report.seq,
    )
    return int((await session.execute(again)).scalar_one())


async def reports(session: AsyncSession, limit: int) -> list[Report]:
    """The newest reports first (operators: `domino-api reports`)."""
    rows = await session.execute(select(Report).order_by(Report.id.desc()).limit(limit))
    return list(rows.scalars())
