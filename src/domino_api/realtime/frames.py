"""Every frame of the match and lobby sockets, both directions: one msgspec Struct each.

Each union is tagged by `type` (as engine/event_types.py tags events), so a client frame is one
strict decode (`read_frame`) and a server frame one encode (`text_of`); openapi/asyncapi.yaml's
payloads are generated from these types (documents/asyncapi.py).

A refused client frame changes nothing and is answered `ErrorFrame` (`id` null when the frame
could not be read). uvicorn refuses frames above `MAX_FRAME_BYTES` before reading them
(app/serving.py); the check here holds under any server. A frame nested deeper than the
parser goes is an error frame too, and logged, rather than the socket's silent end.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Annotated, Literal, TypeGuard

import msgspec
from msgspec import Meta, Struct

from domino_api import jsontext
from domino_api.engine.event_types import AnyEvent, Pip
from domino_api.engine.kinds import EndName
from domino_api.engine.view_types import ViewOut
from domino_api.errors import BadRequest, ProblemDoc, ValidationFailed
from domino_api.web.names import SHOWN_TEXT
from domino_api.web.problem_docs import problem_of

log = logging.getLogger(__name__)

# Frames larger than this are refused with an error and change nothing.
MAX_FRAME_BYTES = 64 * 1024

# Close codes: 4000 + HTTP status with the problem code as reason, and these of our own.
CLOSE_TOO_SLOW = 4008
TOO_SLOW_REASON = "too_slow"
# A seat of this socket was claimed by name from another device (a `seat_joined` event with
# `claimed: true`): the old holder's sockets close with this.
CLOSE_SEAT_CLAIMED = 4409
SEAT_CLAIMED_REASON = "seat_claimed"

# A client's own id for a request, echoed in its ack or error: only ids the answer can carry
# (JSON numbers outside 64 bits cannot be written back; a lone surrogate is not read at all).
ID_LOWEST, ID_HIGHEST = -(2**63), 2**63 - 1
ClientId = (
    Annotated[int, Meta(ge=ID_LOWEST, le=ID_HIGHEST)]
    | Annotated[str, Meta(min_length=1, max_length=64)]
)
Seat = Annotated[int, Meta(ge=0, le=7)] | None
Seq = Annotated[int, Meta(ge=0, le=2**31 - 1)]
CutText = Annotated[str, Meta(max_length=64, pattern=SHOWN_TEXT)]
TalkText = Annotated[str, Meta(min_length=1, max_length=500, pattern=SHOWN_TEXT)]


class _Frame(Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    pass


# ------------------------------------------------------------ what a client sends


class AuthFrame(_Frame, frozen=True, tag="auth"):
    """A browser's first frame, instead of the Authorization header."""

    token: Annotated[str, Meta(min_length=1, max_length=200)]


# The move a `move` frame carries, in one place: the fields of POST /v1/matches/{id}/moves'
# body (matches/schemas.py `MoveBody`), flat beside the frame's `type` and `id`.
MoveAction = Literal["play", "draw", "pass"]
MoveTile = tuple[Pip, Pip]


class MoveFrame(_Frame, frozen=True, tag="move"):
    """Play, draw or pass; the same body as POST /v1/matches/{id}/moves."""

    id: ClientId
    action: MoveAction
    seq: Seq
    tile: MoveTile | None = None
    end: EndName | None = None
    seat: Seat = None


class StartFrame(_Frame, frozen=True, tag="start"):
    """Host only: cut and deal hand 1; the same body as POST /v1/matches/{id}/start."""

    id: ClientId
    cut: CutText | None = None
    fill_with_bots: bool = False


class NextHandFrame(_Frame, frozen=True, tag="next_hand"):
    """Start the next hand once a hand is over."""

    id: ClientId
    seat: Seat = None


class ReadyFrame(_Frame, frozen=True, tag="ready"):
    """Tournament check-in."""

    id: ClientId
    seat: Seat = None


class ResignFrame(_Frame, frozen=True, tag="resign"):
    """The seat forfeits."""

    id: ClientId
    seat: Seat = None


class RematchFrame(_Frame, frozen=True, tag="rematch"):
    """Offer (or accept) a rematch once the match is over."""

    id: ClientId
    seat: Seat = None


class MessageFrame(_Frame, frozen=True, tag="message"):
    """Table talk, as POST /v1/matches/{id}/messages."""

    id: ClientId
    text: TalkText
    seat: Seat = None


class PingFrame(_Frame, frozen=True, tag="ping"):
    """Answered `pong` with the same id."""

    id: ClientId | None = None


# A step a seat asks of the match (each acknowledged with the match's seq).
SeatStepFrame = NextHandFrame | ReadyFrame | ResignFrame | RematchFrame
RequestFrame = MoveFrame | StartFrame | MessageFrame | SeatStepFrame
ClientFrame = AuthFrame | RequestFrame | PingFrame

# ------------------------------------------------------------ what the server sends


class SnapshotFrame(_Frame, frozen=True, tag="snapshot"):
    """First frame on every connection: the viewing seat's view as it is now (with `after=N`
    the events after N follow; those up to the view's seq are already reflected in it)."""

    view: ViewOut


class EventFrame(_Frame, frozen=True, tag="event"):
    """One event, filtered for the viewing seat, in seq order without gaps."""

    event: AnyEvent


class AckFrame(_Frame, frozen=True, tag="ack"):
    """A request done; `seq` is the match's seq after it, computer replies included. The
    events up to `seq` came before it on this socket, so an ack carries no view."""

    id: ClientId
    seq: Annotated[int, Meta(ge=0)]


