"""Events: what happened, numbered by `seq`, with the parts only one seat may see kept apart.

Each kind of event is built by one function here (the service's own by the table, through
`rules.record`), as the typed values of engine/event_types.py; `Event.for_seat` is the one
projection of what a seat may see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from msgspec import Struct, UnsetType, convert, field
from msgspec.structs import asdict, replace

from domino_api.engine.event_types import (
    AnyData,
    AnyEvent,
    DrawnPrivate,
    ForfeitData,
    ForfeitEvent,
    HandEndedData,
    HandEndedEvent,
    HandPrivate,
    HandStartedData,
    HandStartedEvent,
    MatchEndedData,
    MatchEndedEvent,
    MatchStartedData,
    MatchStartedEvent,
    MustCoverData,
    PassedEvent,
    Private,
    ScoredData,
    ScoredEvent,
    SeatData,
    TileDrawnData,
    TileDrawnEvent,
    TilePlayedData,
    TilePlayedEvent,
    TurnData,
    TurnEvent,
    TurnPrivate,
)
from domino_api.engine.kinds import ForfeitCause, Json, ScoreCause
from domino_api.engine.move_record import Move
from domino_api.engine.move_types import options
from domino_api.engine.state import (
    HandResult,
    HandState,
    MatchResult,
    MatchState,
)

# Events that never make a move stale (docs/ARCHITECTURE.md, "The write core", step 4).
NON_GAME_EVENTS = frozenset(
    {
        "seat_connected",
        "seat_disconnected",
        "message",
        "ready",
        "rematch_offered",
        "tile_back_changed",
        "deadline_moved",  # the outage rule moved a deadline: nothing on the table changed
        "talk_changed",  # the host turned table talk off or on
    }
)
# Events the service originates; the engine only numbers them (see `rules.record`).
SERVICE_EVENTS = NON_GAME_EVENTS | {
    "seat_joined",
    "rematch_created",
    "autopilot_on",
    "autopilot_off",
}
# Which private part each type may carry (a stored event's come back as these).
PRIVATE_OF: dict[str, type[Private]] = {
    "hand_started": HandPrivate,
    "turn": TurnPrivate,
    "tile_drawn": DrawnPrivate,
}


class Event(Struct, frozen=True, gc=False):
    """One event as the engine and the store keep it: the public copy and each seat's extras."""

    public: AnyEvent
    private: Mapping[int, Private] = field(default_factory=dict)

    @property
    def seq(self) -> int:
        return self.public.seq

    @property
    def type(self) -> str:
        return str(self.public.__struct_config__.tag)

    @property
    def data(self) -> AnyData:
        return self.public.data

    def for_seat(self, seat: int | None) -> AnyEvent:
        """The copy `seat` may see (None: a spectator): public data plus that seat's part."""
        part = None if seat is None else self.private.get(seat)
        if part is None:
            return self.public
        data = replace(self.public.data, **asdict(part))
        return replace(self.public, data=data)

    @classmethod
    def stored(
        cls,
        seq: int,
        kind: str,
        at: str,
        data: Mapping[str, Json],
        private: Mapping[str, Mapping[str, Json]],
    ) -> Event:
        """An event as the store keeps it (public data and private parts as JSON) read back;
        a row that breaks the contract raises msgspec.ValidationError."""
        wire = {"seq": seq, "type": kind, "at": at, "data": data}
        public: AnyEvent = convert(wire, AnyEvent)
        part = PRIVATE_OF.get(kind)
        if part is None or not private:
            return cls(public)
        return cls(public, {int(seat): convert(mine, part) for seat, mine in private.items()})


EventsBuilder = Callable[[MatchState], tuple[Event, ...]]  # from the state the action led to


