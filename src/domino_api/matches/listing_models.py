"""The caller's matches as `GET /v1/matches` lists them (matches/listing.py)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from domino_api.engine.kinds import MatchReason, SeatKind, Status
from domino_api.web.responses import DateTime


class SeatSummary(Struct, frozen=True, kw_only=True):
    seat: int
    type: SeatKind
    name: Annotated[
        str | None, Meta(description="The name the seat goes by; null for an open seat")
    ]
    player_id: Annotated[
        str | None,
        Meta(
            description="The holder, whose profile is /v1/players/{id}/profile; null for a"
            " computer or an open seat"
        ),
    ]
    yours: Annotated[bool, Meta(description="The caller holds this seat")]


class MatchOutcome(Struct, frozen=True, kw_only=True):
    """How an over match ended, from its public `match_ended` event."""

    winner: Annotated[int | None, Meta(description="The winning seat; null for a tie or no winner")]
    winner_name: Annotated[str | None, Meta(description="The name the winning seat goes by")]
    reason: MatchReason
    scores: Annotated[list[int], Meta(description="Each seat's final score, by seat number")]


class MatchSummary(Struct, frozen=True, kw_only=True):
    """One of the caller's matches, enough to find it again and to say where it stands."""

    id: str
    status: Status
    live: Annotated[
        bool, Meta(description="Not finished, abandoned or cancelled: it can be continued")
    ]
    ruleset: Annotated[str, Meta(description="The preset's name")]
    code: Annotated[
        str | None,
        Meta(description="The game number others join by (4 to 6 digits), while the table has one"),
    ]
    host: Annotated[bool, Meta(description="The caller hosts the match")]
    tournament: Annotated[
        str | None, Meta(description="The tournament the match belongs to, if any")
    ]
    seats: list[SeatSummary]
    created_at: DateTime
    updated_at: DateTime
    finished_at: DateTime | None
    result: Annotated[
        MatchOutcome | None,
        Meta(
            description="How the match ended; null while it is live (and for one ended unrecorded)"
        ),
    ]


class MatchesPage(Struct, frozen=True, kw_only=True):
    """A page of the caller's matches, newest first."""

    matches: list[MatchSummary]
    next_cursor: Annotated[
        str | None,
        Meta(description="Pass as `cursor` for the next (older) page; null on the last page"),
    ]


# `GET /v1/matches`'s answer, published beside the matches' (documents/openapi_doc.py).
ANSWERS = (MatchesPage,)
