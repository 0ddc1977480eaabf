"""HTTP routes that list matches, the caller's and the ones to watch (kept apart from
matches/routes.py, which acts on one)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from domino_api.matches import listing, watching
from domino_api.matches.listing_models import MatchesPage
from domino_api.matches.watching import WatchOut
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, UnitOfWork
from domino_api.web.problems import AUTH, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["matches"], dependencies=NO_STRAY_BODY)


@router.get(
    "/matches",
    summary="Your matches, newest first",
    responses=struct_answer(MatchesPage) | problems(*AUTH, *INPUT),
)
async def my_matches(
    player: CurrentPlayer,
    session: UnitOfWork,
    cursor: Annotated[
        str | None,
        Query(max_length=200, description="The `next_cursor` of the page before"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 20,
    state: Annotated[
        Literal["all", "live", "over"],
        Query(description="`live`: not over yet; `over`: finished, abandoned or cancelled"),
    ] = "all",
) -> FastJSONResponse:
    """The matches the caller holds a seat at, live and over, newest first, `limit` a page.
    `next_cursor` fetches the next (older) page; a cursor not given by this server, or a
    `limit` outside 1-100, is `422 validation_error`. A live match's `code` is shown to its
    seats only, as in their views.
    """
    return FastJSONResponse(await listing.my_matches(session, player.id, cursor, limit, state))


@router.get(
    "/watch",
    summary="Live tables you may watch, best rated first",
    responses=struct_answer(WatchOut) | problems(*AUTH, *INPUT),
)
async def watch(
    player: CurrentPlayer,
    session: UnitOfWork,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 20,
) -> FastJSONResponse:
    """The tables in play (dealt, not over) the caller may watch as a spectator: those created
    with `options.spectators: true`, and the matches of tournaments the caller hosts or entered;
    best rated first (the best seated player's rating at the preset; unrated tables last). A
    table's game number is never listed: a spectator watches by the match id (its view, events
    and socket, as "Who may look" says).
    """
    return FastJSONResponse(await watching.watch_list(session, player.id, limit))
