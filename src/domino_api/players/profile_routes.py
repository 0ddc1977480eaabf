"""HTTP route of a player's public profile (docs/API.md, "Profiles")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from domino_api.players.profile import profile_of
from domino_api.players.profile_types import ProfileOut
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, UnitOfWork
from domino_api.web.problems import AUTH, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["players"], dependencies=NO_STRAY_BODY)

PlayerId = Annotated[
    str, Path(pattern="^[0-9A-Za-z-]{1,36}$", max_length=36, description="The player id")
]


@router.get(
    "/players/{player_id}/profile",
    summary="A player's profile: ratings and their history, recent matches, records",
    responses=struct_answer(ProfileOut) | problems(*AUTH, *INPUT, "player_not_found"),
)
async def profile(player_id: PlayerId, _: CurrentPlayer, session: UnitOfWork) -> FastJSONResponse:
    """Any player's profile, for every signed-in player: name, when they joined, their rating
    at each preset they played a rated match of with its history (the rating after each rated
    match, oldest first), their last 10 finished or abandoned matches (each seat's name and
    final score; never a hand, never a game number) and their wins, losses and bests per
    preset and opponent kind. An unknown id is `404 player_not_found`."""
    return FastJSONResponse(await profile_of(session, player_id))
