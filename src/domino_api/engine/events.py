"""Events: what happened, numbered by `seq`, with the parts only one seat may see kept apart.

Payloads hold tuples (and LegalAction tuples) so the hot path stays cheap and nothing shared can
be changed; `for_seat` and `to_json` turn them into plain JSON values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, cast

from domino_api.engine.state import LegalAction, MatchState

# Events that never make a move stale (docs/ARCHITECTURE.md, "The write core", step 3).
NON_GAME_EVENTS = frozenset(
    {
        "seat_connected",
        "seat_disconnected",
        "message",
        "ready",
        "rematch_offered",
        "tile_back_changed",
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


@dataclass(frozen=True, slots=True)
class Event:
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


def _slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    # The slot's own descriptor: setting through it skips object.__setattr__'s lookup by name.
    setter: Callable[[object, object], None] = cls.__dict__[name].__set__
    return setter


_new = object.__new__
_event_seq = _slot_setter(Event, "seq")
_event_type = _slot_setter(Event, "type")
_event_data = _slot_setter(Event, "data")
_event_private = _slot_setter(Event, "private")


class _EventDraft:
    """Event's slot layout without the frozen `__setattr__`: filled with plain (specialised)
    attribute stores, then turned into an Event by `__class__` assignment, which CPython allows
    between classes of identical layout. A third cheaper than setting an Event's slots through
    their descriptors (140 ns against 200; Event(...) takes 400)."""

    __slots__ = ("data", "private", "seq", "type")
    seq: int
    type: str
    data: Mapping[str, object]
    private: Mapping[int, Mapping[str, object]]


def new_event(
    seq: int,
    type: str,
    data: Mapping[str, object],
    private: Mapping[int, Mapping[str, object]],
) -> Event:
    """`Event(seq, type, data, private)` without the frozen dataclass `__init__` (a Python frame
    and four `object.__setattr__` calls): the same object, built in a third of the time. The
    engine's event builders use it because the service reads the events of every move."""
    event = _EventDraft()
    event.seq = seq
    event.type = type
    event.data = data
    event.private = private
    event.__class__ = Event  # type: ignore[assignment]
    return event  # type: ignore[return-value]


def _new_event_by_slots(
    seq: int,
    type: str,
    data: Mapping[str, object],
    private: Mapping[int, Mapping[str, object]],
) -> Event:
    """new_event's fallback should Event's layout ever stop matching _EventDraft's."""
    event: Event = _new(Event)
    _event_seq(event, seq)
    _event_type(event, type)
    _event_data(event, data)
    _event_private(event, private)
    return event


def _draft_works() -> bool:
    try:
        probe = new_event(0, "probe", {}, {1: {}})
    except TypeError:  # "object layout differs"
        return False
    return probe.__class__ is Event and probe == Event(0, "probe", {}, {1: {}})


if not _draft_works():  # pragma: no cover - Event's fields changed, or another interpreter
    new_event = _new_event_by_slots

_function: type = type(new_event)  # what a builder is: a plain function or closure


class Transition:
    """The state after an action and the events it caused.

    The hot path (deals, plays, draws, passes) hands over a function of the new state that
    builds its events, and `events` calls it on first access: playouts and bots that only follow
    `state` never pay for them. Immutable like the rest: attributes cannot be set or deleted.
    """

    # `_events` holds the events, or until first access the function that builds them.
    __slots__ = ("_events", "state")

    state: MatchState
    _events: tuple[Event, ...] | Callable[[MatchState], tuple[Event, ...]]

    def __init__(self, state: MatchState, events: tuple[Event, ...]) -> None:
        _set(self, "state", state)
        _set(self, "_events", events)

    @property
    def events(self) -> tuple[Event, ...]:
        events = self._events
        if events.__class__ is not _function:
            return events  # type: ignore[return-value]
        built = events(self.state)  # type: ignore[operator]
        _set_events(self, built)
        return built

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Transition)
        return self.state == other.state and self.events == other.events

    def __hash__(self) -> int:
        return hash((self.state, self.events))

    def __repr__(self) -> str:
        return f"Transition(state={self.state!r}, events={self.events!r})"

    def __reduce__(self) -> tuple[type[Transition], tuple[MatchState, tuple[Event, ...]]]:
        return (Transition, (self.state, self.events))  # pickle and copy build the events


_set = object.__setattr__
_set_events = _slot_setter(Transition, "_events")


class TransitionDraft:
    """Transition's slot layout without its `__setattr__` guard. The hot path (every play and
    pass) fills one with plain attribute stores and then assigns it the class Transition, as
    new_event does with _EventDraft: a third cheaper than setting a Transition's slots through
    their descriptors. Anything else should call lazy_transition."""

    __slots__ = ("_events", "state")
    state: MatchState
    _events: Callable[[MatchState], tuple[Event, ...]]


def lazy_transition(
    state: MatchState, build: Callable[[MatchState], tuple[Event, ...]]
) -> Transition:
    """A Transition whose events are `build(state)`, built on first access of `.events`."""
    transition = TransitionDraft()
    transition.state = state
    transition._events = build
    transition.__class__ = Transition  # type: ignore[assignment]
    return transition  # type: ignore[return-value]


# Both drafts rely on CPython allowing __class__ assignment between identical slot layouts;
# Transition's draft is defined right here, so a mismatch is a bug: fail at import.
if lazy_transition(None, new_event).__class__ is not Transition:  # type: ignore[arg-type]
    raise ImportError("TransitionDraft no longer matches Transition's layout")
