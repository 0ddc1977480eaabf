"""Request and response bodies for tournaments (`/v1/tournaments` in openapi/openapi.json)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from domino_api.web.inputs import Strict
from domino_api.web.names import TournamentName


class PointsTarget(Strict):
    """Matches to a points target."""

    target: int = Field(ge=1, le=10_000, examples=[100])


class BestOfHands(Strict):
    """Matches of best of 1-5 hands."""

    best_of: int = Field(ge=1, le=5, examples=[3])


# A points target or best of 1-5 hands: exactly one of the two, as the schema says (one object
# or the other, neither taking the other's key).
MatchFormat = PointsTarget | BestOfHands


class TournamentClock(Strict):
    """Each turn's allowance and the grace after it (docs/RULES.md section 10)."""

    allowance_s: int = Field(default=180, ge=1, le=86_400)
    grace_s: int = Field(default=120, ge=1, le=86_400)


class TournamentCreate(Strict):
    name: TournamentName = Field(examples=["Friday cup"])
    format: Literal["single_elimination", "round_robin"]
    match: MatchFormat
    next_opener: Literal["winner_any", "alternate_any"] | None = None
    max_entrants: int = Field(ge=2, le=10_000, examples=[8])
    clock: TournamentClock = Field(
        default_factory=TournamentClock,
        description="The turn clock of every match (default 180 s + 120 s grace)",
    )
    check_in_s: int | None = Field(
        default=None,
        ge=30,
        le=3600,
        description="How long both players have to say they are ready once a match is drawn"
        " (default: the service's DOMINO_CHECK_IN_S, 300 s); a seat not ready by then forfeits",
    )


class EntrantOut(BaseModel):
    player_id: str
    name: str
    order: int | None


class NextSlot(BaseModel):
    """Where a bracket match's winner goes: slot (round, index), as player `side` (0 or 1)."""

    round: int
    index: int
    side: Literal[0, 1]


class LiveScoreOut(BaseModel):
    """A match in play: each player's score and hands won so far, in slot order."""

    points: list[int] = Field(examples=[[35, 20]])
    hands_won: list[int] = Field(examples=[[2, 1]])


class RoundMatchOut(BaseModel):
    id: str
    round: int = Field(description="The bracket slot: its round (from 1) ...")
    index: int = Field(description="... and its index within the round (from 0)")
    next: NextSlot | None = Field(
        description="The slot the winner goes to; null for the final and in round-robin"
    )
    players: list[str] = Field(description="The two player ids, in slot order")
    names: list[str] = Field(description="Their names, in the same order")
    status: Literal["check_in", "playing", "finished", "cancelled"]
    winner: str | None
    reason: Literal["played", "forfeit", "no_show"] | None
    points: list[int] = Field(description="Each player's final score (0 until decided)")
    hands_won: list[int] = Field(description="Hands each player won (0 until decided)")
    live: LiveScoreOut | None = Field(
        description="While the match is played: its score so far (null at check-in and once"
        " decided, when `points` and `hands_won` hold the result)",
    )


class RoundOut(BaseModel):
    number: int
    status: Literal["open", "complete"]
    matches: list[RoundMatchOut]
    byes: list[str]
    rests: list[str]


class StandingOut(BaseModel):
    player_id: str
    rank: int
    match_wins: int
    hand_diff: int
    point_diff: int
    round_reached: int | None = Field(
        description="Single elimination: the last round played in (one past the final for"
        " the champion), which ranks first; null in round-robin"
    )


class TournamentOut(BaseModel):
    id: str
    name: str
    status: Literal["open", "running", "finished", "cancelled"]
    format: Literal["single_elimination", "round_robin"]
    match: MatchFormat
    clock: TournamentClock = Field(description="The turn clock of every match")
    next_opener: str | None
    max_entrants: int
    check_in_s: int = Field(description="Seconds both players have to be ready for a match")
    seed: str | None
    host: str
    entrants: list[EntrantOut]
    rounds: list[RoundOut]
    standings: list[StandingOut]
    champion: str | None


# The events feed's types: tournaments/event_types.py.
