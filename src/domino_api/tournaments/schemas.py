"""Request and response bodies for tournaments (`/v1/tournaments` in openapi/openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from domino_api.web.names import TournamentName
from domino_api.web.responses import REF
from domino_api.web.struct_bodies import Body, FieldFault


class PointsTarget(Body):
    """Matches to a points target."""

    target: Annotated[int, Meta(ge=1, le=10_000, examples=[100])]


class BestOfHands(Body):
    """Matches of best of 1-5 hands."""

    best_of: Annotated[int, Meta(ge=1, le=5, examples=[3])]


# A points target or best of 1-5 hands: exactly one of the two, as the schema says (one object
# or the other, neither taking the other's key).
MatchFormat = PointsTarget | BestOfHands
# msgspec reads no union of two untagged objects, so a `match` field is the JSON as sent,
# published as the union and read by `match_format`.
MATCH_SCHEMA = {
    "anyOf": [{"$ref": REF.format(name=k.__name__)} for k in (PointsTarget, BestOfHands)]
}


def match_format(sent: Any) -> MatchFormat:
    """`sent` as a points target (it names `target`) or best of N hands, or the field fault."""
    try:
        if isinstance(sent, dict) and "target" in sent:
            return msgspec.convert(sent, PointsTarget)
        return msgspec.convert(sent, BestOfHands)
    except msgspec.ValidationError as error:
        raise FieldFault("match", str(error)) from None


class TournamentClock(Body):
    """Each turn's allowance and the grace after it (docs/RULES.md section 10)."""

    allowance_s: Annotated[int, Meta(ge=1, le=86_400)] = 180
    grace_s: Annotated[int, Meta(ge=1, le=86_400)] = 120


# What a tournament's matches play: classic (two players), or a partnership preset whose
# entrants are pairs (docs/PARTNERSHIP.md; tournaments/pairs.py).
TournamentPreset = Literal["classic", "partners-block", "partners-nines", "partners-all-fives"]


class TournamentCreate(Body, kw_only=True):
    name: Annotated[TournamentName, Meta(examples=["Friday cup"])]
    preset: Annotated[
        TournamentPreset,
        Meta(
            description="The ruleset of every match (default classic); a partnership preset"
            " makes a tournament of pairs, four seats a match, 0 and 2 against 1 and 3"
        ),
    ] = "classic"
    format: Literal["single_elimination", "round_robin"]
    match: Annotated[Any, Meta(extra_json_schema=MATCH_SCHEMA)]
    next_opener: Literal["winner_any", "alternate_any"] | None = None
    max_entrants: Annotated[
        int,
        Meta(
            ge=2,
            le=10_000,
            examples=[8],
            description="Entrants: players, or pairs in a tournament of pairs (a pair is two"
            " players against the host plan's cap)",
        ),
    ]
    clock: Annotated[
        TournamentClock,
        Meta(description="The turn clock of every match (default 180 s + 120 s grace)"),
    ] = msgspec.field(default_factory=TournamentClock)
    check_in_s: Annotated[
        Annotated[int, Meta(ge=30, le=3600)] | None,
        Meta(
            description="How long both players have to say they are ready once a match is"
            " drawn (default: the service's DOMINO_CHECK_IN_S, 300 s); a seat not ready by then"
            " forfeits"
        ),
    ] = None

    def __post_init__(self) -> None:
        self.match = match_format(self.match)
        super().__post_init__()


class EntrantOut(Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    order: Annotated[
        int | None,
        Meta(description="The seeded order once started; in a pairs tournament the pair's lead's"),
    ]
    partner: Annotated[
        str | None,
        Meta(description="A pairs tournament: the partner this player named (null in classic)"),
    ] = None
    paired: Annotated[
        bool, Meta(description="A pairs tournament: the partner has named this player back")
    ] = False


class NextSlot(Struct, frozen=True, kw_only=True):
    """Where a bracket match's winner goes: slot (round, index), as player `side` (0 or 1)."""

    round: int
    index: int
    side: Literal[0, 1]


class LiveScoreOut(Struct, frozen=True, kw_only=True):
    """A match in play: each player's score and hands won so far, in slot order."""

    points: Annotated[list[int], Meta(examples=[[35, 20]])]
    hands_won: Annotated[list[int], Meta(examples=[[2, 1]])]


class RoundMatchOut(Struct, frozen=True, kw_only=True):
    id: str
    round: Annotated[int, Meta(description="The bracket slot: its round (from 1) ...")]
    index: Annotated[int, Meta(description="... and its index within the round (from 0)")]
    next: Annotated[
        NextSlot | None,
        Meta(description="The slot the winner goes to; null for the final and in round-robin"),
    ]
    players: Annotated[
        list[str],
        Meta(description="The two entrants, in slot order (a pair by its lead's player id)"),
    ]
    names: Annotated[
        list[str], Meta(description='Their names, in the same order (a pair\'s "Ann & Bob")')
    ]
    teams: Annotated[
        list[list[str]] | None,
        Meta(
            description="A pairs tournament: each side's two player ids, in slot order (the"
            " first side seated at 0 and 2, the second at 1 and 3); null in classic"
        ),
    ] = None
    status: Literal["check_in", "playing", "finished", "cancelled"]
    winner: str | None
    reason: Literal["played", "forfeit", "no_show"] | None
    points: Annotated[list[int], Meta(description="Each player's final score (0 until decided)")]
    hands_won: Annotated[list[int], Meta(description="Hands each player won (0 until decided)")]
    live: Annotated[
        LiveScoreOut | None,
        Meta(
            description="While the match is played: its score so far (null at check-in and once"
            " decided, when `points` and `hands_won` hold the result)"
        ),
    ]


class RoundOut(Struct, frozen=True, kw_only=True):
    number: int
    status: Literal["open", "complete"]
    matches: list[RoundMatchOut]
    byes: list[str]
    rests: list[str]


class StandingOut(Struct, frozen=True, kw_only=True):
    player_id: Annotated[str, Meta(description="The entrant (a pair by its lead's player id)")]
    name: Annotated[str, Meta(description='Its name (a pair\'s "Ann & Bob")')] = ""
    partner: Annotated[str | None, Meta(description="A pair's second player; null in classic")] = (
        None
    )
    rank: int
    match_wins: int
    hand_diff: int
    point_diff: int
    round_reached: Annotated[
        int | None,
        Meta(
            description="Single elimination: the last round played in (one past the final for"
            " the champion), which ranks first; null in round-robin"
        ),
    ]


class TournamentOut(Struct, frozen=True, kw_only=True):
    """The tournament view: entrants, rounds and matches, standings and the champion."""

    id: str
    name: str
    status: Literal["open", "running", "finished", "cancelled"]
    format: Literal["single_elimination", "round_robin"]
    preset: Annotated[TournamentPreset, Meta(description="The ruleset of every match")] = "classic"
    match: Annotated[Any, Meta(extra_json_schema=MATCH_SCHEMA)]
    clock: Annotated[TournamentClock, Meta(description="The turn clock of every match")]
    next_opener: str | None
    max_entrants: int
    check_in_s: Annotated[
        int, Meta(description="Seconds both players have to be ready for a match")
    ]
    seed: str | None
    host: str
    entrants: list[EntrantOut]
    rounds: list[RoundOut]
    standings: list[StandingOut]
    champion: str | None


# The tournaments' answers typed by Structs, published beside the matches'
# (documents/openapi_doc.py); the events feed's types: tournaments/event_types.py.
ANSWERS = (TournamentOut,)
