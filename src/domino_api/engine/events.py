"""Events: what happened, numbered by `seq`, with the parts only one seat may see kept apart.

Each kind of event is built by one function here. Payloads hold tuples (and LegalAction tuples)
so nothing shared can be changed; `for_seat` and `to_json` turn them into plain JSON values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from msgspec import Struct, field
from msgspec.structs import asdict

from domino_api.engine.state import (
    HandResult,
    HandState,
    LegalAction,
    MatchResult,
    MatchState,
    Move,
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
# Events the service originates; the engine only numbers them (see `record`).
SERVICE_EVENTS = NON_GAME_EVENTS | {
    "seat_joined",
    "rematch_created",
    "autopilot_on",
    "autopilot_off",
}


# Exact types answered without the isinstance chain: every event payload is walked whole on
# each step, and most of its values are these.
_AS_THEY_ARE = frozenset({str, int, float, bool, type(None)})


def jsonable(value: object) -> Any:
    """A plain JSON value: tuples become lists, legal actions their dicts, mappings fresh dicts."""
    kind = type(value)
    if kind in _AS_THEY_ARE:
        return value
    if kind is tuple or kind is list:
        return [jsonable(item) for item in cast(Sequence[object], value)]
    if kind is dict:
        return {str(key): jsonable(item) for key, item in cast(dict[object, object], value).items()}
    if isinstance(value, LegalAction):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [jsonable(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    return value


class Event(Struct, frozen=True, gc=False):
    seq: int
    type: str
    data: Mapping[str, object]  # the public payload
    private: Mapping[int, Mapping[str, object]] = field(default_factory=dict)  # per-seat extras

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The copy `seat` may see (None: a spectator); the service adds `at`."""
        data = jsonable(self.data)
        if seat is not None and seat in self.private:
            data.update(jsonable(self.private[seat]))
        return {"seq": self.seq, "type": self.type, "data": data}

    def to_json(self) -> dict[str, Any]:
        """Public payload and private parts apart, as the event store keeps them."""
        return {
            "seq": self.seq,
            "type": self.type,
            "data": jsonable(self.data),
            "private": {str(seat): jsonable(part) for seat, part in self.private.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        private = {int(seat): dict(part) for seat, part in data.get("private", {}).items()}
        return cls(int(data["seq"]), str(data["type"]), dict(data["data"]), private)


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
    return Event(seq, "match_started", {"cut": state.cut, "seats": state.ruleset.players})


def hand_started(seq: int, hand: HandState) -> Event:
    dealt = hand.deal.dealt
    data = {
        "hand_number": hand.deal.number,
        "attempt": hand.deal.attempt,
        "opener": hand.deal.opener,
        "tiles": tuple(len(tiles) for tiles in dealt),
        "stock": len(hand.deal.stock),
    }
    return Event(seq, "hand_started", data, {seat: {"hand": t} for seat, t in enumerate(dealt)})


def turn(seq: int, hand: HandState) -> Event:
    """Whose turn it is, what double it must cover, and (to that seat only) what it may do."""
    assert hand.turn is not None
    must_cover = hand.must_cover
    cover = None if must_cover is None else {"tile": must_cover.tile, "ends": must_cover.ends}
    data = {"seat": hand.turn, "deadline": None, "must_cover": cover}
    return Event(seq, "turn", data, {hand.turn: {"legal": hand.legal}})


def tile_played(move: Move, hand: HandState) -> Event:
    placement = hand.board.tiles[-1]
    data = {
        "seat": move.seat,
        "tile": move.tile,
        "end": move.end,
        "outer": placement.outer,
        "spinner": placement.spinner,
        "points": move.points,
        "ends_total": hand.board.total,
    }
    return Event(move.seq, "tile_played", data)


def tile_drawn(move: Move, hand: HandState) -> Event:
    """The drawn tile goes to the drawer only; a drawer who keeps the turn also gets its new
    legal actions (no second `turn` event: the deadline does not move, RULES section 12)."""
    mine: dict[str, object] = {"tile": move.tile}
    if hand.turn == move.seat:
        mine["legal"] = hand.legal
    data = {"seat": move.seat, "stock": hand.stock_left}
    return Event(move.seq, "tile_drawn", data, {move.seat: mine})


def passed(move: Move) -> Event:
    return Event(move.seq, "passed", {"seat": move.seat})


def scored(seq: int, seat: int, points: int, score: int, cause: str) -> Event:
    data = {"seat": seat, "points": points, "score": score, "cause": cause}
    return Event(seq, "scored", data)


# A hand's and a match's end carry their result whole, field for field: the result Structs
# name the fields once.
def hand_ended(seq: int, result: HandResult) -> Event:
    return Event(seq, "hand_ended", asdict(result))


def match_ended(seq: int, result: MatchResult) -> Event:
    return Event(seq, "match_ended", asdict(result))


def forfeit(seq: int, seat: int, cause: str) -> Event:
    return Event(seq, "forfeit", {"seat": seat, "cause": cause})