class Transition(Struct, frozen=True, gc=False):
    """The state after an action and the events it caused.

    Moves hand over a function that builds their events from `state`, called when `events`
    is read: the computer players and playouts that only follow `state` never pay for them.
    Each read builds them again (equal events), so a reader that needs them twice keeps its
    copy."""

    state: MatchState
    built: tuple[Event, ...] | EventsBuilder

    @property
    def events(self) -> tuple[Event, ...]:
        built = self.built
        return built if isinstance(built, tuple) else built(self.state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transition):
            return NotImplemented
        return self.state == other.state and self.events == other.events

    def __hash__(self) -> int:
        return hash((self.state, self.events))

    def __repr__(self) -> str:
        return f"Transition(state={self.state!r}, events={self.events!r})"

    def __reduce__(self) -> tuple[type[Transition], tuple[MatchState, tuple[Event, ...]]]:
        return (Transition, (self.state, self.events))  # pickle and copy take the events


# -- one builder per kind of event --------------------------------------------------------


def match_started(seq: int, state: MatchState) -> Event:
    assert state.cut is not None, "a match starts with its cut"
    data = MatchStartedData(cut=state.cut, seats=state.ruleset.players)
    return Event(MatchStartedEvent(seq=seq, data=data))


def hand_started(seq: int, hand: HandState) -> Event:
    dealt = hand.deal.dealt
    data = HandStartedData(
        hand_number=hand.deal.number,
        attempt=hand.deal.attempt,
        opener=hand.deal.opener,
        tiles=tuple(len(tiles) for tiles in dealt),
        stock=len(hand.deal.stock),
    )
    private = {seat: HandPrivate(hand=tiles) for seat, tiles in enumerate(dealt)}
    return Event(HandStartedEvent(seq=seq, data=data), private)


def turn(seq: int, hand: HandState) -> Event:
    """Whose turn it is, what double it must cover, and (to that seat only) what it may do."""
    assert hand.turn is not None
    must_cover = hand.must_cover
    cover = (
        None if must_cover is None else MustCoverData(tile=must_cover.tile, ends=must_cover.ends)
    )
    data = TurnData(seat=hand.turn, deadline=None, must_cover=cover)
    return Event(TurnEvent(seq=seq, data=data), {hand.turn: TurnPrivate(legal=options(hand.legal))})


def tile_played(move: Move, hand: HandState) -> Event:
    placement = hand.board.tiles[-1]
    tile, end, points = move.tile, move.end, move.points
    assert not isinstance(tile, UnsetType) and not isinstance(end, UnsetType)
    assert not isinstance(points, UnsetType)
    data = TilePlayedData(
        seat=move.seat,
        tile=tile,
        end=end,
        outer=placement.outer,
        spinner=placement.spinner,
        points=points,
        ends_total=hand.board.total,
    )
    return Event(TilePlayedEvent(seq=move.seq, data=data))


def tile_drawn(move: Move, hand: HandState) -> Event:
    """The drawn tile goes to the drawer only; a drawer who keeps the turn also gets its new
    legal actions (no second `turn` event: the deadline does not move, RULES section 12)."""
    tile = move.tile
    assert not isinstance(tile, UnsetType)
    mine = DrawnPrivate(tile=tile)
    if hand.turn == move.seat:
        mine = DrawnPrivate(tile=tile, legal=options(hand.legal))
    data = TileDrawnData(seat=move.seat, stock=hand.stock_left)
    return Event(TileDrawnEvent(seq=move.seq, data=data), {move.seat: mine})


def passed(move: Move) -> Event:
    return Event(PassedEvent(seq=move.seq, data=SeatData(seat=move.seat)))


def scored(seq: int, seat: int, points: int, score: int, cause: ScoreCause) -> Event:
    data = ScoredData(seat=seat, points=points, score=score, cause=cause)
    return Event(ScoredEvent(seq=seq, data=data))


# A hand's and a match's end carry their result whole, field for field: the result Structs
# name the fields once.
def hand_ended(seq: int, result: HandResult) -> Event:
    return Event(HandEndedEvent(seq=seq, data=HandEndedData(**asdict(result))))


def match_ended(seq: int, result: MatchResult) -> Event:
    fields = asdict(result)
    if fields["team"] is None:  # only a partnership match has a winning team
        del fields["team"]
    return Event(MatchEndedEvent(seq=seq, data=MatchEndedData(**fields)))


def forfeit(seq: int, seat: int, cause: ForfeitCause) -> Event:
    return Event(ForfeitEvent(seq=seq, data=ForfeitData(seat=seat, cause=cause)))
