"""Every event type, once: the `data` each `type` carries, and one union tagged by `type`.

These Structs are the contract of the events feed, the move answers and the WebSocket's
`event` messages: the engine builds them (engine/events.py), the service sends them encoded as
they are, and openapi.json and openapi/asyncapi.yaml publish their generated JSON schemas.

A field only one seat's copy holds (a drawn tile's face, a dealt hand, the turn seat's legal
actions) is UNSET in the public copy, so it is left out of it: `events.for_seat` fills it in
from the event's private part for that seat alone.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from msgspec import UNSET, Meta, Struct, UnsetType

from domino_api.engine.kinds import (
    EndName,
    ForfeitCause,
    HandReason,
    MatchReason,
    ScoreCause,
    SeatKind,
    Strategy,
)
from domino_api.engine.move_types import Option

SeatNo = Annotated[int, Meta(ge=0, le=7)]  # up to 8 seats (Mexican Train)
Pip = Annotated[int, Meta(ge=0, le=12)]  # up to double-twelve (Mexican Train)
Tile = Annotated[tuple[Pip, Pip], Meta(description="[a, b], a <= b")]
Count = Annotated[int, Meta(ge=0)]
Moment = Annotated[str, Meta(description="ISO 8601, UTC")]


Legal = Annotated[tuple[Option, ...], Meta(description="The seat's legal actions")]


class _Data(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class SeatData(_Data, frozen=True):
    seat: SeatNo


class AwayData(_Data, frozen=True):
    """A seat gone away: when its lease ran out and when it forfeits if it stays away (the
    view's `away_since` and `away_deadline`, docs/API.md "The away rule"); unset in events
    recorded before they carried them."""

    seat: SeatNo
    away_since: Moment | UnsetType = UNSET
    away_deadline: Moment | UnsetType | None = UNSET  # None: it never forfeits for it


class SeatJoinedData(_Data, frozen=True):
    seat: SeatNo
    name: str | None  # the holder's name at this table (None: not known)
    type: SeatKind
    strategy: Strategy | None  # a computer seat's strategy, else None
    # True: taken over by name from a holder gone for the lease (the old device lost it)
    claimed: bool | UnsetType = UNSET
    released: bool | UnsetType = UNSET  # True: the host released the seat for the next join


class MatchStartedData(_Data, frozen=True):
    cut: str  # the cut the deal used (docs/RULES.md section 11)
    seats: Annotated[int, Meta(ge=2, le=8)]


class HandStartedData(_Data, frozen=True):
    hand_number: Annotated[int, Meta(ge=1)]
    attempt: Count  # reshuffles before this deal (the opener rule)
    opener: SeatNo
    tiles: tuple[Count, ...]  # tiles dealt to each seat
    stock: Count  # tiles left in the boneyard
    hand: tuple[Tile, ...] | UnsetType = UNSET  # the receiving seat's own tiles (its copy)


class TilePlayedData(_Data, frozen=True):
    seat: SeatNo
    tile: Tile
    end: EndName | None  # the end it joined; None for a hand's first tile
    outer: int | None  # the pip left exposed at that end
    spinner: bool
    points: Count  # fives points the play scored
    ends_total: Count


class TileDrawnData(_Data, frozen=True):
    seat: SeatNo
    stock: Count
    tile: Tile | UnsetType = UNSET  # the tile drawn (the drawer's copy only)
    legal: Legal | UnsetType = UNSET  # when the drawer keeps the turn (its copy only)


class ScoredData(_Data, frozen=True):
    seat: SeatNo
    points: Count
    score: Count  # the seat's match score after these points (in partnership: its team's)
    cause: ScoreCause


class MustCoverData(_Data, frozen=True):
    tile: Tile
    ends: tuple[EndName, ...]


class TurnData(_Data, frozen=True):
    seat: SeatNo
    deadline: Moment | None  # when the turn clock runs out (None: no clock)
    must_cover: MustCoverData | None
    legal: Legal | UnsetType = UNSET  # the turn seat's copy only


class HandEndedData(_Data, frozen=True):
    number: Annotated[int, Meta(ge=1)]
    reason: HandReason
    winner: SeatNo | None
    tied: bool
    pips: tuple[int, ...]  # pips each seat still held
    points: Count
    hands: tuple[tuple[Tile, ...], ...]  # every seat's remaining tiles, revealed


class MatchEndedData(_Data, frozen=True):
    winner: SeatNo | None
    reason: MatchReason
    scores: tuple[int, ...]  # in partnership each seat's is its team's (docs/RULES.md 14)
    hands_won: tuple[int, ...]
    forfeited_by: SeatNo | None
    # The winning team (0: seats 0 and 2; 1: seats 1 and 3), in partnership only.
    team: Annotated[int, Meta(ge=0, le=1)] | UnsetType = UNSET


class ForfeitData(_Data, frozen=True):
    seat: SeatNo
    cause: ForfeitCause


class MessageData(_Data, frozen=True):
    seat: SeatNo
    name: str | None
    text: Annotated[str, Meta(min_length=1, max_length=500)]
    # Present (true) only in the copy of a caller who muted this seat: shown folded.
    muted: bool | UnsetType = UNSET


class TalkChangedData(_Data, frozen=True):
    off: Annotated[bool, Meta(description="Talk is off: every message is refused (`409 talk_off`)")]


class RematchCreatedData(_Data, frozen=True):
    match_id: str


class TileBackChangedData(_Data, frozen=True):
    seat: SeatNo
    tile_back: str


class DeadlineMovedData(_Data, frozen=True):
    seat: SeatNo
    # `turn`: the view's `turn.deadline`; `away`: the seat's `away_deadline`
    clock: Literal["turn", "away"]
    deadline: Moment  # the new deadline


class _Event(Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    seq: Annotated[int, Meta(ge=1, description="Rises by one per event within a match")]
    # When it happened: the table stamps it as it stages the event (the engine knows no time).
    at: Moment = ""


# One class per type, its tag the `type` on the wire; the docstring says what happened.
class SeatJoinedEvent(_Event, tag="seat_joined", frozen=True):
    """A seat was taken (by a player, a computer, a rejoin)."""

    data: SeatJoinedData


class SeatConnectedEvent(_Event, tag="seat_connected", frozen=True):
    """A seat's holder came back (a socket or a request)."""

    data: SeatData


class SeatDisconnectedEvent(_Event, tag="seat_disconnected", frozen=True):
    """A seat's holder has not been seen for the presence lease."""

    data: AwayData


class MatchStartedEvent(_Event, tag="match_started", frozen=True):
    """The host started the match; the cut is fixed."""

    data: MatchStartedData


class HandStartedEvent(_Event, tag="hand_started", frozen=True):
    """A hand was dealt."""

    data: HandStartedData


class TurnEvent(_Event, tag="turn", frozen=True):
    """A seat is to act."""

    data: TurnData


class TilePlayedEvent(_Event, tag="tile_played", frozen=True):
    """A seat played a tile."""

    data: TilePlayedData


class TileDrawnEvent(_Event, tag="tile_drawn", frozen=True):
    """A seat drew from the boneyard."""

    data: TileDrawnData


class PassedEvent(_Event, tag="passed", frozen=True):
    """A seat passed."""

    data: SeatData


class ScoredEvent(_Event, tag="scored", frozen=True):
    """A seat scored points."""

    data: ScoredData


class HandEndedEvent(_Event, tag="hand_ended", frozen=True):
    """A hand ended; every hand is revealed."""

    data: HandEndedData


class MatchEndedEvent(_Event, tag="match_ended", frozen=True):
    """The match ended (the view's `result`)."""

    data: MatchEndedData


class ForfeitEvent(_Event, tag="forfeit", frozen=True):
    """A seat forfeited."""

    data: ForfeitData


class AutopilotOnEvent(_Event, tag="autopilot_on", frozen=True):
    """The computer plays for the seat."""

    data: SeatData


class AutopilotOffEvent(_Event, tag="autopilot_off", frozen=True):
    """The seat's holder took it back from the computer."""

    data: SeatData


class MessageEvent(_Event, tag="message", frozen=True):
    """Table talk."""

    data: MessageData


class TalkChangedEvent(_Event, tag="talk_changed", frozen=True):
    """The host turned table talk off or on again."""

    data: TalkChangedData


class ReadyEvent(_Event, tag="ready", frozen=True):
    """A seat checked in (tournament matches)."""

    data: SeatData


class RematchOfferedEvent(_Event, tag="rematch_offered", frozen=True):
    """A seat opted in to a rematch."""

    data: SeatData


class RematchCreatedEvent(_Event, tag="rematch_created", frozen=True):
    """Every human seat opted in: the new match."""

    data: RematchCreatedData


class TileBackChangedEvent(_Event, tag="tile_back_changed", frozen=True):
    """A seat's holder changed tile back."""

    data: TileBackChangedData


class DeadlineMovedEvent(_Event, tag="deadline_moved", frozen=True):
    """The service was down when a deadline fell: it moved (docs/RULES.md section 10)."""

    data: DeadlineMovedData


AnyEvent = (
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
    | DeadlineMovedEvent
)
AnyData = (
    SeatData
    | AwayData
    | SeatJoinedData
    | MatchStartedData
    | HandStartedData
    | TilePlayedData
    | TileDrawnData
    | ScoredData
    | TurnData
    | HandEndedData
    | MatchEndedData
    | ForfeitData
    | MessageData
    | TalkChangedData
    | RematchCreatedData
    | TileBackChangedData
    | DeadlineMovedData
)
# The one list of event types, by tag (docs/API.md and the documents list them from here).
EVENT_TYPES: dict[str, type[AnyEvent]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(AnyEvent)
}


class HandPrivate(_Data, frozen=True):
    hand: tuple[Tile, ...]


class TurnPrivate(_Data, frozen=True):
    legal: Legal


class DrawnPrivate(_Data, frozen=True):
    tile: Tile
    legal: Legal | UnsetType = UNSET


# What one seat alone may see of an event: its fields are the data's own fields (filled in).
Private = HandPrivate | TurnPrivate | DrawnPrivate
