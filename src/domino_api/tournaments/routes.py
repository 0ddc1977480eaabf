"""HTTP routes for tournaments (`/v1/tournaments`, openapi/openapi.json): parse, call service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from domino_api.matches.service import core_of
from domino_api.tournaments import service, views
from domino_api.tournaments.event_types import TournamentEventsOut
from domino_api.tournaments.schemas import TournamentCreate, TournamentOut
from domino_api.web.deps import (
    NO_STRAY_BODY,
    CurrentPlayer,
    UnitOfWork,
    client_address,
    clock_of,
    limits_of,
    settings_of,
)
from domino_api.web.problems import AUTH, BODY, TOURNAMENT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["tournaments"], dependencies=NO_STRAY_BODY)

TournamentId = Annotated[str, Path(max_length=36, description="The tournament id")]


@router.post(
    "/tournaments",
    status_code=201,
    summary="Create a tournament",
    openapi_extra=request_body("TournamentCreate"),
    responses=struct_answer(TournamentOut, 201)
    | problems(*BODY, *AUTH, "entrant_limit@403", "rate_limited"),
)
async def create_tournament(
    body: Annotated[TournamentCreate, Depends(reader(TournamentCreate))],
    player: CurrentPlayer,
    session: UnitOfWork,
    request: Request,
) -> FastJSONResponse:
    """Create a tournament; the caller is its host. `max_entrants` counts players, or pairs in a
    tournament of pairs; the host's plan caps the players (free 10, club 20, corporate
    unlimited; a pair counts two). Budgeted per player, address and network
    (`DOMINO_TOURNAMENT_RATE_LIMIT` an hour): everyone's open-tournament list shows them.
    """
    await limits_of(request).hit_from(
        "create_tournament", client_address(request), f"player:{player.id}"
    )
    check_in_s = body.check_in_s or settings_of(request).check_in_s
    view = await service.create(session, clock_of(request), player, body, check_in_s)
    return FastJSONResponse(view, status_code=201)


@router.get(
    "/tournaments/{tournament_id}",
    summary="The tournament view",
    responses=struct_answer(TournamentOut) | problems(*TOURNAMENT),
)
async def get_tournament(
    tournament_id: TournamentId, _: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """The tournament view: entrants, rounds and matches, standings and the champion."""
    await service.enforce_due(core_of(request), tournament_id)  # before the view's first read
    return FastJSONResponse(await views.get_view(session, tournament_id))


@router.post(
    "/tournaments/{tournament_id}/entrants",
    summary="Enter the tournament",
    responses=struct_answer(TournamentOut)
    | problems(
        *TOURNAMENT,
        "tournament_started",
        "entrant_limit@409",
        "partner_refused",
        "player_not_found",
    ),
)
async def enter(
    tournament_id: TournamentId,
    player: CurrentPlayer,
    session: UnitOfWork,
    request: Request,
    partner: Annotated[
        str | None,
        Query(
            max_length=36,
            description="A pairs tournament: the partner's player id (the pair is whole once"
            " the partner enters naming you back); a classic tournament takes none (422)",
        ),
    ] = None,
) -> FastJSONResponse:
    """Enter the tournament before it starts (entering again changes nothing). A tournament on a
    partnership preset is of pairs: each player enters themself naming their `partner`."""
    entered = await service.enter(session, clock_of(request), player, tournament_id, partner)
    return FastJSONResponse(entered)


@router.delete(
    "/tournaments/{tournament_id}/entrants/me",
    summary="Leave the tournament before it starts",
    responses=struct_answer(TournamentOut) | problems(*TOURNAMENT, "tournament_started"),
)
async def leave(
    tournament_id: TournamentId, player: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """Leave the tournament before it starts."""
    return FastJSONResponse(await service.leave(session, clock_of(request), player, tournament_id))


@router.post(
    "/tournaments/{tournament_id}/start",
    summary="Host: shuffle with a recorded seed, assign byes, open round 1",
    responses=struct_answer(TournamentOut)
    | problems(*TOURNAMENT, "not_host", "tournament_started", "not_enough_entrants"),
)
async def start(
    tournament_id: TournamentId, player: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """Host only: shuffle the entrants with a recorded seed, assign byes and open round 1 (at least
    2 entrants, else `409 not_enough_entrants`).
    """
    tx = await core_of(request).writer.within(session)  # the matches it opens
    opened = await service.start(session, clock_of(request), player, tournament_id, tx.insert)
    return FastJSONResponse(opened)


@router.get(
    "/tournaments/{tournament_id}/events",
    summary="The tournament's events after a seq (entrants, rounds, matches, results)",
    responses=struct_answer(TournamentEventsOut) | problems(*TOURNAMENT),
)
async def list_events(
    tournament_id: TournamentId,
    _: CurrentPlayer,
    session: UnitOfWork,
    after: Annotated[
        int, Query(ge=0, le=2**31 - 1, description="Only events with a larger seq")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> FastJSONResponse:
    """The tournament's events after `after`: entrants, rounds, matches and results."""
    events = await views.events(session, tournament_id, after, limit)
    return FastJSONResponse(TournamentEventsOut(events))
