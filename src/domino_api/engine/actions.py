"""Actions a seat or the service asks the engine to apply. Each owns its JSON form, the one a
stored event's `action` holds: tagged by `action`, a seat move's `reason` only when it has one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypeVar, get_args

from msgspec import Struct
from msgspec.structs import replace

from domino_api.engine.errors import IllegalMove
from domino_api.engine.kinds import EndName, ForfeitCause, Json
from domino_api.engine.state import LegalAction
from domino_api.engine.tiles import Tile

END_NAMES: tuple[EndName, ...] = get_args(EndName)
FORFEIT_CAUSES: tuple[ForfeitCause, ...] = ("clock", "away", "resign", "check_in")
AbandonReason = Literal["abandoned", "cancelled"]
ABANDON_REASONS: tuple[AbandonReason, ...] = ("abandoned", "cancelled")


class Start(Struct, frozen=True, gc=False, tag_field="action", tag="start"):
    cut: str


class Play(Struct, frozen=True, gc=False, tag_field="action", tag="play", omit_defaults=True):
    tile: Tile
    end: EndName | None
    reason: str | None = None


class Draw(Struct, frozen=True, gc=False, tag_field="action", tag="draw", omit_defaults=True):
    reason: str | None = None


class Pass(Struct, frozen=True, gc=False, tag_field="action", tag="pass", omit_defaults=True):
    reason: str | None = None


class NextHand(Struct, frozen=True, gc=False, tag_field="action", tag="next_hand"):
    pass


class Forfeit(Struct, frozen=True, gc=False, tag_field="action", tag="forfeit"):
    seat: int
    cause: ForfeitCause


class Abandon(Struct, frozen=True, gc=False, tag_field="action", tag="abandon"):
    reason: AbandonReason = "abandoned"


Action = Start | Play | Draw | Pass | NextHand | Forfeit | Abandon
SeatAction = Play | Draw | Pass
A = TypeVar("A", bound=Action | LegalAction)


def action_to_json(action: Action | LegalAction) -> Action:
    """The action as a stored event holds it (msgspec writes its JSON); an offered option
    (`legal_actions`) is the move it names."""
    match action:
        case LegalAction(action="draw"):
            return Draw()
        case LegalAction(action="pass"):
            return Pass()
        case LegalAction(action="play", tile=tuple() as tile, end=end):
            return Play(tile=tile, end=end)
        case LegalAction():
            raise TypeError(f"not an action: {action!r}")
    return action


class Acted(Struct, frozen=True, gc=False):
    """What a stored event notes of the action that made it: the seat and the action."""

    seat: int | None
    action: Action


class Recorded(Struct, frozen=True, gc=False):
    """What a stored event notes of a table event (chat, presence, seats): its type."""

    record: str


Note = Acted | Recorded  # a step's first event's `action` column: what replays the step


def note_from_json(data: Mapping[str, Json]) -> Note:
    """A stored note read back; a malformed one is a ValueError (or an IllegalMove)."""
    if "record" in data:
        return Recorded(str(data["record"]))
    seat = data.get("seat")
    if seat is not None and type(seat) is not int:
        raise ValueError(f"a stored action's seat is a number or null, got {seat!r}")
    return Acted(seat, action_from_json(data.get("action")))


def with_reason(action: A, reason: str | None) -> A:
    """A seat move carrying `reason` (why a computer chose it) unless it has one; an offered
    option, which carries none, and the other actions are left as they are."""
    if reason is not None and isinstance(action, Play | Draw | Pass) and action.reason is None:
        return replace(action, reason=reason)
    return action


T = TypeVar("T")


def _field(data: Mapping[str, Json], name: str, kind: type[T]) -> T:
    if name not in data:
        raise IllegalMove(f"action {data.get('action')!r} needs a {name!r} field")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise IllegalMove(f"field {name!r} has the wrong type: {value!r}")
    return value


def _reason(data: Mapping[str, Json]) -> str | None:
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise IllegalMove("reason must be a string")
    return reason


def action_from_json(data: object) -> Action:
    """Parse an action written by action_to_json; malformed input is an IllegalMove."""
    if not isinstance(data, Mapping):
        raise IllegalMove("an action is an object with an 'action' field")
    kind = data.get("action")
    if kind == "start":
        return Start(cut=_field(data, "cut", str))
    if kind == "play":
        return Play(tile=_tile(data), end=_end(data.get("end")), reason=_reason(data))
    if kind == "draw":
        return Draw(reason=_reason(data))
    if kind == "pass":
        return Pass(reason=_reason(data))
    if kind == "next_hand":
        return NextHand()
    if kind == "forfeit":
        cause = _field(data, "cause", str)
        for known in FORFEIT_CAUSES:
            if cause == known:
                return Forfeit(seat=_field(data, "seat", int), cause=known)
        raise IllegalMove(f"forfeit cause must be one of {list(FORFEIT_CAUSES)}")
    if kind == "abandon":
        reason = data.get("reason", "abandoned")
        for known_reason in ABANDON_REASONS:
            if reason == known_reason:
                return Abandon(reason=known_reason)
        raise IllegalMove(f"abandon reason must be one of {list(ABANDON_REASONS)}")
    raise IllegalMove(f"unknown action {kind!r}")


def _tile(data: Mapping[str, Json]) -> Tile:
    if "tile" not in data:
        raise IllegalMove("action 'play' needs a 'tile' field")
    raw = data["tile"]
    if not isinstance(raw, list | tuple):
        raise IllegalMove(f"field 'tile' has the wrong type: {raw!r}")
    match raw:
        case [int() as a, int() as b] if type(a) is int and type(b) is int:
            return (a, b)
    raise IllegalMove(f"a tile is a pair of whole numbers [a, b], got {raw!r}")


def _end(end: object) -> EndName | None:
    for name in END_NAMES:
        if end == name:
            return name
    if end is not None:
        raise IllegalMove(f"end must be one of {list(END_NAMES)} or null, got {end!r}")
    return None
