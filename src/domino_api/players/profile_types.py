"""A player's public profile as the contract publishes it (`GET /v1/players/{id}/profile`,
docs/API.md "Profiles"): msgspec Structs, encoded once at the edge like the view's."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from msgspec import Struct

Opponent = Literal["plain", "planner", "human"]
# How a match ended for the profile's player: a finished match won, lost or without a winner,
# or abandoned before its end.
Outcome = Literal["won", "lost", "drawn", "abandoned"]


class HistoryPoint(Struct, frozen=True, kw_only=True):
    """The player's rating right after one rated match moved it."""

    at: datetime
    rating: int


class PresetRating(Struct, frozen=True, kw_only=True):
    """The player's rating at a preset, and its history (oldest first; the last 100 points)."""

    preset: str
    rating: int
    deviation: int
    games: int
    history: list[HistoryPoint]


class FinalSeat(Struct, frozen=True, kw_only=True):
    """A seat of an ended match: the name it went by and its final score."""

    seat: int
    name: str | None
    computer: bool
    score: int
    theirs: bool


class RecentMatch(Struct, frozen=True, kw_only=True):
    """One of the player's finished or abandoned matches and how it ended for them."""

    id: str
    preset: str
    status: Literal["finished", "abandoned"]
    outcome: Outcome
    rated: bool
    finished_at: datetime | None
    seats: list[FinalSeat]


class RecordLine(Struct, frozen=True, kw_only=True):
    """Wins, losses and bests at a preset against an opponent kind (docs/API.md, records)."""

    preset: str
    opponent: Opponent
    wins: int
    losses: int
    best_score: int | None
    best_margin: int | None


class ProfileOut(Struct, frozen=True, kw_only=True):
    """A player's public profile: name, ratings with their history, recent matches, records."""

    id: str
    name: str
    joined_at: datetime
    ratings: list[PresetRating]
    recent: list[RecentMatch]
    records: list[RecordLine]
