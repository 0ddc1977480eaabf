"""The view a seat (or a spectator) gets of a match: one typed value, built once by
matches/views.py from the engine's TableView and the table's public facts, encoded once at the
edge. OpenAPI's and AsyncAPI's `ViewOut` are generated from these Structs (matches/answers.py).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct
from pydantic import JsonValue

from domino_api.engine.kinds import SeatKind, Status
from domino_api.engine.rulesets import PRESETS, Ruleset
from domino_api.engine.state import HandResult, LegalAction, MatchResult
from domino_api.engine.tiles import Tile
from domino_api.engine.view import BoardOut, TurnOut

Moment = str  # an ISO 8601 instant in UTC, "2026-11-29T16:00:00Z"


class SeatOut(Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    name: str | None
    type: SeatKind
    strategy: str | None
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
        str | None, Meta(description="The 4-digit number to join by; null for a spectator")
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
    legal: tuple[LegalAction, ...]
    last_hand: HandResult | None
    result: MatchResult | None
    rematch_match_id: str | None
    claims_locked: Annotated[
        bool,
        Meta(description="The host has locked the table: no seat is taken by number and name."),
    ]
    talk_off: Annotated[
        bool, Meta(description="The host has turned table talk off: messages are `409 talk_off`.")
    ]


VIEW_EXAMPLE: dict[str, JsonValue] = {
    "id": "7d1c2b8e-4f5a-4c1e-9a51-1f0c9d7e2a10",
    "code": "4821",
    "status": "playing",
    "ruleset": msgspec.to_builtins(PRESETS["all-fives"]),
    "seq": 42,
    "now": "2026-11-29T16:00:00Z",
    "hand_number": 2,
    "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    "host_seat": 0,
    "tournament": None,
    "check_in_deadline": None,
    "next_hand_at": None,
    "seats": [
        {
            "seat": 0,
            "name": "Ana",
            "type": "human",
            "strategy": None,
            "connected": True,
            "away_since": None,
            "away_deadline": None,
            "autopilot": False,
            "forfeited": False,
            "ready": False,
            "score": 35,
            "hands_won": 1,
            "tiles": 3,
            "tile_back": "moon",
        },
        {
            "seat": 1,
            "name": "Planner",
            "type": "bot",
            "strategy": "planner",
            "connected": True,
            "away_since": None,
            "away_deadline": None,
            "autopilot": False,
            "forfeited": False,
            "ready": False,
            "score": 20,
            "hands_won": 0,
            "tiles": 4,
            "tile_back": "moon",
        },
    ],
    "you": {"seat": 0, "seats": [0], "hand": [[2, 6], [3, 4], [5, 5]]},
    "board": {
        "tiles": [
            {"tile": [6, 6], "end": None, "outer": None, "spinner": True},
            {"tile": [3, 6], "end": "right", "outer": 3, "spinner": False},
        ],
        "ends": [{"end": "left", "pips": 6}, {"end": "right", "pips": 3}],
        "ends_total": 15,
    },
    "stock": 12,
    "stock_back": "moon",
    "turn": {"seat": 0, "deadline": None, "must_cover": None},
    "legal": [
        {"action": "play", "tile": [2, 6], "end": "left", "points": 5},
        {"action": "play", "tile": [3, 4], "end": "right", "points": 0},
    ],
    "last_hand": None,
    "result": None,
    "rematch_match_id": None,
    "claims_locked": False,
    "talk_off": False,
}