class ErrorFrame(_Frame, frozen=True, tag="error"):
    """A request refused (nothing changed); `id` is null when the frame could not be read."""

    id: ClientId | None
    error: ProblemDoc


class PongFrame(_Frame, frozen=True, tag="pong"):
    """The answer to `ping`."""

    id: ClientId | None = None


class KeepaliveFrame(_Frame, frozen=True, tag="keepalive"):
    """Sent by the server at least every 20 s so idle proxies keep the connection open."""

    now: Annotated[str, Meta(description="ISO 8601, UTC")]


class SubscribedFrame(_Frame, frozen=True, tag="subscribed"):
    """The lobby socket's first frame: the preset it now follows ("": none, only the player's
    own events)."""

    preset: str


Answer = AckFrame | PongFrame | ErrorFrame
ServerFrame = SnapshotFrame | EventFrame | Answer | KeepaliveFrame | SubscribedFrame

CLIENT_FRAMES: tuple[type[_Frame], ...] = (
    AuthFrame,
    MoveFrame,
    StartFrame,
    NextHandFrame,
    ReadyFrame,
    ResignFrame,
    RematchFrame,
    MessageFrame,
    PingFrame,
)
SERVER_FRAMES: tuple[type[_Frame], ...] = (
    SnapshotFrame,
    EventFrame,
    AckFrame,
    ErrorFrame,
    PongFrame,
    KeepaliveFrame,
    SubscribedFrame,
)


def tag_of(frame: type[_Frame]) -> str:
    tag = frame.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


CLIENT_TYPES = tuple(tag_of(frame) for frame in CLIENT_FRAMES)

_DECODE = msgspec.json.Decoder(ClientFrame).decode
_AUTH = msgspec.json.Decoder(AuthFrame).decode
# A `\u0000` escape (after an even run of backslashes, so not an escaped backslash's text).
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def text_of(frame: ServerFrame) -> str:
    return jsontext.dumps(frame)


def error_frame(client_id: int | str | None, exc: Exception) -> ErrorFrame:
    return ErrorFrame(id=client_id, error=problem_of(exc))


def auth_token(text: str) -> str | None:
    """The token of a first `auth` frame, or None if the frame is not one."""
    try:
        return _AUTH(text[:MAX_FRAME_BYTES]).token
    except msgspec.MsgspecError:
        return None


def read_frame(text: str | None, data: bytes | None) -> ClientFrame | ErrorFrame:
    """The client frame a socket message holds, or the error frame that refuses it."""
    if text is None:
        size = len(data or b"")
        return error_frame(None, BadRequest(f"Send JSON text frames; got {size} binary bytes."))
    if len(text) > MAX_FRAME_BYTES // 4 and len(text.encode()) > MAX_FRAME_BYTES:
        return error_frame(None, BadRequest(f"A frame may hold at most {MAX_FRAME_BYTES} bytes."))
    if _NUL_ESCAPE.search(text) is None:
        try:
            frame: ClientFrame = _DECODE(text)
            return frame
        except msgspec.MsgspecError as error:
            return _refusal(text, error)
    # As on REST (web/struct_bodies.py): PostgreSQL stores no NUL.
    detail = "text may not contain the NUL character (\\u0000)"
    return _refusal(text, ValidationFailed(detail))


def _refusal(text: str, error: Exception) -> ErrorFrame:
    """The error frame for a frame that was not read: the standard library reads it again,
    only to echo its `id` and name what was wrong."""
    try:
        raw: object = json.loads(text)
    except RecursionError:
        log.warning("socket frame refused: JSON nested too deeply (%d bytes)", len(text))
        return error_frame(None, BadRequest("The frame's JSON is nested too deeply."))
    except ValueError:
        return error_frame(None, BadRequest("The frame is not valid JSON."))
    if isinstance(error, ValidationFailed):
        return error_frame(_client_id(raw), error)
    if not isinstance(raw, dict) or raw.get("type") not in CLIENT_TYPES:
        kinds = ", ".join(CLIENT_TYPES)
        return error_frame(_client_id(raw), ValidationFailed(f"type: expected one of {kinds}."))
    if not isinstance(error, msgspec.ValidationError):  # JSON only the standard library reads
        return error_frame(None, ValidationFailed("body: Invalid JSON"))
    return error_frame(_client_id(raw), ValidationFailed(_detail(raw["type"], str(error))))


def _detail(kind: str, message: str) -> str:
    """`move.seq: Expected int` from msgspec's `Expected int - at $.seq`: the field's path
    (list positions kept) as REST's problem details name it (web/struct_bodies.summary)."""
    what, _, where = message.partition(" - at `$")
    path = where.rstrip("`").replace("[", ".").replace("]", "").lstrip(".")
    if "matching regex" in what:
        what = "text shown at the table may not hold a control or bidi character"
    return f"{kind}.{path}: {what}" if path else f"{kind}: {what}"


def echoable_id(value: object) -> TypeGuard[int | str]:
    """Whether `value` is an id an answer can carry back."""
    if isinstance(value, int) and not isinstance(value, bool):
        return ID_LOWEST <= value <= ID_HIGHEST
    if isinstance(value, str) and 0 < len(value) <= 64:
        return value.encode("utf-8", "replace") == value.encode("utf-8", "surrogatepass")
    return False


def _client_id(raw: object) -> int | str | None:
    value: object = raw.get("id") if isinstance(raw, dict) else None
    return value if echoable_id(value) else None
