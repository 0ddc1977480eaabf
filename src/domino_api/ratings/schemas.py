"""Response bodies of the ratings' routes (docs/API.md, "Ratings")."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from domino_api.players.schemas import RecordOut


class RatingOut(Struct, frozen=True, kw_only=True):
    player_id: str
    preset: str
    rating: Annotated[
        int, Meta(description="The rating (OpenSkill's mean; a new player's is 1500)")
    ]
    deviation: Annotated[
        int,
        Meta(
            description="Its uncertainty (OpenSkill's sigma; 500 before a rated match): it"
            " shrinks with each rated match"
        ),
    ]
    games: Annotated[int, Meta(description="Rated matches played at this preset")]


Computer = Literal["random", "plain", "planner"]


class ComputerRatingOut(Struct, frozen=True, kw_only=True):
    strategy: Computer
    rating: Annotated[int, Meta(description="Fixed: measured from the computers' own games")]
    deviation: int


class PresetRatings(Struct, frozen=True, kw_only=True):
    """Each player's rating at the preset, in the order asked, and the computers'."""

    preset: str
    ratings: Annotated[
        list[RatingOut], Meta(description="One per player asked for, in the order asked")
    ]
    computers: list[ComputerRatingOut]


class PlayerRatings(Struct, frozen=True, kw_only=True):
    """A player's ratings at every preset with a rated match."""

    player_id: str
    ratings: Annotated[
        list[RatingOut], Meta(description="Every preset with a rated match, by name")
    ]


class BoardEntry(Struct, frozen=True, kw_only=True):
    rank: int
    player_id: str
    name: str
    rating: int
    deviation: int
    games: int


class BoardPage(Struct, frozen=True, kw_only=True):
    """A page of a preset's leaderboard."""

    preset: str
    entries: Annotated[
        list[BoardEntry],
        Meta(
            description="Highest rating minus three deviations first (a rating still uncertain"
            " ranks lower), then player id; players with a rated match only"
        ),
    ]
    next_cursor: Annotated[str | None, Meta(description="Fetches the next page; null on the last")]


class SeatRatingOut(Struct, frozen=True, kw_only=True):
    seat: int
    player_id: Annotated[
        str | None,
        Meta(
            description="The holder, whose profile is /v1/players/{id}/profile; null for a computer"
        ),
    ]
    rating: int
    deviation: int
    games: Annotated[
        int | None, Meta(description="The holder's rated matches; null for a computer")
    ]
    computer: Annotated[bool, Meta(description="A computer's fixed rating")]


class MatchRatings(Struct, frozen=True, kw_only=True):
    """Each seat's rating at the match's preset."""

    match_id: str
    preset: str
    rated: Annotated[bool, Meta(description="Whether the match moves its players' ratings")]
    seats: Annotated[
        list[SeatRatingOut],
        Meta(
            description="Each seat's rating at the preset, as it stands now; an open seat is"
            " left out"
        ),
    ]


class RecordsOut(Struct, frozen=True, kw_only=True):
    """The caller's best final score and widest margin per game, and its ratings."""

    records: list[RecordOut]
    ratings: Annotated[
        list[RatingOut],
        Meta(
            description="The caller's rating at every preset with a rated match (docs/API.md,"
            " Ratings)"
        ),
    ]


# The ratings' answers, published beside the matches' (documents/openapi_doc.py).
ANSWERS = (PresetRatings, PlayerRatings, BoardPage, MatchRatings, RecordsOut)
