"""SQL about ratings (what moves them is domino_api/ratings: the rules, the model, the service).

A match's end writes its players' ratings in the transaction that ended it: `lock` makes the
missing rows and locks them all, `update` writes the new values. Callers lock one preset's
players at a time, presets in name order and players in id order, so two transactions that
end matches of the same players lock in the same order and cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

import asyncpg
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import Match, Player, Rating, RatingPoint, Seat

_ENSURE = """
INSERT INTO ratings (player_id, preset, mu, sigma, games, updated_at)
SELECT id, $2, $3, $4, 0, $5 FROM unnest($1::text[]) AS id ORDER BY id
ON CONFLICT DO NOTHING
"""
_LOCK = """
SELECT player_id, mu, sigma, games FROM ratings
WHERE preset = $1 AND player_id = ANY($2::text[]) ORDER BY player_id FOR UPDATE
"""
_UPDATE = """
UPDATE ratings AS r SET mu = u.mu, sigma = u.sigma, games = u.games, updated_at = $6
FROM unnest($2::text[], $3::float8[], $4::float8[], $5::int[]) AS u(player_id, mu, sigma, games)
WHERE r.preset = $1 AND r.player_id = u.player_id
"""


_POINTS = """
INSERT INTO rating_points (player_id, match_id, preset, mu, sigma, games, at)
SELECT u.*, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[],
  $6::int[]) AS u ORDER BY 1, 2
ON CONFLICT DO NOTHING
"""


class Row(NamedTuple):
    player_id: str
    mu: float
    sigma: float
    games: int


async def lock(
    connection: asyncpg.Connection,
    preset: str,
    player_ids: Sequence[str],
    start: tuple[float, float],
    at: datetime,
) -> list[Row]:
    """The players' rows at a preset, locked until the commit; a missing one is made first
    with the `start` (mu, sigma)."""
    ids = sorted(player_ids)
    await connection.execute(_ENSURE, ids, preset, start[0], start[1], at)
    return [Row(*found) for found in await connection.fetch(_LOCK, preset, ids)]


async def update(
    connection: asyncpg.Connection, preset: str, rows: Sequence[Row], at: datetime
) -> None:
    ordered = sorted(rows)
    columns = [list(column) for column in zip(*ordered, strict=True)] if ordered else [[]] * 4
    await connection.execute(_UPDATE, preset, *columns, at)


class Point(NamedTuple):
    """A rating right after the match `match_id` moved it."""

    player_id: str
    match_id: str
    preset: str
    mu: float
    sigma: float
    games: int


async def add_points(connection: asyncpg.Connection, points: Sequence[Point], at: datetime) -> None:
    """The history's points of the ratings a finish just moved (one per player and match)."""
    if points:
        columns = [list(column) for column in zip(*points, strict=True)]
        await connection.execute(_POINTS, *columns, at)


class HistoryRow(NamedTuple):
    preset: str
    mu: float
    at: datetime


async def history(session: AsyncSession, player_id: str, last: int) -> list[HistoryRow]:
    """The player's last `last` points at each preset, by preset then oldest first."""
    numbered = (
        select(
            RatingPoint.preset,
            RatingPoint.mu,
            RatingPoint.at,
            RatingPoint.games,
            func.row_number()
            .over(partition_by=RatingPoint.preset, order_by=RatingPoint.games.desc())
            .label("back"),
        )
        .where(RatingPoint.player_id == player_id)
        .subquery()
    )
    stmt = (
        select(numbered.c.preset, numbered.c.mu, numbered.c.at)
        .where(numbered.c.back <= last)
        .order_by(numbered.c.preset, numbered.c.games)
    )
    return [HistoryRow(*row) for row in (await session.execute(stmt)).all()]


async def of_players(
    session: AsyncSession, preset: str | None, player_ids: Sequence[str]
) -> list[Rating]:
    """The players' ratings (at one preset, or every preset), by player then preset."""
    stmt = select(Rating).where(Rating.player_id.in_(list(player_ids)))
    if preset is not None:
        stmt = stmt.where(Rating.preset == preset)
    stmt = stmt.order_by(Rating.player_id, Rating.preset)
    return list((await session.execute(stmt)).scalars())


class BoardRow(NamedTuple):
    player_id: str
    name: str
    mu: float
    sigma: float
    games: int
    ordinal: float


async def board(
    session: AsyncSession, preset: str, after: tuple[float, str] | None, limit: int
) -> list[BoardRow]:
    """A page of the preset's leaderboard: highest `ordinal` first, then player id, strictly
    after the keyset `after` (the last row of the page before)."""
    stmt = (
        select(Rating.player_id, Player.name, Rating.mu, Rating.sigma, Rating.games, Rating.ordinal)
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.preset == preset, Rating.games > 0)
        .order_by(Rating.ordinal.desc(), Rating.player_id)
        .limit(limit)
    )
    if after is not None:
        ordinal, player_id = after
        # Descending ordinal, ascending id: "after" is a lower ordinal, or the same and a later id.
        stmt = stmt.where(
            (Rating.ordinal < ordinal)
            | ((Rating.ordinal == ordinal) & (Rating.player_id > player_id))
        )
    return [BoardRow(*row) for row in (await session.execute(stmt)).all()]


class SeatRow(NamedTuple):
    seat: int
    type: str
    strategy: str | None
    player_id: str | None


class MatchRow(NamedTuple):
    ruleset: str
    rated: bool
    spectators: bool
    tournament_id: str | None
    seats: list[SeatRow]


async def match_seats(session: AsyncSession, match_id: str) -> MatchRow | None:
    """A match's preset, whether it is rated, who may watch it, and its seats' holders."""
    found = (
        await session.execute(
            select(Match.ruleset, Match.rated, Match.spectators, Match.tournament_id).where(
                Match.id == match_id
            )
        )
    ).first()
    if found is None:
        return None
    seats = await session.execute(
        select(Seat.seat, Seat.type, Seat.strategy, Seat.player_id)
        .where(Seat.match_id == match_id)
        .order_by(Seat.seat)
    )
    ruleset, rated, spectators, tournament_id = found
    held = [SeatRow(*row) for row in seats]
    return MatchRow(ruleset, rated, spectators, tournament_id, held)


_EARLIER = """
SELECT a.player_id, b.player_id, count(DISTINCT m.id) FROM matches AS m
JOIN seats AS a ON a.match_id = m.id AND a.player_id = ANY($1::text[])
JOIN seats AS b ON b.match_id = m.id AND b.player_id = ANY($1::text[])
WHERE a.player_id <> b.player_id AND m.rated AND m.status = 'finished'
  AND m.finished_at >= $2 AND m.started_at IS NOT NULL AND NOT (m.id = ANY($3::text[]))
  AND NOT EXISTS (
    SELECT 1 FROM seats AS s WHERE s.match_id = m.id AND s.type = 'human' AND NOT s.moved
  )
GROUP BY a.player_id, b.player_id
"""


async def earlier_results(
    connection: asyncpg.Connection,
    player_ids: Sequence[str],
    since: datetime,
    excluding: Sequence[str],
) -> dict[tuple[str, str], int]:
    """How many rated results (every holder moved) each pair of these players had together
    since `since`, the matches `excluding` left out: {(player, opponent): count}."""
    rows = await connection.fetch(_EARLIER, sorted(player_ids), since, list(excluding))
    return {(a, b): int(count) for a, b, count in rows}
