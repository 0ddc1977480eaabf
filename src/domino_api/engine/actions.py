"""Actions a seat or the service asks the engine to apply, and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar

from msgspec import Struct
from msgspec.structs import replace

from domino_api.engine.errors import IllegalMove
from domino_api.engine.kinds import EndName, ForfeitCause
from domino_api.engine.state import LegalAction
from domino_api.engine.tiles import Tile

END_NAMES = ("left", "right", "up", "down")
FORFEIT_CAUSES: tuple[ForfeitCause, ...] = ("clock", "away", "resign", "check_in")
AbandonReason = Literal["abandoned", "cancelled"]
ABANDON_REASONS: tuple[AbandonReason, ...] = ("abandoned", "cancelled")


class Start(Struct, frozen=True, gc=False):
    cut: str


class Play(Struct, frozen=True, gc=False):
    tile: Tile
    end: EndName | None
    reason: str | None = None


class Draw(Struct, frozen=True, gc=False):
    reason: str | None = None


class Pass(Struct, frozen=True, gc=False):
    reason: str | None = None


class NextHand(Struct, frozen=True, gc=False):
    pass


class Forfeit(Struct, frozen=True, gc=False):
    seat: int
    cause: ForfeitCause


class Abandon(Struct, frozen=True, gc=False):
    reason: AbandonReason = "abandoned"


Action = Start | Play | Draw | Pass | NextHand | Forfeit | Abandon
SeatAction = Play | Draw | Pass
A = TypeVar("A", bound=Action | LegalAction)


def action_to_json(action: Action | LegalAction) -> dict[str, Any]:
    """The JSON of an action; an offered option (`legal_actions`) is the move it names."""
    match action:
        case Start(cut=cut):
            return {"action": "start", "cut": cut}
        case Play(tile=tile, end=end, reason=reason):
            data: dict[str, Any] = {"action": "play", "tile": list(tile), "end": end}
            return _with_reason(data, reason)
        case Draw(reason=reason):
            return _with_reason({"action": "draw"}, reason)
        case Pass(reason=reason):
            return _with_reason({"action": "pass"}, reason)
        case NextHand():
            return {"action": "next_hand"}
        case Forfeit(seat=seat, cause=cause):
            return {"action": "forfeit", "seat": seat, "cause": cause}
        case Abandon(reason=reason):
            return {"action": "abandon", "reason": reason}
        case LegalAction(action=verb, tile=tile, end=end) if verb in ("draw", "pass"):
            return {"action": verb}
        case LegalAction(action="play", tile=tuple() as tile, end=end):
            return {"action": "play", "tile": list(tile), "end": end}
    raise TypeError(f"not an action: {action!r}")


def with_reason(action: A, reason: str | None) -> A:
    """A seat move carrying `reason` (why a computer chose it) unless it has one; an offered
    option, which carries none, and the other actions are left as they are."""
    if reason is not None and isinstance(action, Play | Draw | Pass) and action.reason is None:
        return replace(action, reason=reason)
    return action


def _with_reason(data: dict[str, Any], reason: str | None) -> dict[str, Any]:
    if reason is not None:
        data["reason"] = reason
    return data


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise IllegalMove(f"action {data.get('action')!r} needs a {name!r} field")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise IllegalMove(f"field {name!r} has the wrong type: {value!r}")
    return value


def _reason(data: Mapping[str, Any]) -> str | None:
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise IllegalMove("reason must be a string")
    return reason


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Parse an action written by action_to_json; malformed input is an IllegalMove."""
    if not isinstance(data, Mapping):
        raise IllegalMove("an action is an object with an 'action' field")
    kind = data.get("action")
    if kind == "start":
        return Start(cut=_field(data, "cut", str))
    if kind == "play":
        raw = _field(data, "tile", (list, tuple))
        if len(raw) != 2 or not all(type(p) is int for p in raw):
            raise IllegalMove(f"a tile is a pair of whole numbers [a, b], got {raw!r}")
        end = data.get("end")
        if end is not None and end not in END_NAMES:
            raise IllegalMove(f"end must be one of {list(END_NAMES)} or null, got {end!r}")
        return Play(tile=(raw[0], raw[1]), end=end, reason=_reason(data))
    if kind == "draw":
        return Draw(reason=_reason(data))
    if kind == "pass":
        return Pass(reason=_reason(data))
    if kind == "next_hand":
        return NextHand()
    if kind == "forfeit":
        cause = _field(data, "cause", str)
        if cause not in FORFEIT_CAUSES:
            raise IllegalMove(f"forfeit cause must be one of {list(FORFEIT_CAUSES)}")
        return Forfeit(seat=_field(data, "seat", int), cause=cause)
    if kind == "abandon":
        reason = data.get("reason", "abandoned")
        if reason not in ABANDON_REASONS:
            raise IllegalMove(f"abandon reason must be one of {list(ABANDON_REASONS)}")
        return Abandon(reason=reason)
    raise IllegalMove(f"unknown action {kind!r}")
