"""Records (seed 003): best final score and widest winning margin per ruleset and opponent kind."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.errors import ValidationFailed
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


async def on_match_finished(session: AsyncSession, table: Any, now: Any) -> None:
    """Called once when a match finishes with a winner: update each human holder's records."""
    if table.state.result is None or table.state.status != "finished":
        return
    result = table.state.result.to_dict()
    if result["winner"] is None:
        return
    scores = list(result["scores"])
    preset = engine.PRESETS[table.state.ruleset.name]
    default_target = table.state.ruleset.target == preset.target
    for row in table.seats:
        if row.type != "human" or row.player_id is None or row.forfeited or row.autopilot:
            continue
        score = scores[row.seat]
        best_other = max(s for i, s in enumerate(scores) if i != row.seat)
        margin = score - best_other
        won = result["winner"] == row.seat
        kind = opponent_kind(table, row.seat)
        await session.execute(
            insert(Finish)
            .values(
                match_id=table.match.id,
                player_id=row.player_id,
                ruleset=preset.name,
                opponent=kind,
                score=score,
                margin=margin,
                won=won,
                default_target=default_target,
                finished_at=now,
            )
            .on_conflict_do_nothing()
        )
        await _update_record(
            session, row.player_id, preset.name, kind, score, margin, won, now, table.match.id
        )


async def _update_record(
    session: AsyncSession,
    player_id: str,
    ruleset: str,
    kind: str,
    score: int,
    margin: int,
    won: bool,
    now: Any,
    match_id: str,
) -> None:
    # Insert-or-nothing first, then lock: two matches of one player ending at the same moment
    # must not both try to create the row.
    inserted = await session.execute(
        insert(Record)
        .values(
            player_id=player_id,
            ruleset=ruleset,
            opponent=kind,
            best_score=score,
            best_score_at=now,
            best_score_match_id=match_id,
            best_margin=margin if won else None,
            best_margin_at=now if won else None,
            leaderboard_eligible=True,
        )
        .on_conflict_do_nothing()
        .returning(Record.player_id)
    )
    if inserted.first() is not None:
        return
    record = await session.get(
        Record, (player_id, ruleset, kind), with_for_update=True, populate_existing=True
    )
    assert record is not None  # the conflict above means the row exists
    if score > record.best_score:
        record.best_score, record.best_score_at, record.best_score_match_id = score, now, match_id
    if won and (record.best_margin is None or margin > record.best_margin):
        record.best_margin, record.best_margin_at = margin, now


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
        raise ValidationFailed(f"Unknown ruleset {ruleset[:40]!r}.")
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
