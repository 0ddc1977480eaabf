"""Request and response bodies for matches (the OpenAPI document frontends generate from)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from domino_api.engine.rulesets import PRESETS
from domino_api.matches.ruleset_models import RulesetParams, match_create_rules
from domino_api.web.inputs import Strict
from domino_api.web.names import CutText, PlayerName, TalkText

EndName = Literal["left", "right", "up", "down"]
Status = Literal["waiting", "playing", "hand_over", "finished", "abandoned", "cancelled"]
# A tile is a pair of pips, published as a two-item array of pips rather than 3.1 `prefixItems`:
# schemathesis read nested `prefixItems` as an invalid `items: [...]`, and generators type both.
TILE_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 9},
    "minItems": 2,
    "maxItems": 2,
}
# A tile's pips as the largest set (double-nine) has them: a number outside is no tile (422).
Pip = Annotated[int, Field(ge=0, le=9)]
TileIn = Annotated[tuple[Pip, Pip], WithJsonSchema(TILE_SCHEMA)]
# Request bodies arrive as parsed JSON, where a tile is a list: strict mode would refuse a tuple.
TileBody = Annotated[list[Pip], Field(min_length=2, max_length=2)]


class SeatSpec(Strict):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            # What creation checks: a human seat has no strategy; a computer's no holder or name.
            "oneOf": [
                {"properties": {"type": {"const": "human"}, "strategy": {"type": "null"}}},
                {
                    "properties": {
                        "type": {"const": "bot"},
                        "holder": {"type": "null"},
                        "name": {"type": "null"},
                    }
                },
            ]
        },
    )

    type: Literal["human", "bot"]
    holder: Literal["host"] | None = Field(
        default=None, description="'host': the host holds this seat too (hot-seat play)."
    )
    strategy: Literal["plain", "planner", "random"] | None = None
    name: PlayerName | None = Field(
        default=None,
        description="A human seat's name at this table (hot-seat play: one per player at the"
        " device); default: its holder's profile name",
    )


# Upper bounds on every number a client sets (issue 16: a target of 2**64 was a 500, clocks of
# 10**12 s made a table that could never start). The engine checks what each preset allows.
MAX_TARGET = 10_000
MAX_CLOCK_S = 3_600
MAX_AWAY_S = 86_400


class TurnClockOptions(Strict):
    allowance_s: int = Field(ge=1, le=MAX_CLOCK_S, description="Seconds per turn")
    grace_s: int = Field(ge=1, le=MAX_CLOCK_S, description="Extra seconds once per turn")


class MatchOptions(Strict):
    """Overrides of the preset's parameters; `GET /v1/rulesets` lists what each preset allows
    (a parameter the preset fixes is refused, `bad_options`). Unknown keys, and values of the
    wrong type or out of bounds, are refused the same way (`bad_options`)."""

    target: int | None = Field(default=None, ge=1, le=MAX_TARGET)
    best_of: int | None = Field(default=None, ge=1, le=5)
    hand_size: int | None = Field(default=None, ge=1, le=13)
    away_forfeit_s: int | None = Field(default=None, ge=1, le=MAX_AWAY_S)
    turn_clock: TurnClockOptions | None = None
    draw: str | None = Field(default=None, max_length=32)
    first_opener: str | None = Field(default=None, max_length=32)
    next_opener: str | None = Field(default=None, max_length=32)
    spectators: bool | None = Field(
        default=None,
        description="Not a preset parameter: true lets players without a seat watch the public"
        " view (docs/API.md, Who may look)",
    )


# Options whose null means something (no turn clock; a points target instead of best of N).
NULL_MEANS = ("turn_clock", "best_of")


def as_overrides(options: MatchOptions) -> dict[str, Any]:
    # Only what the client sent, as plain JSON values: the engine parses overrides itself. Any
    # other null (the schema allows it) is as if the option were not given.
    sent = options.model_dump(exclude_unset=True)
    return {key: value for key, value in sent.items() if value is not None or key in NULL_MEANS}


class MatchCreate(Strict):
    ruleset: str = Field(
        max_length=32, examples=["all-fives"], json_schema_extra={"enum": list(PRESETS)}
    )
    if TYPE_CHECKING:
        options: dict[str, Any]
    else:
        options: Annotated[MatchOptions, AfterValidator(as_overrides)] = Field(
            default_factory=dict, examples=[{"target": 150}]
        )
    seats: list[SeatSpec] | None = Field(
        default=None,
        min_length=1,
        max_length=4,
        description="Every seat, seat 0 first (the host). Default: the host and one open seat.",
    )

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "ruleset": "all-fives",
                    "options": {"target": 150},
                    "seats": [{"type": "human"}, {"type": "bot", "strategy": "planner"}],
                }
            ],
            "oneOf": match_create_rules(),
        },
    )


class JoinBody(Strict):
    code: str = Field(pattern=r"^[0-9]{4}$", examples=["4821"])
    name: PlayerName | None = Field(
        default=None,
        examples=["Ana"],
        description="The name to sit under at this table (default: the profile name); a seat"
        " already going by this name is taken over when its holder is away (a rejoin)",
    )


class StartBody(Strict):
    cut: CutText | None = Field(default=None, examples=["moon"])
    fill_with_bots: bool = False


class MoveBody(Strict):
    action: Literal["play", "draw", "pass"]
    tile: TileBody | None = None
    end: EndName | None = None
    seq: int = Field(ge=0, le=2**31 - 1)
    seat: int | None = Field(default=None, ge=0, le=3)

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"action": "play", "tile": [3, 5], "end": "right", "seq": 42},
                {"action": "draw", "seq": 42},
            ],
            # What service._move_action checks, in the schema: a play names its tile; a draw
            # or a pass names neither tile nor end.
            "oneOf": [
                {
                    "properties": {"action": {"const": "play"}, "tile": {"type": "array"}},
                    "required": ["action", "tile"],
                },
                {
                    "properties": {
                        "action": {"enum": ["draw", "pass"]},
                        "tile": {"type": "null"},
                        "end": {"type": "null"},
                    }
                },
            ],
        },
    )


class NextHandBody(Strict):
    seq: int | None = Field(default=None, ge=0, le=2**31 - 1)
    seat: int | None = Field(default=None, ge=0, le=3)


class SeatBody(Strict):
    seat: int | None = Field(default=None, ge=0, le=3)


class MessageBody(Strict):
    text: TalkText = Field(examples=["good game!"])
    seat: int | None = Field(default=None, ge=0, le=3)


class SeatOut(BaseModel):
    seat: int
    name: str | None
    type: Literal["human", "bot"]
    strategy: str | None
    connected: bool
    away_since: str | None = Field(description="When the absent seat's presence lease ran out")
    away_deadline: str | None = Field(
        description="When this seat forfeits under the away rule if it is not seen again"
        " (moves on with every sighting); null where the rule does not apply (docs/RULES.md 10)"
    )
    autopilot: bool
    forfeited: bool
    ready: bool
    score: int
    hands_won: int
    tiles: int
    tile_back: str


class YouOut(BaseModel):
    seat: int
    seats: list[int]
    hand: list[TileIn]


class BoardTile(BaseModel):
    tile: TileIn
    end: EndName | None
    outer: int | None
    spinner: bool


class OpenEnd(BaseModel):
    end: EndName
    pips: int


class BoardOut(BaseModel):
    tiles: list[BoardTile]
    ends: list[OpenEnd]
    ends_total: int


class MustCover(BaseModel):
    tile: TileIn
    ends: list[EndName]


class TurnOut(BaseModel):
    seat: int
    deadline: str | None
    must_cover: MustCover | None


class LegalOut(BaseModel):
    action: Literal["play", "draw", "pass", "next_hand"]
    tile: TileIn | None = None
    end: EndName | None = None
    points: int | None = None


class HandResultOut(BaseModel):
    number: int
    reason: str
    winner: int | None
    tied: bool
    pips: list[int]
    points: int
    hands: list[list[TileIn]]


class ResultOut(BaseModel):
    winner: int | None
    reason: Literal["target", "best_of", "forfeit", "abandoned", "cancelled"]
    scores: list[int]
    hands_won: list[int]
    forfeited_by: int | None


VIEW_EXAMPLE: dict[str, Any] = {
    "id": "7d1c2b8e-4f5a-4c1e-9a51-1f0c9d7e2a10",
    "code": "4821",
    "status": "playing",
    "ruleset": PRESETS["all-fives"].to_dict(),
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
}


class ViewOut(BaseModel):
    """A seat's view of a match: its own tiles, the public table, and its legal actions."""

    model_config = ConfigDict(json_schema_extra={"examples": [VIEW_EXAMPLE]})

    id: str
    code: str | None = Field(description="The 4-digit number to join by; null for a spectator")
    status: Status
    ruleset: RulesetParams
    seq: int
    now: str
    hand_number: int
    commitment: str
    host_seat: int | None
    tournament: str | None
    check_in_deadline: str | None
    next_hand_at: str | None
    seats: list[SeatOut]
    you: YouOut | None
    board: BoardOut
    stock: int
    stock_back: str = Field(description="The tile back the boneyard shows (a catalogue id)")
    turn: TurnOut | None
    legal: list[LegalOut]
    last_hand: HandResultOut | None
    result: ResultOut | None
    rematch_match_id: str | None = None
    claims_locked: bool = Field(
        default=False,
        description="The host has locked the table: no seat is taken by number and name.",
    )
    talk_off: bool = Field(
        default=False,
        description="The host has turned table talk off: messages are `409 talk_off`.",
    )


# EventsOut and MoveOut live in matches/answers.py (msgspec, with the event types of
# engine/event_types.py); the rulesets'
# catalogue in matches/ruleset_models.py; the ledger and the deal check in matches/ledger_models.py.
