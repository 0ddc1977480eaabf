"""The caller's matches, newest first, a page at a time behind an opaque keyset cursor.

The cursor is the last listed match's (created_at, id), base64url-encoded: the next page is
every match strictly older in that order, so a match created meanwhile never shifts a page,
and no page repeats or skips one. It is opaque to clients: only its round trip is promised."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime
from typing import Literal

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine.kinds import Status
from domino_api.engine.table import computer_name
from domino_api.errors import ValidationFailed
from domino_api.matches.listing_models import MatchesPage, MatchOutcome, MatchSummary, SeatSummary
from domino_api.store import my_matches_repo
from domino_api.store.my_matches_repo import MatchRow

Which = Literal["all", "live", "over"]
# What an id this server gives looks like (a uuid, a table's public id). A cursor's keyset is
# read back into SQL: a NUL hidden in its base64 was a 500 from PostgreSQL.
KEYSET_ID = re.compile(r"[0-9A-Za-z_-]{1,36}")
_LIVE: dict[Which, bool | None] = {"all": None, "live": True, "over": False}


def encode_cursor(created_at: datetime, match_id: str) -> str:
    raw = f"{created_at.isoformat()}|{match_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The keyset a cursor names; anything this server did not give is a 422."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, _, match_id = raw.partition("|")
        created_at = datetime.fromisoformat(stamp)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValidationFailed("cursor: not a cursor this server gave") from None
    if not KEYSET_ID.fullmatch(match_id) or created_at.tzinfo is None:
        raise ValidationFailed("cursor: not a cursor this server gave")
    return created_at, match_id


async def my_matches(
    session: AsyncSession, player_id: str, cursor: str | None, limit: int, which: Which
) -> MatchesPage:
    after = decode_cursor(cursor) if cursor is not None else None
    # One more than asked: whether another page follows, without counting.
    rows = await my_matches_repo.page(session, player_id, after, limit + 1, _LIVE[which])
    shown = rows[:limit]
    more = len(rows) > limit
    next_cursor = encode_cursor(shown[-1].created_at, shown[-1].id) if more else None
    return MatchesPage(matches=[_summary(row, player_id) for row in shown], next_cursor=next_cursor)


def _summary(row: MatchRow, player_id: str) -> MatchSummary:
    live = my_matches_repo.is_live(row.status)
    seats = [
        SeatSummary(
            seat=seat.seat,
            type="bot" if seat.type == "bot" else "human",
            name=computer_name(row.seats, seat) if seat.type == "bot" else seat.name,
            player_id=seat.player_id if seat.type == "human" else None,
            yours=seat.player_id == player_id,
        )
        for seat in row.seats
    ]
    return MatchSummary(
        id=row.id,
        status=msgspec.convert(row.status, Status),  # the column's values are the enum's
        live=live,
        ruleset=row.ruleset,
        code=row.code if live else None,
        host=row.host_player_id == player_id,
        tournament=row.tournament_id,
        seats=seats,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        result=_result(row, seats),
    )


def _result(row: MatchRow, seats: list[SeatSummary]) -> MatchOutcome | None:
    ended = row.result
    if ended is None:
        return None
    names = {seat.seat: seat.name for seat in seats}
    winner_name = names.get(ended.winner) if ended.winner is not None else None
    return MatchOutcome(
        winner=ended.winner, winner_name=winner_name, reason=ended.reason, scores=list(ended.scores)
    )
