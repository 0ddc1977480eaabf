"""`GET /v1/turns`: the caller's seats that are to move now, the nearest deadline first."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from msgspec import Meta, Struct

from domino_api.store import turns_repo
from domino_api.turns.titles import title_of
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer
from domino_api.web.problems import AUTH, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer

router = APIRouter(prefix="/v1", tags=["matches"], dependencies=NO_STRAY_BODY)


class YourTurnOut(Struct, frozen=True, kw_only=True):
    """A seat of the caller's that is to move now."""

    match: str
    seat: int
    ruleset: str
    title: Annotated[str, Meta(description="The game's name (`All Fives`)")]
    deadline: Annotated[
        Annotated[datetime, Meta(extra_json_schema={"format": "date-time"})] | None,
        Meta(description="When the seat forfeits unless it moves (null: the table runs no clock)"),
    ]
    per_move_s: Annotated[
        int | None,
        Meta(description="A correspondence table's time per move; null: a table played live"),
    ]


class YourTurnsOut(Struct, frozen=True, kw_only=True):
    """The matches waiting for the caller's move, the nearest deadline first."""

    turns: list[YourTurnOut]


ANSWERS = (YourTurnsOut,)


@router.get(
    "/turns",
    summary="Your turn: the matches waiting for your move",
    responses=struct_answer(YourTurnsOut) | problems(*AUTH, *INPUT),
)
async def your_turns(
    request: Request,
    player: CurrentPlayer,
    limit: Annotated[int, Query(ge=1, le=100, description="At most this many")] = 50,
) -> FastJSONResponse:
    """Each seat of the caller's that is to move now at a match in play (not one on autopilot
    or forfeited), the nearest deadline first, then the tables without a clock. A
    correspondence table (`options.per_move_s`) also tells its player by the lobby socket's
    `your_turn` and by Web Push (docs/API.md, "Correspondence tables")."""
    async with request.app.state.core.pool.acquire() as connection:
        rows = await turns_repo.your_turns(connection, player.id, limit)
    turns = YourTurnsOut(
        turns=[
            YourTurnOut(
                match=row.match_id,
                seat=row.seat,
                ruleset=row.ruleset,
                title=title_of(row.ruleset),
                deadline=row.deadline,
                per_move_s=row.per_move_s,
            )
            for row in rows
        ]
    )
    return FastJSONResponse(turns)
