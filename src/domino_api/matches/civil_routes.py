"""HTTP routes of a civil table: talk off, mutes, reports and blocks (matches/civil.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from domino_api.engine.view_types import ViewOut
from domino_api.matches import civil, hosting
from domino_api.matches.civil_models import BlockOut, BlocksOut, MutesOut, ReportBody, ReportOut
from domino_api.matches.service import core_of
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, UnitOfWork, clock_of, limits_of
from domino_api.web.problems import AUTH, BODY, MATCH, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["table talk"], dependencies=NO_STRAY_BODY)

MatchId = Annotated[str, Path(max_length=36, description="The match id")]
SeatNo = Annotated[int, Path(ge=0, le=7)]
MINE = (*MATCH, "not_seated", "seat_not_found", "own_seat")


@router.put(
    "/matches/{match_id}/talk-off",
    summary="Host: turn table talk off",
    responses=struct_answer(ViewOut) | problems(*MATCH, "not_host", "match_over"),
)
async def talk_off(match_id: MatchId, player: CurrentPlayer, request: Request) -> FastJSONResponse:
    """Host only: every message is refused (`409 talk_off`, over REST and the socket) until
    talk is on again; every seat is told by `talk_changed`, and the view's `talk_off` says so.
    """
    view = await civil.set_talk(core_of(request), player, match_id, False)
    return FastJSONResponse(hosting.shown_to(view))


@router.delete(
    "/matches/{match_id}/talk-off",
    summary="Host: turn table talk on again",
    responses=struct_answer(ViewOut) | problems(*MATCH, "not_host", "match_over"),
)
async def talk_on(match_id: MatchId, player: CurrentPlayer, request: Request) -> FastJSONResponse:
    """Host only: table talk is allowed again (`talk_changed`)."""
    view = await civil.set_talk(core_of(request), player, match_id, True)
    return FastJSONResponse(hosting.shown_to(view))


@router.get(
    "/matches/{match_id}/mutes",
    summary="The seats whose talk you muted",
    responses=struct_answer(MutesOut) | problems(*MATCH, "not_seated"),
)
async def mutes(match_id: MatchId, player: CurrentPlayer, session: UnitOfWork) -> FastJSONResponse:
    """The seats of this match whose talk the caller muted, on any of its devices."""
    return FastJSONResponse(await civil.mutes(session, player, match_id))


@router.put(
    "/matches/{match_id}/seats/{seat}/mute",
    summary="Mute a seat's talk for yourself",
    responses=struct_answer(MutesOut) | problems(*MINE),
)
async def mute(
    match_id: MatchId, seat: SeatNo, player: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """The seat's `message` events reach the caller marked `"muted": true` from now on (REST
    and the socket, on every device of the caller's), and /play folds them away. Nobody else
    is told. Muting again changes nothing."""
    now, announcer = clock_of(request).now(), core_of(request).announcer
    return FastJSONResponse(
        await civil.set_mute(session, announcer, now, player, match_id, seat, True)
    )


@router.delete(
    "/matches/{match_id}/seats/{seat}/mute",
    summary="Unmute a seat",
    responses=struct_answer(MutesOut) | problems(*MINE),
)
async def unmute(
    match_id: MatchId, seat: SeatNo, player: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """The seat's messages reach the caller unmarked again."""
    now, announcer = clock_of(request).now(), core_of(request).announcer
    return FastJSONResponse(
        await civil.set_mute(session, announcer, now, player, match_id, seat, False)
    )


@router.post(
    "/matches/{match_id}/messages/{seq}/report",
    status_code=201,
    summary="Report a message to the operators",
    openapi_extra=request_body("ReportBody", required=False),
    responses=struct_answer(ReportOut, 201)
    | problems(*BODY, *MINE, "message_not_found", "rate_limited"),
)
async def report(
    match_id: MatchId,
    seq: Annotated[int, Path(ge=1, le=2**31 - 1, description="The message event's seq")],
    player: CurrentPlayer,
    session: UnitOfWork,
    request: Request,
    body: Annotated[ReportBody | None, Depends(reader(ReportBody, optional=True))],
) -> FastJSONResponse:
    """The message is kept as it was sent, with the seat's holder and the caller's `reason`,
    for the operators (`domino-api reports`). Reporting one message again answers the first
    report. Budgeted per player (`DOMINO_REPORT_RATE_LIMIT`)."""
    await limits_of(request).hit("report", f"player:{player.id}")
    reason = body.reason if body else None
    return FastJSONResponse(
        await civil.report(session, clock_of(request).now(), player, match_id, seq, reason),
        status_code=201,
    )


@router.put(
    "/matches/{match_id}/seats/{seat}/block",
    summary="Block a seat's player from the tables you host",
    responses=struct_answer(BlockOut) | problems(*MINE, "seat_unavailable"),
)
async def block(
    match_id: MatchId, seat: SeatNo, player: CurrentPlayer, session: UnitOfWork, request: Request
) -> FastJSONResponse:
    """The seat's holder can no longer take a seat at a table the caller hosts: its joins
    there are `403 blocked` (a seat it already holds stays its own). A computer seat or an open
    one is `409 seat_unavailable`."""
    return FastJSONResponse(
        await civil.block_seat(session, clock_of(request).now(), player, match_id, seat)
    )


@router.get(
    "/players/me/blocks",
    summary="The players you block",
    responses=struct_answer(BlocksOut) | problems(*AUTH),
)
async def my_blocks(player: CurrentPlayer, session: UnitOfWork) -> FastJSONResponse:
    """The players kept from the caller's tables, newest first."""
    return FastJSONResponse(await civil.blocks(session, player))


@router.delete(
    "/players/me/blocks/{player_id}",
    status_code=204,
    summary="Unblock a player",
    responses=problems(*AUTH, "validation_error"),
)
async def unblock(
    player_id: Annotated[str, Path(max_length=36)], player: CurrentPlayer, session: UnitOfWork
) -> Response:
    """The player may join the caller's tables again (204 whether it was blocked or not)."""
    await civil.unblock(session, player, player_id)
    return Response(status_code=204)
