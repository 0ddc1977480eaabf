"""HTTP routes for players, tile backs, records and leaderboards."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request

from domino_api.deps import ClockDep, CoreDep, CurrentPlayer, Db, client_address, limits_of
from domino_api.errors import PROBLEM_RESPONSES
from domino_api.matches.service import announce_tile_back
from domino_api.players import records, service, tile_backs
from domino_api.players.schemas import (
    LeaderboardOut,
    PlayerCreate,
    PlayerCreated,
    PlayerOut,
    PlayerPatch,
    RecordsOut,
    TileBack,
)
from domino_api.store import players_repo
from domino_api.store.db import transaction

router = APIRouter(prefix="/v1", tags=["players"], responses=PROBLEM_RESPONSES)


@router.post("/players", status_code=201, summary="Create a player (the token is shown once)")
async def create_player(
    body: PlayerCreate, request: Request, db: Db, clock: ClockDep
) -> PlayerCreated:
    await limits_of(request).hit("create_player", client_address(request))
    async with transaction(db) as session:
        return PlayerCreated(**await service.create_player(session, clock, body.name))


@router.get("/players/me", summary="Your profile")
async def me(player: CurrentPlayer, db: Db) -> PlayerOut:
    # Read fresh: the auth cache may hold a profile an operator changed (`plan set`) a moment ago.
    async with transaction(db) as session:
        fresh = await players_repo.by_id(session, player.id)
    return PlayerOut(**service.profile(fresh or player))


@router.patch("/players/me", summary="Change your name, tile back or match defaults")
async def patch_me(
    body: PlayerPatch, request: Request, player: CurrentPlayer, db: Db, core: CoreDep
) -> PlayerOut:
    async with transaction(db) as session:
        fresh = await service.update_player(session, player, body)
        request.app.state.auth_cache.forget_player(player.id)
    if body.tile_back is not None and body.tile_back != player.tile_back:
        # Each live match of the player's takes the change as a step of its own.
        await announce_tile_back(core, fresh)
    return PlayerOut(**service.profile(fresh))


@router.get("/tile-backs", summary="The tile-back catalog")
async def list_tile_backs(_: CurrentPlayer) -> list[TileBack]:
    return [TileBack(**entry) for entry in tile_backs.catalog()]


@router.get("/players/me/records", summary="Your best final score and widest margin per game")
async def my_records(player: CurrentPlayer, db: Db) -> RecordsOut:
    async with transaction(db) as session:
        return RecordsOut(records=await records.records_of(session, player.id))


@router.get("/leaderboards/{ruleset}", summary="Top 10 by best final score")
async def leaderboard(
    ruleset: str,
    _: CurrentPlayer,
    db: Db,
    opponent: Literal["plain", "planner", "human"] = Query("planner"),
) -> LeaderboardOut:
    async with transaction(db) as session:
        entries = await records.leaderboard(session, ruleset, opponent)
    return LeaderboardOut(ruleset=ruleset, opponent=opponent, entries=entries)
