"""Request and response bodies for matches (the OpenAPI document frontends generate from)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType
from pydantic import JsonValue

from domino_api.engine.kinds import EndName as EndName  # the socket's frames name it here
from domino_api.engine.kinds import Strategy
from domino_api.engine.rulesets import PRESETS
from domino_api.web.names import CutText, PlayerName, TalkText
from domino_api.web.struct_bodies import Body


class HumanSeat(Body, tag_field="type", tag="human"):
    """A seat for a person: open for someone to join, or the host's (seat 0, and any seat with
    `holder` "host": hot-seat play)."""

    holder: Annotated[
        Literal["host"] | None,
        Meta(description="'host': the host holds this seat too (hot-seat play)."),
    ] = None
    name: Annotated[
        PlayerName | None,
        Meta(
            description="A human seat's name at this table (hot-seat play: one per player at"
            " the device); default: its holder's profile name"
        ),
    ] = None


class BotSeat(Body, tag_field="type", tag="bot"):
    """A seat the computer plays."""

    strategy: Strategy = "planner"


SeatSpec = HumanSeat | BotSeat


# Upper bounds on every number a client sets (issue 16: a target of 2**64 was a 500, clocks of
# 10**12 s made a table that could never start). The engine checks what each preset allows.
MAX_TARGET = 10_000
MAX_CLOCK_S = 3_600
MAX_AWAY_S = 86_400
_Word = Annotated[str, Meta(max_length=32)]


class TurnClockOptions(Body):
    allowance_s: Annotated[int, Meta(ge=1, le=MAX_CLOCK_S, description="Seconds per turn")]
    grace_s: Annotated[int, Meta(ge=1, le=MAX_CLOCK_S, description="Extra seconds once per turn")]


class MatchOptions(Body, omit_defaults=True):
    """Overrides of the preset's parameters; `GET /v1/rulesets` lists what each preset allows
    (a parameter the preset fixes is refused, `bad_options`). Unknown keys, and values of the
    wrong type or out of bounds, are refused the same way (`bad_options`)."""

    # UNSET (not sent) differs from null for `turn_clock` and `best_of` (NULL_MEANS).
    target: Annotated[int, Meta(ge=1, le=MAX_TARGET)] | UnsetType | None = UNSET
    best_of: Annotated[int, Meta(ge=1, le=5)] | UnsetType | None = UNSET
    hand_size: Annotated[int, Meta(ge=1, le=13)] | UnsetType | None = UNSET
    away_forfeit_s: Annotated[int, Meta(ge=1, le=MAX_AWAY_S)] | UnsetType | None = UNSET
    turn_clock: TurnClockOptions | UnsetType | None = UNSET
    draw: _Word | UnsetType | None = UNSET
    first_opener: _Word | UnsetType | None = UNSET
    next_opener: _Word | UnsetType | None = UNSET
    per_move_s: (
        Annotated[
            int,
            Meta(
                ge=3_600,
                le=14 * 86_400,
                description="Not a preset parameter: a correspondence table, with this many"
                " seconds per move (an hour to two weeks) and no away rule; the recovery job"
                " forfeits a seat whose turn runs out (docs/API.md, Correspondence tables)",
            ),
        ]
        | UnsetType
        | None
    ) = UNSET
    rounds: (
        Annotated[int, Meta(ge=1, le=13, description="Mexican Train's rounds")] | UnsetType | None
    ) = UNSET
    spectators: Annotated[
        bool | UnsetType | None,
        Meta(
            description="Not a preset parameter: true lets players without a seat watch the"
            " public view (docs/API.md, Who may look)"
        ),
    ] = UNSET
    talk: Annotated[
        Literal["free", "etiquette"] | UnsetType | None,
        Meta(
            description="Not a preset parameter, partnership tables only: `etiquette` refuses"
            " table talk while a hand is in play (`409 talk_etiquette`, docs/RULES.md 14);"
            " `free`, the default, does not"
        ),
    ] = UNSET


# Options whose null means something (no turn clock; a points target instead of best of N).
NULL_MEANS = ("turn_clock", "best_of")


def as_overrides(options: MatchOptions) -> dict[str, JsonValue]:
    """Only what the client sent, as plain JSON values: the engine parses overrides itself. Any
    other null (the schema allows it) is as if the option were not given."""
    sent: dict[str, JsonValue] = msgspec.to_builtins(options)
    return {key: value for key, value in sent.items() if value is not None or key in NULL_MEANS}


Preset = Annotated[
    str, Meta(max_length=32, examples=["all-fives"], extra_json_schema={"enum": list(PRESETS)})
]


class MatchCreate(Body):
    """A new match. What each preset allows is checked on creation and listed by
    `GET /v1/rulesets`: how many seats it seats (`seats`, when given, has one per player; seat 0
    is the host's, a human seat), and which `options` it lets a match change, with their values
    (`422 bad_options` otherwise)."""

    ruleset: Preset
    options: Annotated[MatchOptions, Meta(examples=[{"target": 150}])] = msgspec.field(
        default_factory=MatchOptions
    )
    seats: (
        Annotated[
            list[SeatSpec],
            Meta(
                min_length=1,
                max_length=8,  # Mexican Train seats up to 8; every other preset 2 to 4
                description="Every seat, seat 0 first (the host's, a human seat). Default: the"
                " host and one open seat.",
            ),
        ]
        | None
    ) = None


MATCH_CREATE_EXAMPLES: list[JsonValue] = [
    {
        "ruleset": "all-fives",
        "options": {"target": 150},
        "seats": [{"type": "human"}, {"type": "bot", "strategy": "planner"}],
    }
]


class JoinBody(Body):
    code: Annotated[str, Meta(pattern=r"^[0-9]{4,6}$", examples=["4821"])]
    name: Annotated[
        PlayerName | None,
        Meta(
            examples=["Ana"],
            description="The name to sit under at this table (default: the profile name); a"
            " seat already going by this name is taken over when its holder is away (a rejoin)",
        ),
    ] = None


class StartBody(Body):
    cut: Annotated[CutText | None, Meta(examples=["moon"])] = None
    fill_with_bots: Annotated[bool, Meta(description="Open human seats become `planner` seats")] = (
        False
    )


_SeatNo = Annotated[int, Meta(ge=0, le=7)]


class NextHandBody(Body):
    seq: Annotated[int, Meta(ge=0, le=2**31 - 1)] | None = None
    seat: _SeatNo | None = None


class SeatBody(Body):
    seat: _SeatNo | None = None


class MessageBody(Body):
    text: Annotated[TalkText, Meta(examples=["good game!"])]
    seat: _SeatNo | None = None


# The move (MoveBody) is engine/move_types.py's. The view (ViewOut) is a msgspec Struct in
# engine/view_types.py; EventsOut and MoveOut are in matches/answers.py; the rulesets' catalogue
# in matches/ruleset_models.py; the ledger and the deal check in matches/ledger_models.py.
