"""Ratings: moved in the transaction of the step that ended rated matches (`finish`, an end
hook of the write core: matches/ends.py), and read by the routes (ratings/routes.py)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.engine.errors import NotSeated
from domino_api.engine.table import Table
from domino_api.errors import MatchNotFound, ValidationFailed
from domino_api.matches import access
from domino_api.matches.ends import Within
from domino_api.matches.listing import KEYSET_ID
from domino_api.ratings import weights
from domino_api.ratings.computers import COMPUTERS, computer_rating
from domino_api.ratings.model import MU, SIGMA, Entrant, Rating, rate
from domino_api.ratings.rules import Placed, outcome
from domino_api.ratings.schemas import (
    BoardEntry,
    BoardPage,
    Computer,
    ComputerRatingOut,
    MatchRatings,
    PlayerRatings,
    PresetRatings,
    RatingOut,
    SeatRatingOut,
)
from domino_api.ratings.weights import REPEAT_WINDOW
from domino_api.store import ratings_repo
from domino_api.store.ratings_repo import Point, Row

Key = tuple[str, str]  # (preset, player id)


async def finish(within: Within, tables: Sequence[Table]) -> None:
    """Move the ratings of every rated match among `tables`, in the order given (the sweep
    may end two matches of one player in one batch)."""
    rated = [
        (table.state.ruleset.name, placed, table.match.id)
        for table in tables
        if (placed := outcome(table))
    ]
    if not rated:
        return
    presets: dict[str, set[str]] = {}
    for preset, placed, _ in rated:
        presets.setdefault(preset, set()).update(p.player_id for p in placed if p.player_id)
    at = within.clock.now()
    everyone = sorted(set().union(*presets.values()))
    ended = [table.match.id for table in tables]
    earlier = await ratings_repo.earlier_results(
        within.connection, everyone, at - REPEAT_WINDOW, ended
    )
    current: dict[Key, Rating] = {}
    for preset in sorted(presets):
        rows = await ratings_repo.lock(
            within.connection, preset, sorted(presets[preset]), (MU, SIGMA), at
        )
        current |= {(preset, r.player_id): Rating(r.mu, r.sigma, r.games) for r in rows}
    points: list[Point] = []
    for preset, placed, match_id in rated:
        current |= _moved(preset, placed, current, earlier)
        humans = [p.player_id for p in placed if p.player_id]
        points += [Point(pid, match_id, preset, *_columns(current[preset, pid])) for pid in humans]
        for one in humans:  # a later match of the batch counts this one as earlier
            for other in humans:
                if one != other:
                    earlier[one, other] = earlier.get((one, other), 0) + 1
    for preset in sorted(presets):
        rows = [Row(pid, *_columns(current[preset, pid])) for pid in presets[preset]]
        await ratings_repo.update(within.connection, preset, rows, at)
    await ratings_repo.add_points(within.connection, points, at)


def _moved(
    preset: str,
    placed: Sequence[Placed],
    current: dict[Key, Rating],
    earlier: dict[tuple[str, str], int],
) -> dict[Key, Rating]:
    """The humans' new ratings, each move weighed by what the result is worth
    (ratings/weights.py)."""
    entrants = [
        Entrant(current[preset, p.player_id], p.place)
        if p.player_id
        else Entrant(computer_rating(preset, p.strategy or "planner"), p.place, fixed=True)
        for p in placed
    ]
    after = rate(entrants)
    computers = any(p.player_id is None for p in placed)
    moved: dict[Key, Rating] = {}
    for index, (p, entrant) in enumerate(zip(placed, entrants, strict=True)):
        if p.player_id is None:
            continue
        pairs = enumerate(zip(placed, entrants, strict=True))
        others = [(o, e) for i, (o, e) in pairs if i != index]
        games = [None if e.fixed else e.rating.games for _, e in others]
        rivals = [o.player_id for o, _ in others if o.player_id]
        again = max((earlier.get((p.player_id, rival), 0) for rival in rivals), default=0)
        weight = weights.establishment(games) * weights.repeat_factor(again)
        beaten = [e.rating.mu for o, e in others if o.place > p.place]
        cap = weights.computer_cap(entrant.rating.mu, beaten) if computers else None
        moved[preset, p.player_id] = weights.weighted(entrant.rating, after[index], weight, cap)
    return moved


def _columns(rating: Rating) -> tuple[float, float, int]:
    return rating.mu, rating.sigma, rating.games


def _out(player_id: str, preset: str, rating: Rating) -> RatingOut:
    return RatingOut(
        player_id=player_id,
        preset=preset,
        rating=round(rating.mu),
        deviation=round(rating.sigma),
        games=rating.games,
    )


def check_preset(preset: str) -> None:
    if preset not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise engine.UnknownRuleset(f"unknown preset {preset[:40]!r}; the presets are {known}")


def computers_of(preset: str) -> list[ComputerRatingOut]:
    return [
        ComputerRatingOut(
            strategy=msgspec.convert(name, Computer), rating=round(mu), deviation=round(sigma)
        )
        for name, (mu, sigma) in COMPUTERS[preset].items()
    ]


async def at_preset(session: AsyncSession, preset: str, player_ids: Sequence[str]) -> PresetRatings:
    """Each player's rating at the preset (a player without rated matches: the start, 0 games),
    and the computers' fixed ones."""
    check_preset(preset)
    found = {r.player_id: r for r in await ratings_repo.of_players(session, preset, player_ids)}
    ratings = [
        _out(pid, preset, Rating(found[pid].mu, found[pid].sigma, found[pid].games))
        if pid in found
        else _out(pid, preset, Rating())
        for pid in dict.fromkeys(player_ids)
    ]
    return PresetRatings(preset=preset, ratings=ratings, computers=computers_of(preset))


