"""A player's public profile (docs/API.md, "Profiles"): their name and when they joined,
their ratings with the history of each, their last ended matches and their records, read
from what the committed finishes wrote (ratings, rating points, finishes, records)."""

from __future__ import annotations

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine import PRESETS
from domino_api.engine.table import computer_name
from domino_api.engine.teams import team_of
from domino_api.errors import PlayerNotFound
from domino_api.players.profile_types import (
    FinalSeat,
    HistoryPoint,
    Opponent,
    Outcome,
    PresetRating,
    ProfileOut,
    RecentMatch,
    RecordLine,
)
from domino_api.store import players_repo, profile_repo, ratings_repo, records_repo
from domino_api.store.profile_repo import EndedRow

RECENT = 10  # ended matches shown
HISTORY = 100  # points per preset's chart
OPPONENTS: dict[str, Opponent] = {"plain": "plain", "planner": "planner", "human": "human"}
_SCORES = msgspec.json.Decoder(list[int])


async def profile_of(session: AsyncSession, player_id: str) -> ProfileOut:
    """The profile of `player_id`; an unknown player is `404 player_not_found`."""
    player = await players_repo.by_id(session, player_id)
    if player is None:
        raise PlayerNotFound("No player has this id.")
    return ProfileOut(
        id=player.id,
        name=player.name,
        joined_at=player.created_at,
        ratings=await _ratings(session, player_id),
        recent=[
            _recent(row, player_id) for row in await profile_repo.ended(session, player_id, RECENT)
        ],
        records=await _records(session, player_id),
    )


async def _ratings(session: AsyncSession, player_id: str) -> list[PresetRating]:
    points: dict[str, list[HistoryPoint]] = {}
    for row in await ratings_repo.history(session, player_id, HISTORY):
        points.setdefault(row.preset, []).append(HistoryPoint(at=row.at, rating=round(row.mu)))
    return [
        PresetRating(
            preset=row.preset,
            rating=round(row.mu),
            deviation=round(row.sigma),
            games=row.games,
            history=points.get(row.preset, []),
        )
        for row in await ratings_repo.of_players(session, None, [player_id])
        if row.games > 0
    ]


def _recent(row: EndedRow, player_id: str) -> RecentMatch:
    scores = _SCORES.decode(row.scores)
    theirs = [seat.seat for seat in row.seats if seat.player_id == player_id]
    seats = [
        FinalSeat(
            seat=seat.seat,
            name=computer_name(row.seats, seat) if seat.type == "bot" else seat.name,
            computer=seat.type == "bot",
            score=scores[seat.seat] if seat.seat < len(scores) else 0,
            theirs=seat.seat in theirs,
        )
        for seat in row.seats
    ]
    finished = row.status == "finished"
    return RecentMatch(
        id=row.id,
        preset=row.ruleset,
        status="finished" if finished else "abandoned",
        outcome=_outcome(finished, row.winner, _side(row.ruleset, theirs)),
        rated=row.rated,
        finished_at=row.finished_at,
        seats=seats,
    )


def _side(preset: str, theirs: list[int]) -> list[int]:
    """The seats whose win is the player's: theirs, and their partners' in partnership."""
    ruleset = PRESETS.get(preset)
    if ruleset is None or not ruleset.partnership:
        return theirs
    return [seat for seat in range(ruleset.players) if team_of(seat) in map(team_of, theirs)]


def _outcome(finished: bool, winner: str | None, theirs: list[int]) -> Outcome:
    if not finished:
        return "abandoned"
    if winner is None:
        return "drawn"
    return "won" if int(winner) in theirs else "lost"


async def _records(session: AsyncSession, player_id: str) -> list[RecordLine]:
    """One line per (preset, opponent kind) with a counted finish: the tally and the bests."""
    best = {(r.ruleset, r.opponent): r for r in await records_repo.records_of(session, player_id)}
    lines = []
    for row in await profile_repo.tally(session, player_id):
        record = best.get((row.ruleset, row.opponent))
        lines.append(
            RecordLine(
                preset=row.ruleset,
                opponent=OPPONENTS[row.opponent],
                wins=row.wins,
                losses=row.losses,
                best_score=record.best_score if record else None,
                best_margin=record.best_margin if record else None,
            )
        )
    return lines
