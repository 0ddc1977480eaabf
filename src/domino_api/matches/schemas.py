"""Request and response bodies for matches (the OpenAPI document frontends generate from)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, JsonValue, WithJsonSchema

from domino_api.engine.kinds import EndName as EndName  # the socket's frames name it here
from domino_api.engine.kinds import Strategy
from domino_api.engine.rulesets import PRESETS
from domino_api.web.inputs import Strict
from domino_api.web.names import CutText, PlayerName, TalkText

# A tile is a pair of pips, published as a two-item array of pips rather than 3.1 `prefixItems`:
# schemathesis read nested `prefixItems` as an invalid `items: [...]`, and generators type both.
TILE_SCHEMA: dict[str, JsonValue] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 9},
    "minItems": 2,
    "maxItems": 2,
}
# A tile's pips as the largest set (double-nine) has them: a number outside is no tile (422).
Pip = Annotated[int, Field(ge=0, le=12)]
TileIn = Annotated[tuple[Pip, Pip], WithJsonSchema(TILE_SCHEMA)]


class HumanSeat(Strict):
    """A seat for a person: open for someone to join, or the host's (seat 0, and any seat with
    `holder` "host": hot-seat play)."""

    type: Literal["human"]
    holder: Literal["host"] | None = Field(
        default=None, description="'host': the host holds this seat too (hot-seat play)."
    )
    name: PlayerName | None = Field(
        default=None,
        description="A human seat's name at this table (hot-seat play: one per player at the"
        " device); default: its holder's profile name",
    )


class BotSeat(Strict):
    """A seat the computer plays."""

    type: Literal["bot"]
    strategy: Strategy = "planner"


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="type")]


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
    per_move_s: int | None = Field(
        default=None,
        ge=3_600,
        le=14 * 86_400,
        description="Not a preset parameter: a correspondence table, with this many seconds per"
        " move (an hour to two weeks) and no away rule; the recovery job forfeits a seat whose"
        " turn runs out (docs/API.md, Correspondence tables)",
    )
    rounds: int | None = Field(default=None, ge=1, le=13, description="Mexican Train's rounds")
    spectators: bool | None = Field(
        default=None,
        description="Not a preset parameter: true lets players without a seat watch the public"
        " view (docs/API.md, Who may look)",
    )
    talk: Literal["free", "etiquette"] | None = Field(
        default=None,
        description="Not a preset parameter, partnership tables only: `etiquette` refuses table"
        " talk while a hand is in play (`409 talk_etiquette`, docs/RULES.md 14); `free`, the"
        " default, does not",
    )


# Options whose null means something (no turn clock; a points target instead of best of N).
NULL_MEANS = ("turn_clock", "best_of")


def as_overrides(options: MatchOptions) -> dict[str, JsonValue]:
    # Only what the client sent, as plain JSON values: the engine parses overrides itself. Any
    # other null (the schema allows it) is as if the option were not given.
    sent = options.model_dump(exclude_unset=True)
    return {key: value for key, value in sent.items() if value is not None or key in NULL_MEANS}


class MatchCreate(Strict):
    """A new match. What each preset allows is checked on creation and listed by
    `GET /v1/rulesets`: how many seats it seats (`seats`, when given, has one per player; seat 0
    is the host's, a human seat), and which `options` it lets a match change, with their values
    (`422 bad_options` otherwise)."""

    ruleset: str = Field(
        max_length=32, examples=["all-fives"], json_schema_extra={"enum": list(PRESETS)}
    )
    if TYPE_CHECKING:
        options: dict[str, JsonValue]
    else:
        options: Annotated[MatchOptions, AfterValidator(as_overrides)] = Field(
            default_factory=dict, examples=[{"target": 150}]
        )
    seats: list[SeatSpec] | None = Field(
        default=None,
        min_length=1,
        max_length=8,  # Mexican Train seats up to 8; every other preset 2 to 4
        description="Every seat, seat 0 first (the host's, a human seat). Default: the host and"
        " one open seat.",
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
        },
    )


class JoinBody(Strict):
    code: str = Field(pattern=r"^[0-9]{4,6}$", examples=["4821"])
    name: PlayerName | None = Field(
        default=None,
        examples=["Ana"],
        description="The name to sit under at this table (default: the profile name); a seat"
        " already going by this name is taken over when its holder is away (a rejoin)",
    )


class StartBody(Strict):
    cut: CutText | None = Field(default=None, examples=["moon"])
    fill_with_bots: bool = Field(
        default=False, description="Open human seats become `planner` seats"
    )


class NextHandBody(Strict):
    seq: int | None = Field(default=None, ge=0, le=2**31 - 1)
    seat: int | None = Field(default=None, ge=0, le=7)


class SeatBody(Strict):
    seat: int | None = Field(default=None, ge=0, le=7)


class MessageBody(Strict):
    text: TalkText = Field(examples=["good game!"])
    seat: int | None = Field(default=None, ge=0, le=7)


# The move (MoveBody) is engine/move_types.py's. The view (ViewOut) is a msgspec Struct in
# engine/view_types.py; EventsOut and MoveOut are in matches/answers.py; the rulesets' catalogue
# in matches/ruleset_models.py; the ledger and the deal check in matches/ledger_models.py.
