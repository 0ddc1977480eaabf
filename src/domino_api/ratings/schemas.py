"""Response bodies of the ratings' routes (docs/API.md, "Ratings")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from domino_api.players.schemas import RecordOut


class RatingOut(BaseModel):
    player_id: str
    preset: str
    rating: int = Field(description="The rating (OpenSkill's mean; a new player's is 1500)")
    deviation: int = Field(
        description="Its uncertainty (OpenSkill's sigma; 500 before a rated match): it shrinks"
        " with each rated match"
    )
    games: int = Field(description="Rated matches played at this preset")


class ComputerRatingOut(BaseModel):
    strategy: Literal["random", "plain", "planner"]
    rating: int = Field(description="Fixed: measured from the computers' own games")
    deviation: int


class PresetRatings(BaseModel):
    preset: str
    ratings: list[RatingOut] = Field(description="One per player asked for, in the order asked")
    computers: list[ComputerRatingOut]


class PlayerRatings(BaseModel):
    player_id: str
    ratings: list[RatingOut] = Field(description="Every preset with a rated match, by name")


class BoardEntry(BaseModel):
    rank: int
    player_id: str
    name: str
    rating: int
    deviation: int
    games: int


class BoardPage(BaseModel):
    preset: str
    entries: list[BoardEntry] = Field(
        description="Highest rating minus three deviations first (a rating still uncertain"
        " ranks lower), then player id; players with a rated match only"
    )
    next_cursor: str | None = Field(description="Fetches the next page; null on the last")


class SeatRatingOut(BaseModel):
    seat: int
    player_id: str | None = Field(
        description="The holder, whose profile is /v1/players/{id}/profile; null for a computer"
    )
    rating: int
    deviation: int
    games: int | None = Field(description="The holder's rated matches; null for a computer")
    computer: bool = Field(description="A computer's fixed rating")


class MatchRatings(BaseModel):
    match_id: str
    preset: str
    rated: bool = Field(description="Whether the match moves its players' ratings")
    seats: list[SeatRatingOut] = Field(
        description="Each seat's rating at the preset, as it stands now; an open seat is left out"
    )


class RecordsOut(BaseModel):
    records: list[RecordOut]
    ratings: list[RatingOut] = Field(
        description="The caller's rating at every preset with a rated match (docs/API.md, Ratings)"
    )
