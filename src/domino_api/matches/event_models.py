"""Every event type as a pydantic model: the `data` each `type` carries, one union by `type`.

These models are the contract of the events feed, the move answers and the WebSocket's `event`
messages (openapi.json and openapi/asyncapi.yaml are generated from them). The service builds
events as plain dicts on its hot path and does not validate them one by one;
tests/api/test_event_schemas.py checks every event of simulated matches of every preset, every
seat's copy, against these models, so they cannot drift from what is sent.

Fields a copy holds only for one seat (a drawn tile's face, a dealt hand, the turn seat's
legal actions) are optional here and say so in their description.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from domino_api.matches.schemas import EndName, LegalOut, ViewOut

Tile = Annotated[list[int], Field(min_length=2, max_length=2, description="[a, b], a <= b")]
SeatNo = Annotated[int, Field(ge=0, le=3)]
HandReason = Literal["domino", "blocked", "target", "forfeit", "abandoned"]
MatchReason = Literal["target", "best_of", "forfeit", "abandoned", "cancelled"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatData(_Data):
    seat: SeatNo


class SeatJoinedData(_Data):
    seat: SeatNo
    name: str | None = Field(description="The holder's name at this table (null: not known)")
    type: Literal["human", "bot"]
    strategy: str | None = Field(description="A computer seat's strategy, else null")
    claimed: bool | None = Field(
        default=None, description="true: taken over by name from a holder gone for the lease"
    )
    released: bool | None = Field(
        default=None, description="true: the host released the seat for the next join"
    )


class MatchStartedData(_Data):
    cut: str = Field(description="The cut the deal used (docs/RULES.md section 11)")
    seats: int = Field(ge=2, le=4, description="How many seats play")


class HandStartedData(_Data):
    hand_number: int = Field(ge=1)
    attempt: int = Field(ge=0, description="Reshuffles before this deal (the opener rule)")
    opener: SeatNo
    tiles: list[int] = Field(description="Tiles dealt to each seat")
    stock: int = Field(ge=0, description="Tiles left in the boneyard")
    hand: list[Tile] | None = Field(
        default=None, description="The receiving seat's own tiles (its copy only)"
    )


class TilePlayedData(_Data):
    seat: SeatNo
    tile: Tile
    end: EndName | None = Field(description="The end it joined; null for a hand's first tile")
    outer: int | None = Field(description="The pip left exposed at that end")
    spinner: bool
    points: int = Field(ge=0, description="Fives points the play scored")
    ends_total: int = Field(ge=0)


class TileDrawnData(_Data):
    seat: SeatNo
    stock: int = Field(ge=0, description="Tiles left in the boneyard")
    tile: Tile | None = Field(default=None, description="The tile drawn (the drawer's copy only)")
    legal: list[LegalOut] | None = Field(
        default=None,
        description="The drawer's legal actions when it keeps the turn (its copy only)",
    )


class ScoredData(_Data):
    seat: SeatNo
    points: int = Field(ge=0)
    score: int = Field(ge=0, description="The seat's match score after these points")
    cause: Literal["play", "domino", "blocked", "target"]


class MustCoverData(_Data):
    tile: Tile
    ends: list[EndName]


class TurnData(_Data):
    seat: SeatNo
    deadline: str | None = Field(description="When the turn clock runs out (null: no clock)")
    must_cover: MustCoverData | None
    legal: list[LegalOut] | None = Field(
        default=None, description="The turn seat's legal actions (its copy only)"
    )


class HandEndedData(_Data):
    number: int = Field(ge=1)
    reason: HandReason
    winner: SeatNo | None
    tied: bool
    pips: list[int] = Field(description="Pips each seat still held")
    points: int = Field(ge=0)
    hands: list[list[Tile]] = Field(description="Every seat's remaining tiles, revealed")


class MatchEndedData(_Data):
    winner: SeatNo | None
    reason: MatchReason
    scores: list[int]
    hands_won: list[int]
    forfeited_by: SeatNo | None


class ForfeitData(_Data):
    seat: SeatNo
    cause: Literal["clock", "away", "resign", "check_in"]


class MessageData(_Data):
    seat: SeatNo
    name: str | None
    text: str = Field(min_length=1, max_length=500)
    muted: bool = Field(
        default=False,
        description="Present (true) only to a caller who muted this seat: shown folded",
    )


class TalkChangedData(_Data):
    off: bool = Field(description="Talk is off: every message is refused (`409 talk_off`)")


class RematchCreatedData(_Data):
    match_id: str


class TileBackChangedData(_Data):
    seat: SeatNo
    tile_back: str


class DeadlineMovedData(_Data):
    seat: SeatNo
    clock: Literal["turn", "away"] = Field(
        description="`turn`: the view's `turn.deadline`; `away`: the seat's `away_deadline`"
    )
    deadline: str = Field(description="The new deadline (ISO 8601, UTC)")


class _EventBase(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seq: int = Field(ge=1, description="Rises by one per event within a match")
    at: str = Field(description="When it happened (ISO 8601, UTC)")


class SeatJoinedEvent(_EventBase):
    """A seat was taken (by a player, a computer, a rejoin)."""

    type: Literal["seat_joined"]
    data: SeatJoinedData


class SeatConnectedEvent(_EventBase):
    """A seat's holder came back (a socket or a request)."""

    type: Literal["seat_connected"]
    data: SeatData


