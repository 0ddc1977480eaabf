"""SQL about finishes, records and leaderboards (what counts is players/records.py's rule)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg
from msgspec import Struct
from sqlalchemy import ColumnElement, Row, case, create_mock_engine, select
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.models import Base, Finish, Player, Record


class FinishRow(Struct, frozen=True, kw_only=True):
    """A `finishes` row: one human holder's finish of one match."""

    match_id: str
    player_id: str
    ruleset: str
    opponent: str
    score: int
    margin: int
    won: bool
    default_target: bool
    finished_at: datetime | None


class RecordRow(Struct, frozen=True, kw_only=True):
    """The parameters of one `records` upsert (every column)."""

    player_id: str
    ruleset: str
    opponent: str
    best_score: int
    best_score_at: datetime | None
    best_score_match_id: str
    best_margin: int | None
    best_margin_at: datetime | None
    leaderboard_eligible: bool


FINISHES, RECORDS = (Base.metadata.tables[m.__tablename__] for m in (Finish, Record))


def _record_upsert() -> Insert:
    """Insert a player's first record, else keep the best score and the widest winning margin.

    One statement per finish instead of insert-or-nothing, lock and update: two finishes of one
    player at the same moment serialise on the row (ON CONFLICT locks it), and an earlier best
    is kept on a tie (strictly greater replaces it).
    """
    new = insert(RECORDS)
    old, ex = RECORDS.c, new.excluded
    better_score = ex.best_score > old.best_score
    wider_margin = ex.best_margin.is_not(None) & (
        old.best_margin.is_(None) | (ex.best_margin > old.best_margin)
    )

    def pick(when: ColumnElement[bool], column: str) -> ColumnElement[object]:
        return case((when, ex[column]), else_=old[column])

    return new.on_conflict_do_update(
        index_elements=[old.player_id, old.ruleset, old.opponent],
        set_={
            "best_score": pick(better_score, "best_score"),
            "best_score_at": pick(better_score, "best_score_at"),
            "best_score_match_id": pick(better_score, "best_score_match_id"),
            "best_margin": pick(wider_margin, "best_margin"),
            "best_margin_at": pick(wider_margin, "best_margin_at"),
        },
        where=better_score | wider_margin,  # no new row version when nothing improves
    )


_FINISH_INSERT = insert(FINISHES).on_conflict_do_nothing()
_RECORD_UPSERT = _record_upsert()


def _compiled_for_driver(statement: Insert, names: list[str]) -> tuple[str, list[str]]:
    dialect = create_mock_engine("postgresql+asyncpg://", None).dialect
    compiled = statement.compile(dialect=dialect, column_keys=names)
    return compiled.string, list(compiled.positiontup or ())


_FINISH_KEYS = [c.name for c in FINISHES.columns]
_RECORD_KEYS = [c.name for c in RECORDS.columns]  # every column: players/records.py fills them
_ON_DRIVER = (
    _compiled_for_driver(_FINISH_INSERT, _FINISH_KEYS),
    _compiled_for_driver(_RECORD_UPSERT, _RECORD_KEYS),
)


async def write_finishes(
    connection: asyncpg.Connection, finishes: Sequence[FinishRow], records: Sequence[RecordRow]
) -> None:
    """Two statements for any number of rows (executemany), in the caller's transaction, each
    row applied in the order given."""
    for (sql, names), params in (
        (_ON_DRIVER[0], finishes),
        (_ON_DRIVER[1], records),
    ):
        await connection.executemany(sql, [tuple(getattr(p, n) for n in names) for p in params])


async def records_of(session: AsyncSession, player_id: str) -> list[Record]:
    stmt = (
        select(Record)
        .where(Record.player_id == player_id)
        .order_by(Record.ruleset, Record.opponent)
    )
    return list((await session.execute(stmt)).scalars())


async def best_finishes(
    session: AsyncSession, ruleset: str, opponent: str
) -> Sequence[Row[tuple[str, str, str, str, int, int, bool, bool, datetime, str]]]:
    """The top 10 players' best finishes at the preset's default target against `opponent`,
    with their names."""
    # Each player's best finish: highest score, then widest margin, then the earlier finish.
    best = (
        select(Finish)
        .where(Finish.ruleset == ruleset, Finish.opponent == opponent, Finish.default_target)
        .distinct(Finish.player_id)
        .order_by(Finish.player_id, Finish.score.desc(), Finish.margin.desc(), Finish.finished_at)
        .subquery()
    )
    stmt = (
        select(best, Player.name)
        .join(Player, Player.id == best.c.player_id)
        .order_by(best.c.score.desc(), best.c.margin.desc(), best.c.finished_at)
        .limit(10)
    )
    return (await session.execute(stmt)).all()
