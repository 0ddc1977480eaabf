"""HTTP routes for players, tile backs, records and leaderboards."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request

from domino_api.engine.rulesets import PRESETS
from domino_api.players import records, service, tile_backs
from domino_api.players.schemas import (
    LeaderboardOut,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    PlayerPatch,
)
from domino_api.players.tile_backs import TileBack
from domino_api.store import players_repo
from domino_api.store.db import after_commit
from domino_api.store.models import Player
from domino_api.web.deps import (
    NO_STRAY_BODY,
    CurrentPlayer,
    UnitOfWork,
    client_address,
    clock_of,
    limits_of,
)
from domino_api.web.problems import AUTH, BODY, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

# What the tables make of a player's new tile back, once committed: handed in where the app is
# built (app/api.py), so players import nothing of matches, which import players.
TileBackChanged = Callable[[Player], Awaitable[None]]

router = APIRouter(prefix="/v1", tags=["players"], dependencies=NO_STRAY_BODY)


@router.post(
    "/players",
    status_code=201,
    summary="Create a player (the token is shown once)",
    openapi_extra=request_body("PlayerCreate"),
    responses=struct_answer(PlayerCreated, 201) | problems(*BODY, "rate_limited", "service_busy"),
)
async def create_player(
    body: Annotated[PlayerCreate, Depends(reader(PlayerCreate))],
    request: Request,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Create a player with a name (1-32 characters). The answer holds the bearer token, shown this
    once and stored only as a hash: send it as `Authorization: Bearer <token>`. Rate-limited per
    client address.
    """
    await limits_of(request).hit_from("create_player", client_address(request))
    created = await service.create_player(session, clock_of(request), body.name)
    return FastJSONResponse(created, status_code=201)


@router.get(
    "/players/me", summary="Your profile", responses=struct_answer(PlayerOut) | problems(*AUTH)
)
async def me(player: CurrentPlayer, session: UnitOfWork) -> FastJSONResponse:
    """The caller's profile: name, tile back, plan and match defaults."""
    # Read fresh: the auth cache may hold a profile an operator changed (`plan set`) a moment ago.
    fresh = await players_repo.by_id(session, player.id)
    return FastJSONResponse(service.profile(fresh or player))


@router.patch(
    "/players/me",
    summary="Change your name, tile back or match defaults",
    openapi_extra=request_body("PlayerPatch"),
    responses=struct_answer(PlayerOut)
    | problems(*BODY, *AUTH, "unknown_tile_back", "rate_limited"),
)
async def patch_me(
    body: Annotated[PlayerPatch, Depends(reader(PlayerPatch))],
    request: Request,
    player: CurrentPlayer,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Change the caller's name, tile back or match defaults (`settings`: defaults for matches the
    caller creates, applied where the preset allows the override). A new tile back is announced
    (`tile_back_changed`) in the caller's live matches. Changes of name or tile back are
    budgeted per player (`DOMINO_PROFILE_RATE_LIMIT`): each is shown at every live table.
    """
    renamed = body.name is not None and body.name != player.name
    new_back = body.tile_back is not None and body.tile_back != player.tile_back
    if renamed or new_back:
        await limits_of(request).hit("profile", f"player:{player.id}")
    fresh = await service.update_player(session, player, body)
    request.app.state.auth_cache.forget_player(player.id)
    if new_back:
        # Once the change has committed, each live match of the player's takes it as a step
        # of its own (before the answer, which then shows it everywhere).
        on_tile_back: TileBackChanged = request.app.state.on_tile_back
        after_commit(session, functools.partial(on_tile_back, fresh))
    return FastJSONResponse(service.profile(fresh))


@router.get(
    "/tile-backs",
    summary="The tile-back catalog",
    responses=struct_answer(TileBack, many=True) | problems(*AUTH),
)
async def list_tile_backs(_: CurrentPlayer) -> FastJSONResponse:
    """The tile-back catalogue; each entry's `image` (an SVG drawing or a NASA photograph cut
    to a tile, with its `credit`) is served by this server."""
    return FastJSONResponse(tile_backs.CATALOG)


@router.get(
    "/leaderboards/{ruleset}",
    summary="Top 10 by best final score",
    responses=struct_answer(LeaderboardOut)
    | problems(*AUTH, "validation_error", "unknown_ruleset"),
)
async def leaderboard(
    ruleset: Annotated[str, Path(json_schema_extra={"enum": list(PRESETS)})],
    _: CurrentPlayer,
    session: UnitOfWork,
    opponent: Literal["plain", "planner", "human"] = Query(
        "planner",
        description="The opponent kind (default `planner`; the answer's `opponent` says which)",
    ),
) -> FastJSONResponse:
    """The top 10 players of a preset against one kind of opponent, by best final score
    (docs/API.md, Leaderboards).
    """
    entries = await records.leaderboard(session, ruleset, opponent)
    return FastJSONResponse(LeaderboardOut(ruleset=ruleset, opponent=opponent, entries=entries))