class SeatDisconnectedEvent(_EventBase):
    """A seat's holder has not been seen for the presence lease."""

    type: Literal["seat_disconnected"]
    data: SeatData


class MatchStartedEvent(_EventBase):
    """The host started the match; the cut is fixed."""

    type: Literal["match_started"]
    data: MatchStartedData


class HandStartedEvent(_EventBase):
    """A hand was dealt."""

    type: Literal["hand_started"]
    data: HandStartedData


class TurnEvent(_EventBase):
    """A seat is to act."""

    type: Literal["turn"]
    data: TurnData


class TilePlayedEvent(_EventBase):
    """A seat played a tile."""

    type: Literal["tile_played"]
    data: TilePlayedData


class TileDrawnEvent(_EventBase):
    """A seat drew from the boneyard."""

    type: Literal["tile_drawn"]
    data: TileDrawnData


class PassedEvent(_EventBase):
    """A seat passed."""

    type: Literal["passed"]
    data: SeatData


class ScoredEvent(_EventBase):
    """A seat scored points."""

    type: Literal["scored"]
    data: ScoredData


class HandEndedEvent(_EventBase):
    """A hand ended; every hand is revealed."""

    type: Literal["hand_ended"]
    data: HandEndedData


class MatchEndedEvent(_EventBase):
    """The match ended (the view's `result`)."""

    type: Literal["match_ended"]
    data: MatchEndedData


class ForfeitEvent(_EventBase):
    """A seat forfeited."""

    type: Literal["forfeit"]
    data: ForfeitData


class AutopilotOnEvent(_EventBase):
    """The computer plays for the seat."""

    type: Literal["autopilot_on"]
    data: SeatData


class AutopilotOffEvent(_EventBase):
    """The seat's holder took it back from the computer."""

    type: Literal["autopilot_off"]
    data: SeatData


class MessageEvent(_EventBase):
    """Table talk."""

    type: Literal["message"]
    data: MessageData


class TalkChangedEvent(_EventBase):
    """The host turned table talk off or on again."""

    type: Literal["talk_changed"]
    data: TalkChangedData


class ReadyEvent(_EventBase):
    """A seat checked in (tournament matches)."""

    type: Literal["ready"]
    data: SeatData


class RematchOfferedEvent(_EventBase):
    """A seat opted in to a rematch."""

    type: Literal["rematch_offered"]
    data: SeatData


class RematchCreatedEvent(_EventBase):
    """Every human seat opted in: the new match."""

    type: Literal["rematch_created"]
    data: RematchCreatedData


class TileBackChangedEvent(_EventBase):
    """A seat's holder changed tile back."""

    type: Literal["tile_back_changed"]
    data: TileBackChangedData


class DeadlineMovedEvent(_EventBase):
    """The service was down when a deadline fell: it moved (docs/RULES.md section 10)."""

    type: Literal["deadline_moved"]
    data: DeadlineMovedData


AnyEvent = Annotated[
    SeatJoinedEvent
    | SeatConnectedEvent
    | SeatDisconnectedEvent
    | MatchStartedEvent
    | HandStartedEvent
    | TurnEvent
    | TilePlayedEvent
    | TileDrawnEvent
    | PassedEvent
    | ScoredEvent
    | HandEndedEvent
    | MatchEndedEvent
    | ForfeitEvent
    | AutopilotOnEvent
    | AutopilotOffEvent
    | MessageEvent
    | TalkChangedEvent
    | ReadyEvent
    | RematchOfferedEvent
    | RematchCreatedEvent
    | TileBackChangedEvent
    | DeadlineMovedEvent,
    Field(discriminator="type"),
]
EVENT: TypeAdapter[Any] = TypeAdapter(AnyEvent)
# The one list of event types (docs/API.md and openapi/asyncapi.yaml list them from here).
EVENT_MODELS: dict[str, type[_EventBase]] = {
    "seat_joined": SeatJoinedEvent,
    "seat_connected": SeatConnectedEvent,
    "seat_disconnected": SeatDisconnectedEvent,
    "match_started": MatchStartedEvent,
    "hand_started": HandStartedEvent,
    "turn": TurnEvent,
    "tile_played": TilePlayedEvent,
    "tile_drawn": TileDrawnEvent,
    "passed": PassedEvent,
    "scored": ScoredEvent,
    "hand_ended": HandEndedEvent,
    "match_ended": MatchEndedEvent,
    "forfeit": ForfeitEvent,
    "autopilot_on": AutopilotOnEvent,
    "autopilot_off": AutopilotOffEvent,
    "message": MessageEvent,
    "talk_changed": TalkChangedEvent,
    "ready": ReadyEvent,
    "rematch_offered": RematchOfferedEvent,
    "rematch_created": RematchCreatedEvent,
    "tile_back_changed": TileBackChangedEvent,
    "deadline_moved": DeadlineMovedEvent,
}


class EventsOut(BaseModel):
    """Events after a seq, in seq order, each as the caller's seat may see it."""

    events: list[AnyEvent]


class MoveOut(BaseModel):
    """The mover's view after the move, and the events it caused (computer replies included)."""

    view: ViewOut
    events: list[AnyEvent]
