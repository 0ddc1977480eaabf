"""Events: what happened, numbered by `seq`, with the parts only one seat may see kept apart.

Payloads hold tuples (and LegalAction tuples) so the hot path stays cheap and nothing shared can
be changed; `for_seat` and `to_json` turn them into plain JSON values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domino_api.engine.state import LegalAction, MatchState

# Events that never make a move stale (API.md, Concurrency).
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


def jsonable(value: object) -> Any:
    """A plain JSON value: tuples become lists, legal actions their dicts, mappings fresh dicts."""
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


@dataclass(frozen=True, slots=True)
class Transition:
    state: MatchState
    events: tuple[Event, ...]
