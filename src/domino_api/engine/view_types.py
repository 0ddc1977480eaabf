"""The view a seat (or a spectator) gets of a match, as the contract types it: one value, built
once by matches/views.py from the engine's TableView and the table's public facts, encoded once
at the edge, and read into these same types by the Python client (bots/reducer.py). OpenAPI's
and AsyncAPI's `ViewOut` are generated from these Structs (matches/answers.py).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from domino_api.engine.kinds import SeatKind, Status, Strategy
from domino_api.engine.move_types import Option
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import HandResult, MatchResult
from domino_api.engine.teams import TeamCount
from domino_api.engine.tiles import Tile
from domino_api.engine.view import BoardOut, TurnOut

Moment = str  # an ISO 8601 instant in UTC, "2026-11-29T16:00:00Z"


class SeatOut(Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    name: str | None
    type: SeatKind
    strategy: Strategy | None
    connected: bool
    away_since: Annotated[
        Moment | None, Meta(description="When the absent seat's presence lease ran out")
    ]
    away_deadline: Annotated[
        Moment | None,
        Meta(
            description="When this seat forfeits under the away rule if it is not seen again"
            " (moves on with every sighting); null where the rule does not apply"
            " (docs/RULES.md 10)"
        ),
    ]
    autopilot: bool
    forfeited: bool
    ready: bool
    score: int
    hands_won: int
    tiles: int
    tile_back: str


class YouOut(Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    seats: tuple[int, ...]
    hand: tuple[Tile, ...]


class ViewOut(Struct, frozen=True, kw_only=True, gc=False):
    """A seat's view of a match: its own tiles, the public table, and its legal actions."""

    id: str
    code: Annotated[
        str | None,
        Meta(
            description="The game number to join by (4 digits; 5 or 6 once a deployment"
            " holds many live tables); null for a spectator"
        ),
    ]
    status: Status
    ruleset: Ruleset
    seq: int
    now: Moment
    hand_number: int
    commitment: str
    host_seat: int | None
    tournament: str | None
    check_in_deadline: Moment | None
    next_hand_at: Moment | None
    seats: tuple[SeatOut, ...]
    you: YouOut | None
    board: BoardOut
    stock: int
    stock_back: Annotated[
        str, Meta(description="The tile back the boneyard shows (a catalogue id)")
    ]
    turn: TurnOut | None
    legal: Annotated[
        tuple[Option, ...],
        Meta(
            description="The moves the seat may make now: any one, sent back with `seq`, is a"
            " move body (POST .../moves). Empty when it is not the seat's turn; once a hand is"
            " over (`status` hand_over) a seat starts the next with POST .../hands."
        ),
    ]
    last_hand: HandResult | None
    result: MatchResult | None
    teams: Annotated[
        tuple[TeamCount, ...] | None,
        Meta(
            description="Partnership only (docs/RULES.md 14): both teams, seats 0 and 2 against"
            " 1 and 3, with their shared score; null at any other table"
        ),
    ]
    rematch_match_id: str | None
    claims_locked: Annotated[
        bool,
        Meta(description="The host has locked the table: no seat is taken by number and name."),
    ]
    talk_off: Annotated[
        bool, Meta(description="The host has turned table talk off: messages are `409 talk_off`.")
    ]
    talk_etiquette: Annotated[
        bool,
        Meta(
            description='A partnership table of `options.talk: "etiquette"`: no table talk'
            " while a hand is in play (`409 talk_etiquette`, docs/RULES.md 14)"
        ),
    ] = False
    per_move_s: Annotated[
        int | None,
        Meta(
            description="A correspondence table's seconds per move (`options.per_move_s`): the"
            " turn's deadline is `turn.deadline`, and nobody forfeits for being away; null: a"
            " table played live"
        ),
    ] = None