async def of_match(session: AsyncSession, match_id: str, player_id: str) -> MatchRatings:
    """Each seat's rating at the match's preset, for those who may look at the match
    (matches/access.py: its seats, its spectators, its tournament's host and entrants)."""
    found = await ratings_repo.match_seats(session, match_id)
    if found is None:
        raise MatchNotFound("No match has this id.")
    holders = [row.player_id for row in found.seats if row.player_id]
    if player_id not in holders and not found.spectators:
        if found.tournament_id is None:
            raise NotSeated(access.SEATED_ONLY)
        await access.require_member(session, found.tournament_id, player_id)
    preset = found.ruleset
    rows = {r.player_id: r for r in await ratings_repo.of_players(session, preset, holders)}
    seats = []
    for row in found.seats:
        if row.type == "bot":
            fixed = computer_rating(preset, row.strategy or "planner")
            seats.append(_seat(row.seat, None, fixed))
        elif row.player_id:
            got = rows.get(row.player_id)
            rating = Rating(got.mu, got.sigma, got.games) if got else Rating()
            seats.append(_seat(row.seat, row.player_id, rating))
    return MatchRatings(match_id=match_id, preset=preset, rated=found.rated, seats=seats)


def _seat(seat: int, player_id: str | None, rating: Rating) -> SeatRatingOut:
    """A seat's rating; a computer's (no holder) is fixed."""
    computer = player_id is None
    return SeatRatingOut(
        seat=seat,
        player_id=player_id,
        rating=round(rating.mu),
        deviation=round(rating.sigma),
        games=None if computer else rating.games,
        computer=computer,
    )


async def of_player(session: AsyncSession, player_id: str) -> PlayerRatings:
    """A player's ratings at every preset they played a rated match of."""
    rows = await ratings_repo.of_players(session, None, [player_id])
    return PlayerRatings(
        player_id=player_id,
        ratings=[_out(player_id, r.preset, Rating(r.mu, r.sigma, r.games)) for r in rows],
    )


async def board(session: AsyncSession, preset: str, cursor: str | None, limit: int) -> BoardPage:
    """A page of the preset's leaderboard (`ratings_repo.board`), ranks counted on from the
    cursor's."""
    check_preset(preset)
    after, ranked = _decode(cursor) if cursor is not None else (None, 0)
    rows = await ratings_repo.board(session, preset, after, limit + 1)
    shown = rows[:limit]
    entries = [
        BoardEntry(
            rank=ranked + i + 1,
            player_id=row.player_id,
            name=row.name,
            rating=round(row.mu),
            deviation=round(row.sigma),
            games=row.games,
        )
        for i, row in enumerate(shown)
    ]
    more = len(rows) > limit
    last = shown[-1] if shown else None
    next_cursor = (
        _encode(last.ordinal, last.player_id, ranked + len(shown)) if more and last else None
    )
    return BoardPage(preset=preset, entries=entries, next_cursor=next_cursor)


def _encode(ordinal: float, player_id: str, ranked: int) -> str:
    raw = json.dumps([ordinal, player_id, ranked], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


NOT_OURS = "cursor: not a cursor this server gave"


def _decode(cursor: str) -> tuple[tuple[float, str], int]:
    """The keyset and the rank a cursor names; anything this server did not give is a 422."""
    try:
        found = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValidationFailed(NOT_OURS) from None
    match found:
        case [float() | int() as ordinal, str() as player_id, int() as ranked] if (
            KEYSET_ID.fullmatch(player_id) and 0 <= ranked < 2**31 and abs(ordinal) < 1e9
        ):
            return (float(ordinal), player_id), ranked
    raise ValidationFailed(NOT_OURS)
