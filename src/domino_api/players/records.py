"""Records and leaderboards (seed 003), counted by one rule (docs/API.md, Leaderboards and records).

What counts, in both: a match finished with a winner, at its preset's default target, for each
human seat whose holder played it to the end and held no other seat of it (self-play, hot-seat,
counts for nothing). A finish's margin is its score minus the best other
seat's score (negative for a loss), the same number on the board and in the records.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg
import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.engine.clock_text import iso
from domino_api.engine.table import Table
from domino_api.engine.teams import opponents, won_by
from domino_api.players.schemas import LeaderboardRow, RecordOut
from domino_api.store import records_repo
from domino_api.store.records_repo import FinishRow, RecordRow

STRENGTH = {"random": 0, "plain": 1, "planner": 2}


def opponent_kind(table: Table, seat: int) -> str:
    """`human` if any opponent was human, else the strongest computer among them (in
    partnership the opponents are the other team: a partner is no opponent)."""
    against = opponents(table.state.ruleset, seat)
    others = [row for row in table.seats if row.seat in against]
    if any(row.type == "human" for row in others):
        return "human"
    strategies = [row.strategy or "planner" for row in others]
    best = max(strategies, key=lambda name: STRENGTH.get(name, 0))
    return "plain" if best in ("random", "plain") else "planner"


def finish_rows(table: Table, now: datetime | None) -> list[FinishRow]:
    """The `finishes` rows of a match that just finished with a winner: one per human holder."""
    if table.state.result is None or table.state.status != "finished":
        return []
    result = table.state.result
    if result.winner is None:
        return []
    scores = result.scores
    preset = engine.PRESETS[table.state.ruleset.name]
    ruleset = table.state.ruleset
    # A game to the preset's target, not a best-of (a best-of-1 ends at its first hand's
    # winner: its score is not a game to 100's).
    default_target = ruleset.target == preset.target and ruleset.best_of == preset.best_of
    rows: list[FinishRow] = []
    holders = [row.player_id for row in table.seats if row.type == "human"]
    for row in table.seats:
        if row.type != "human" or row.player_id is None or row.forfeited or row.autopilot:
            continue
        if holders.count(row.player_id) > 1:
            continue  # hot-seat play: one person is not their own opponent (docs/API.md)
        score = scores[row.seat]
        best_other = max(scores[i] for i in opponents(ruleset, row.seat))
        rows.append(
            FinishRow(
                match_id=table.match.id,
                player_id=row.player_id,
                ruleset=preset.name,
                opponent=opponent_kind(table, row.seat),
                score=score,
                margin=score - best_other,
                won=won_by(ruleset, result.winner, row.seat),
                default_target=default_target,
                finished_at=now,
            )
        )
    return rows


async def write_finishes(connection: asyncpg.Connection, rows: list[FinishRow]) -> None:
    """Store finishes (one per player and match) and fold them into the players' records, in
    the transaction of the step (or the recovery job's batch) that ended the matches. The rows
    go in key order, so two transactions touching the same players' records lock them in the
    same order and cannot deadlock; finishes of one key keep their given order."""
    if rows:
        finishes, records = _statement_rows(rows)
        await records_repo.write_finishes(connection, finishes, records)


def _statement_rows(
    rows: list[FinishRow],
) -> tuple[list[FinishRow], list[RecordRow]]:
    """The parameters of the finishes insert and of the records upsert, in key order."""
    rows = sorted(rows, key=lambda r: (r.player_id, r.ruleset, r.opponent))
    counted = [row for row in rows if row.default_target]  # the board's rule, in both
    records = [
        RecordRow(
            player_id=row.player_id,
            ruleset=row.ruleset,
            opponent=row.opponent,
            best_score=row.score,
            best_score_at=row.finished_at,
            best_score_match_id=row.match_id,
            best_margin=row.margin,
            best_margin_at=row.finished_at,
            leaderboard_eligible=True,
        )
        for row in counted
    ]
    return rows, records


async def records_of(session: AsyncSession, player_id: str) -> list[RecordOut]:
    return [
        msgspec.convert(
            {
                "ruleset": r.ruleset,
                "opponent": r.opponent,
                "best_score": r.best_score,
                "best_score_at": iso(r.best_score_at),
                "best_margin": r.best_margin,
                "best_margin_at": iso(r.best_margin_at),
            },
            RecordOut,
        )
        for r in await records_repo.records_of(session, player_id)
    ]


async def leaderboard(session: AsyncSession, ruleset: str, opponent: str) -> list[LeaderboardRow]:
    if ruleset not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise engine.UnknownRuleset(f"unknown ruleset {ruleset[:40]!r}; the presets are {known}")
    return [
        LeaderboardRow(
            rank=i + 1,
            player_id=r.player_id,
            name=r.name,
            score=r.score,
            margin=r.margin,
            finished_at=iso(r.finished_at),
            match_id=r.match_id,
        )
        for i, r in enumerate(await records_repo.best_finishes(session, ruleset, opponent))
    ]
