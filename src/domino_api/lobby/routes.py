"""HTTP routes of the lobby: public tables and quick pairing (docs/API.md, "The lobby")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from domino_api.engine.errors import MatchFull, UnknownRuleset
from domino_api.engine.rulesets import PRESETS
from domino_api.engine.view_types import ViewOut
from domino_api.lobby import seeks, tables
from domino_api.lobby.events import LobbyTable
from domino_api.lobby.models import (
    LobbyPage,
    PublicJoinBody,
    PublicState,
    PublicTableCreated,
    SeekCreate,
    SeekOut,
)
from domino_api.lobby.runtime import LobbyDep
from domino_api.matches import creation, hosting
from domino_api.matches.schemas import HumanSeat, MatchCreate
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, client_address, limits_of, settings_of
from domino_api.web.problems import AUTH, BODY, INPUT, MATCH, NUMBERED, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["lobby"], dependencies=NO_STRAY_BODY)

MatchId = Annotated[str, Path(max_length=36, description="The match id")]
TableId = Annotated[str, Path(max_length=22, description="The table's public id")]
SeekId = Annotated[str, Path(max_length=36, description="The seek's id")]
PRESET_ERRORS = ("unknown_ruleset", "bad_options", "option_not_allowed")


def _preset(name: str) -> str:
    if name not in PRESETS:
        raise UnknownRuleset(f"No preset is called {name!r} (see GET /v1/rulesets).")
    return name


@router.get(
    "/lobby",
    summary="Open public tables of a preset",
    responses=struct_answer(LobbyPage) | problems(*AUTH, *INPUT, "unknown_ruleset"),
)
async def lobby(
    lobby_state: LobbyDep,
    _: CurrentPlayer,
    preset: Annotated[
        str,
        Query(
            max_length=32,
            description="The preset's name",
            json_schema_extra={"enum": list(PRESETS)},
        ),
    ],
    cursor: Annotated[
        str | None, Query(max_length=200, description="The `next_cursor` of the page before")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 20,
) -> FastJSONResponse:
    """The public tables of `preset` that wait for players with a free seat, newest first,
    `limit` a page; `next_cursor` fetches the next (older) page. A table is named by its public
    id, never by its game number; a table whose host is away (`seat_disconnected`) is left out
    until it is back. An unknown preset is `422 unknown_ruleset`."""
    return FastJSONResponse(await tables.page(lobby_state.core, _preset(preset), cursor, limit))


@router.post(
    "/lobby/tables",
    status_code=201,
    summary="Create a public table",
    openapi_extra=request_body("MatchCreate"),
    responses=struct_answer(PublicTableCreated, 201)
    | problems(*BODY, *AUTH, *PRESET_ERRORS, *NUMBERED, "match_full"),
)
async def create_public(
    body: Annotated[MatchCreate, Depends(reader(MatchCreate))],
    request: Request,
    player: CurrentPlayer,
    lobby_state: LobbyDep,
) -> FastJSONResponse:
    """`POST /v1/matches` and `PUT /v1/matches/{id}/public` at once: the new table, listed in
    the lobby (a table with no free seat, such as one against computers only, is `409
    match_full` and is not created)."""
    if body.seats is not None and not any(
        isinstance(seat, HumanSeat) and seat.holder is None for seat in body.seats[1:]
    ):
        raise MatchFull("A public table needs a free seat for someone to join.")
    address, caps = client_address(request), hosting.caps_of(settings_of(request))
    await limits_of(request).hit_from("create_match", address, f"player:{player.id}")
    view = await creation.create_match(lobby_state.core, player, body, caps, address)
    listed = await tables.make_public(lobby_state.core, player, view.id, lobby_state.publish)
    return FastJSONResponse(PublicTableCreated(table=listed, view=view), status_code=201)


@router.put(
    "/matches/{match_id}/public",
    summary="Host: list a waiting table in the lobby",
    responses=struct_answer(LobbyTable)
    | problems(*MATCH, "not_host", "match_in_progress", "match_full"),
)
async def make_public(
    match_id: MatchId, lobby_state: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """Host only: list the table in the lobby under a public id of its own while it waits for
    players with a free seat (again: the listing as it is). It leaves the lobby by itself once
    full, started or over."""
    listed = await tables.make_public(lobby_state.core, player, match_id, lobby_state.publish)
    return FastJSONResponse(listed)


@router.get(
    "/matches/{match_id}/public",
    summary="Host: whether the table is in the lobby",
    responses=struct_answer(PublicState) | problems(*MATCH, "not_host"),
)
async def listing(
    match_id: MatchId, lobby_state: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """Host only: `{"listed", "table"}`, the table's listing while it is in the lobby."""
    return FastJSONResponse(await tables.listing_of(lobby_state.core, player, match_id))


