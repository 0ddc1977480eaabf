"""The caller's matches as `GET /v1/matches` lists them (matches/listing.py)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from domino_api.engine.kinds import MatchReason, SeatKind, Status


class SeatSummary(BaseModel):
    seat: int
    type: SeatKind
    name: str | None = Field(description="The name the seat goes by; null for an open seat")
    player_id: str | None = Field(
        description="The holder, whose profile is /v1/players/{id}/profile; null for a"
        " computer or an open seat"
    )
    yours: bool = Field(description="The caller holds this seat")


class MatchOutcome(BaseModel):
    """How an over match ended, from its public `match_ended` event."""

    winner: int | None = Field(description="The winning seat; null for a tie or no winner")
    winner_name: str | None = Field(description="The name the winning seat goes by")
    reason: MatchReason
    scores: list[int] = Field(description="Each seat's final score, by seat number")


class MatchSummary(BaseModel):
    """One of the caller's matches, enough to find it again and to say where it stands."""

    id: str
    status: Status
    live: bool = Field(description="Not finished, abandoned or cancelled: it can be continued")
    ruleset: str = Field(description="The preset's name")
    code: str | None = Field(
        description="The game number others join by (4 to 6 digits), while the table has one"
    )
    host: bool = Field(description="The caller hosts the match")
    tournament: str | None = Field(description="The tournament the match belongs to, if any")
    seats: list[SeatSummary]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    result: MatchOutcome | None = Field(
        description="How the match ended; null while it is live (and for one ended unrecorded)"
    )


class MatchesPage(BaseModel):
    """A page of the caller's matches, newest first."""

    matches: list[MatchSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next (older) page; null on the last page"
    )
