"""The live tables a player may watch (`GET /v1/watch`): the answer's types, as msgspec Structs
published in openapi (matches/answers.py), and the list built from store/watch_repo.py. A table
is listed without its game number: watching never needs it, and a spectator never sees it."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.kinds import SeatKind, Status
from domino_api.engine.table import computer_name
from domino_api.store import watch_repo
from domino_api.store.watch_repo import WatchRow


class WatchSeat(Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    type: SeatKind
    name: str | None
    rating: Annotated[
        int | None,
        Meta(description="The seated player's rating at the preset; null if unrated or a computer"),
    ]


class WatchTable(Struct, frozen=True, kw_only=True):
    id: Annotated[str, Meta(description="The match: open its view, events or socket to watch")]
    ruleset: Annotated[str, Meta(description="The preset's name")]
    status: Status
    tournament: Annotated[str | None, Meta(description="The tournament it belongs to, if any")]
    seats: list[WatchSeat]


class WatchOut(Struct, frozen=True):
    """Live tables you may watch as a spectator, best rated first."""

    tables: list[WatchTable]


async def watch_list(session: AsyncSession, player_id: str, limit: int) -> WatchOut:
    rows = await watch_repo.watchable(session, player_id, limit)
    return WatchOut(tables=[_table(row) for row in rows])


def _table(row: WatchRow) -> WatchTable:
    seats = [
        WatchSeat(
            seat=seat.seat,
            type="bot" if seat.type == "bot" else "human",
            name=computer_name(row.seats, seat) if seat.type == "bot" else seat.name,
            rating=_rating(row, seat.player_id),
        )
        for seat in row.seats
    ]
    return WatchTable(
        id=row.id,
        ruleset=row.ruleset,
        status="hand_over" if row.status == "hand_over" else "playing",
        tournament=row.tournament_id,
        seats=seats,
    )


def _rating(row: WatchRow, player_id: str | None) -> int | None:
    mu = row.ratings.get(player_id) if player_id else None
    return round(mu) if mu is not None else None
