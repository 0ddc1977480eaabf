"""HTTP routes for ratings: a preset's ratings of some players (the seats of a table), one
player's ratings, and a preset's leaderboard a page at a time (docs/API.md, "Ratings")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from domino_api.engine.rulesets import PRESETS
from domino_api.errors import PlayerNotFound
from domino_api.players import records
from domino_api.ratings import service
from domino_api.ratings.schemas import (
    BoardPage,
    MatchRatings,
    PlayerRatings,
    PresetRatings,
    RecordsOut,
)
from domino_api.store import players_repo
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, UnitOfWork
from domino_api.web.problems import AUTH, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["ratings"], dependencies=NO_STRAY_BODY)

MAX_PLAYERS = 8  # two tables' seats
Preset = Annotated[
    str, Query(max_length=32, description="The preset", json_schema_extra={"enum": list(PRESETS)})
]


ID = "[0-9A-Za-z-]{1,36}"  # a player id's characters (no NUL reaches PostgreSQL)
PLAYER_IDS = f"^{ID}(,{ID}){{0,{MAX_PLAYERS - 1}}}$"


@router.get(
    "/ratings",
    summary="Some players' ratings at a preset, and the computers'",
    responses=struct_answer(PresetRatings)
    | problems(*AUTH, *INPUT, "unknown_ruleset", "player_not_found"),
)
async def ratings(
    preset: Preset,
    _: CurrentPlayer,
    session: UnitOfWork,
    players: Annotated[
        str,
        Query(
            pattern=PLAYER_IDS,
            description="Player ids, comma-separated (at most 8): a table's seats' holders",
        ),
    ],
) -> FastJSONResponse:
    """Each player's rating at the preset, in the order asked (a player without a rated match
    there: the starting 1500 with deviation 500 and 0 games), and the computers' fixed
    ratings. An unknown player is `404 player_not_found`."""
    ids = players.split(",")
    known = await players_repo.by_ids(session, ids)
    if missing := [pid for pid in ids if pid not in known]:
        raise PlayerNotFound(f"No player has the id {missing[0][:36]!r}.")
    return FastJSONResponse(await service.at_preset(session, preset, ids))


@router.get(
    "/matches/{match_id}/ratings",
    summary="Each seat's rating at the match's preset",
    responses=struct_answer(MatchRatings)
    | problems(*AUTH, *INPUT, "match_not_found", "not_seated"),
)
async def match_ratings(
    match_id: Annotated[str, Path(max_length=36, description="The match id")],
    player: CurrentPlayer,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Each seat's rating at the match's preset as it stands (a computer's is fixed), and
    whether the match is rated; for whoever may look at the match (its seats, its spectators),
    else `403 not_seated`."""
    return FastJSONResponse(await service.of_match(session, match_id, player.id))


@router.get(
    "/players/{player_id}/ratings",
    summary="A player's ratings at every preset",
    responses=struct_answer(PlayerRatings) | problems(*AUTH, *INPUT, "player_not_found"),
)
async def player_ratings(
    player_id: Annotated[str, Path(max_length=36, description="The player id")],
    _: CurrentPlayer,
    session: UnitOfWork,
) -> FastJSONResponse:
    """A player's rating, deviation and rated matches at every preset they played a rated
    match of."""
    if await players_repo.by_id(session, player_id) is None:
        raise PlayerNotFound("No player has this id.")
    return FastJSONResponse(await service.of_player(session, player_id))


@router.get(
    "/ratings/leaderboard",
    summary="A preset's leaderboard by rating",
    responses=struct_answer(BoardPage) | problems(*AUTH, *INPUT, "unknown_ruleset"),
)
async def leaderboard(
    preset: Preset,
    _: CurrentPlayer,
    session: UnitOfWork,
    cursor: Annotated[
        str | None, Query(max_length=200, description="The `next_cursor` of the page before")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 20,
) -> FastJSONResponse:
    """The players with a rated match at the preset, the highest rating minus three
    deviations first (an uncertain rating ranks lower until more matches make it sure), then
    by player id; `next_cursor` fetches the next page. A cursor this server did not give is
    `422 validation_error`."""
    return FastJSONResponse(await service.board(session, preset, cursor, limit))


@router.get(
    "/players/me/records",
    tags=["players"],
    summary="Your best final score and widest margin per game",
    responses=struct_answer(RecordsOut) | problems(*AUTH),
)
async def my_records(player: CurrentPlayer, session: UnitOfWork) -> FastJSONResponse:
    """The caller's best final score and widest margin per (ruleset, opponent kind),
    counting what the leaderboards count (docs/API.md, Leaderboards), and the caller's ratings.
    """
    rated = await service.of_player(session, player.id)
    found = await records.records_of(session, player.id)
    return FastJSONResponse(RecordsOut(records=found, ratings=rated.ratings))
