"""Records and leaderboards (seed 003), counted by one rule (docs/API.md, Leaderboards and records).

What counts, in both: a match finished with a winner, at its preset's default target, for each
human seat whose holder played it to the end and held no other seat of it (self-play, hot-seat,
counts for nothing). A finish's margin is its score minus the best other
seat's score (negative for a loss), the same number on the board and in the records.
"""

from __future__ import annotations

from typing import Any, cast

import asyncpg
from sqlalchemy import Table, case, select
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlalchemy.dialects.postgresql import asyncpg as asyncpg_dialect
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.store.models import Finish, Player, Record

STRENGTH = {"random": 0, "plain": 1, "planner": 2}


def _iso(moment: Any) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def opponent_kind(table: Any, seat: int) -> str:
    """`human` if any other seat was human, else the strongest computer at the table."""
    others = [row for row in table.seats if row.seat != seat]
    if any(row.type == "human" for row in others):
        return "human"
    strategies = [row.strategy or "planner" for row in others]
    best = max(strategies, key=lambda name: STRENGTH.get(name, 0))
    return "plain" if best in ("random", "plain") else "planner"


def finish_rows(table: Any, now: Any) -> list[dict[str, Any]]:
    """The `finishes` rows of a match that just finished with a winner: one per human holder."""
    if table.state.result is None or table.state.status != "finished":
        return []
    result = table.state.result.to_dict()
    if result["winner"] is None:
        return []
    scores = list(result["scores"])
    preset = engine.PRESETS[table.state.ruleset.name]
    default_target = table.state.ruleset.target == preset.target
    rows = []
    holders = [row.player_id for row in table.seats if row.type == "human"]
    for row in table.seats:
        if row.type != "human" or row.player_id is None or row.forfeited or row.autopilot:
            continue
        if holders.count(row.player_id) > 1:
            continue  # hot-seat play: one person is not their own opponent (docs/API.md)
        score = scores[row.seat]
        best_other = max(s for i, s in enumerate(scores) if i != row.seat)
        rows.append(
            {
                "match_id": table.match.id,
                "player_id": row.player_id,
                "ruleset": preset.name,
                "opponent": opponent_kind(table, row.seat),
                "score": score,
                "margin": score - best_other,
                "won": result["winner"] == row.seat,
                "default_target": default_target,
                "finished_at": now,
            }
        )
    return rows


FINISHES = cast(Table, Finish.__table__)
RECORDS = cast(Table, Record.__table__)


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

    def pick(when: Any, column: str) -> Any:
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


async def write_finishes(connection: asyncpg.Connection, rows: list[dict[str, Any]]) -> None:
    """Store finishes (one per player and match) and fold them into the players' records.

    Two statements for any number of rows (executemany), in the transaction of the step (or
    the recovery job's batch) that ended the matches. The rows are applied in key order, so
    two transactions touching the same players' records lock them in the same order and
    cannot deadlock; finishes of one key keep their given order.
    """
    if rows:
        finishes, records = _statement_rows(rows)
        for (sql, names), params in ((_ON_DRIVER[0], finishes), (_ON_DRIVER[1], records)):
            await connection.executemany(sql, [tuple(p[name] for name in names) for p in params])


def _statement_rows(
    rows: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The parameters of the finishes insert and of the records upsert, in key order."""
    rows = sorted(rows, key=lambda r: (r["player_id"], r["ruleset"], r["opponent"]))
    counted = [row for row in rows if row["default_target"]]  # the board's rule, in both
    records = [
        {
            "player_id": row["player_id"],
            "ruleset": row["ruleset"],
            "opponent": row["opponent"],
            "best_score": row["score"],
            "best_score_at": row["finished_at"],
            "best_score_match_id": row["match_id"],
            "best_margin": row["margin"],
            "best_margin_at": row["finished_at"],
            "leaderboard_eligible": True,
        }
        for row in counted
    ]
    return rows, records


def _compiled_for_driver(statement: Insert, names: list[str]) -> tuple[str, list[str]]:
    dialect = asyncpg_dialect.dialect()  # type: ignore[no-untyped-call]
    compiled = statement.compile(dialect=dialect, column_keys=names)
    return compiled.string, list(compiled.positiontup or ())


_FINISH_KEYS = [c.name for c in FINISHES.columns]
_RECORD_KEYS = [c.name for c in RECORDS.columns]  # every column: _statement_rows fills them
_ON_DRIVER = (
    _compiled_for_driver(_FINISH_INSERT, _FINISH_KEYS),
    _compiled_for_driver(_RECORD_UPSERT, _RECORD_KEYS),
)


async def records_of(session: AsyncSession, player_id: str) -> list[dict[str, Any]]:
    stmt = (
        select(Record)
        .where(Record.player_id == player_id)
        .order_by(Record.ruleset, Record.opponent)
    )
    return [
        {
            "ruleset": r.ruleset,
            "opponent": r.opponent,
            "best_score": r.best_score,
            "best_score_at": _iso(r.best_score_at),
            "best_margin": r.best_margin,
            "best_margin_at": _iso(r.best_margin_at),
        }
        for r in (await session.execute(stmt)).scalars()
    ]


async def leaderboard(session: AsyncSession, ruleset: str, opponent: str) -> list[dict[str, Any]]:
    if ruleset not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise engine.UnknownRuleset(f"unknown ruleset {ruleset[:40]!r}; the presets are {known}")
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
    rows = (await session.execute(stmt)).all()
    return [
        {
            "rank": i + 1,
            "player_id": r.player_id,
            "name": r.name,
            "score": r.score,
            "margin": r.margin,
            "finished_at": _iso(r.finished_at),
            "match_id": r.match_id,
        }
        for i, r in enumerate(rows)
    ]
