"""Tournaments listed and found (issue 43): every tournament newest first, a page at a time,
of one status, or the caller's own (hosted or entered); GET /v1/tournaments."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Query
from msgspec import Meta, Struct

from domino_api.matches.listing import decode_cursor, encode_cursor
from domino_api.store import tournaments_repo
from domino_api.tournaments.schemas import MATCH_SCHEMA
from domino_api.tournaments.views import match_of
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, UnitOfWork
from domino_api.web.problems import AUTH, INPUT, problems
from domino_api.web.responses import DateTime, FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["tournaments"], dependencies=NO_STRAY_BODY)
Status = Literal["open", "running", "finished", "cancelled"]


class TournamentSummary(Struct, frozen=True, kw_only=True):
    id: str
    name: str
    format: Literal["single_elimination", "round_robin"]
    match: Annotated[
        Any,
        Meta(
            description="Every match's goal: a points target or best of N",
            extra_json_schema=MATCH_SCHEMA,
        ),
    ]
    status: Status
    entrants: int
    max_entrants: int
    created_at: DateTime


class TournamentsPage(Struct, frozen=True, kw_only=True):
    """Tournaments, newest first."""

    tournaments: list[TournamentSummary]
    next_cursor: Annotated[
        str | None,
        Meta(description="Pass as `cursor` for the next (older) page; null on the last page"),
    ]


ANSWERS = (TournamentsPage,)


@router.get(
    "/tournaments",
    summary="Tournaments, newest first",
    responses=struct_answer(TournamentsPage) | problems(*AUTH, *INPUT),
)
async def list_tournaments(
    player: CurrentPlayer,
    session: UnitOfWork,
    status: Annotated[Status | None, Query(description="Only tournaments in this state")] = None,
    mine: Annotated[bool, Query(description="Only those the caller hosts or entered")] = False,
    cursor: Annotated[
        str | None, Query(max_length=200, description="The `next_cursor` of the page before")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 20,
) -> FastJSONResponse:
    """Every tournament, newest first, `limit` a page: `status=open` finds those taking
    entrants, `mine=true` the caller's own. A cursor this server did not give is `422`."""
    after = decode_cursor(cursor) if cursor is not None else None
    owner = player.id if mine else None
    rows = await tournaments_repo.page(session, after, limit + 1, status, owner)
    shown = rows[:limit]
    last = shown[-1][0] if len(rows) > limit else None
    page = TournamentsPage(
        tournaments=[
            msgspec.convert(
                {
                    "id": t.id,
                    "name": t.name,
                    "format": t.format,
                    "match": match_of(t),
                    "status": t.status,
                    "entrants": count,
                    "max_entrants": t.max_entrants,
                    "created_at": t.created_at,
                },
                TournamentSummary,
            )
            for t, count in shown
        ],
        next_cursor=None if last is None else encode_cursor(last.created_at, last.id),
    )
    return FastJSONResponse(page)