@router.delete(
    "/matches/{match_id}/public",
    status_code=204,
    summary="Host: take a table out of the lobby",
    responses=problems(*MATCH, "not_host"),
)
async def make_private(match_id: MatchId, lobby_state: LobbyDep, player: CurrentPlayer) -> Response:
    """Host only: take the table out of the lobby (`table_closed`); its game number still
    works for those it was given to."""
    await tables.make_private(lobby_state.core, player, match_id, lobby_state.publish)
    return Response(status_code=204)


@router.post(
    "/lobby/tables/{table_id}/join",
    summary="Join a public table by its public id",
    openapi_extra=request_body("PublicJoinBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(*BODY, *AUTH, "table_not_listed", "blocked", "match_full", "rate_limited"),
)
async def join_public(
    table_id: TableId,
    request: Request,
    player: CurrentPlayer,
    lobby_state: LobbyDep,
    body: Annotated[PublicJoinBody | None, Depends(reader(PublicJoinBody, optional=True))],
) -> FastJSONResponse:
    """Take a free seat of an open public table; the answer is the joiner's view (with the
    table's game number, as every seat's view has it). A table unlisted, full, started or over
    is `404 table_not_listed`, and so is one whose host is away."""
    name = body.name if body else None
    view = await tables.join(
        lobby_state.core, limits_of(request), player, table_id, name, client_address(request)
    )
    return FastJSONResponse(view)


@router.post(
    "/lobby/seeks",
    status_code=201,
    summary="Play anyone now: ask to be paired",
    openapi_extra=request_body("SeekCreate"),
    responses=struct_answer(SeekOut, 201)
    | problems(*BODY, *AUTH, *PRESET_ERRORS, "rate_limited", "match_full", "player_not_found"),
)
async def create_seek(
    body: Annotated[SeekCreate, Depends(reader(SeekCreate))],
    request: Request,
    player: CurrentPlayer,
    lobby_state: LobbyDep,
) -> FastJSONResponse:
    """Ask to be seated with other seekers of the same preset and options (one other; three
    for a partnership preset), never one who blocked the caller or whom it blocked; the
    caller's other open seeks are cancelled. Paired at once if enough wait (`status: paired`,
    with `match` and `seat`: the match is already dealt, rated when every seeker asked for it),
    else `open` until paired: poll `GET
    /v1/lobby/seeks/{id}` or hold it on a lobby socket (`seek=`) at least every `lease_s`, or it
    lapses (`expired`). A caller who holds as many tables with a game number as a host may is
    `429 rate_limited`. With `partner` (a partnership preset), two players who name each other
    are seated as one team, partners at seats 0 and 2, against another team or two singles."""
    await limits_of(request).hit_from(
        "create_match", client_address(request), f"player:{player.id}"
    )
    made = await seeks.create(
        lobby_state.core, player, body, lobby_state.lease_s, lobby_state.caps, lobby_state.publish
    )
    return FastJSONResponse(made, status_code=201)


@router.get(
    "/lobby/seeks/{seek_id}",
    summary="Your seek (a poll renews it)",
    responses=struct_answer(SeekOut) | problems(*AUTH, *INPUT, "seek_not_found"),
)
async def read_seek(
    seek_id: SeekId, lobby_state: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """The caller's seek; reading an open one renews its lease. Another player's seek is `404
    seek_not_found`, as an unknown or a cancelled one."""
    lobby = lobby_state
    found = await seeks.read(lobby.core, player, seek_id, lobby.lease_s, lobby.caps, lobby.publish)
    return FastJSONResponse(found)


@router.delete(
    "/lobby/seeks/{seek_id}",
    status_code=204,
    summary="Leave the queue",
    responses=problems(*AUTH, *INPUT, "seek_not_found"),
)
async def cancel_seek(seek_id: SeekId, lobby_state: LobbyDep, player: CurrentPlayer) -> Response:
    """Cancel the caller's seek: it is gone (reading it is `404 seek_not_found`); one already
    paired stays `paired` (its seat is taken)."""
    await seeks.cancel(lobby_state.core, player, seek_id)
    return Response(status_code=204)
