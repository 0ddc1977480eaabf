"""HTTP routes of the host's hold on seats: lock and unlock the table, release a seat
(matches/locking.py); the other match routes are in matches/routes.py."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from domino_api.engine.view_types import ViewOut
from domino_api.matches import locking
from domino_api.matches.routes import MatchId
from domino_api.matches.service import core_of
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer
from domino_api.web.problems import MATCH, SEAT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["matches"], dependencies=NO_STRAY_BODY)


@router.put(
    "/matches/{match_id}/lock",
    summary="Host: lock the table (no seat is taken by number and name)",
    responses=struct_answer(ViewOut) | problems(*MATCH, "not_host", "match_over"),
)
async def lock(match_id: MatchId, player: CurrentPlayer, request: Request) -> FastJSONResponse:
    """Host only: lock the table, so no seat changes hands by a join under its name; a seat then
    changes hands only through its own token or by the host releasing it.
    """
    return FastJSONResponse(await locking.set_lock(core_of(request), player, match_id, True))


@router.delete(
    "/matches/{match_id}/lock",
    summary="Host: unlock the table",
    responses=struct_answer(ViewOut) | problems(*MATCH, "not_host", "match_over"),
)
async def unlock(match_id: MatchId, player: CurrentPlayer, request: Request) -> FastJSONResponse:
    """Host only: unlock the table again (claims by name, after the presence lease, work again)."""
    return FastJSONResponse(await locking.set_lock(core_of(request), player, match_id, False))


@router.delete(
    "/matches/{match_id}/seats/{seat}/holder",
    summary="Host: release another's seat for the next join by number",
    responses=struct_answer(ViewOut)
    | problems(*MATCH, "not_host", "match_over", *SEAT, "seat_in_use"),
)
async def release_seat(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=7)],
    player: CurrentPlayer,
    request: Request,
) -> FastJSONResponse:
    """Host only: free another player's human seat, so the next join by number takes it, once its
    holder has had no socket and no request for the presence lease (else 409 `seat_in_use`); the
    old holder's sockets close (4409 `seat_claimed`).
    """
    return FastJSONResponse(await locking.release(core_of(request), player, match_id, seat))
