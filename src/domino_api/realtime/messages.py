"""The WebSocket protocol's messages as pydantic models (openapi/asyncapi.yaml documents them)."""

from __future__ import annotations

from typing import Annotated, Literal, TypeGuard

import msgspec
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, TypeAdapter, WithJsonSchema

from domino_api.engine.event_types import AnyEvent
from domino_api.matches.schemas import EndName, TileIn
from domino_api.matches.view_field import ViewField
from domino_api.web.names import CutText, TalkText
from domino_api.web.problems import Problem

# A client's own id for a request, echoed in its ack or error: only ids the answer can carry
# (JSON numbers outside 64 bits and lone surrogates cannot be written back).
ID_LOWEST, ID_HIGHEST = -(2**63), 2**63 - 1


def _unicode(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (a lone surrogate cannot)."""
    return text.encode("utf-8", "replace") == text.encode("utf-8", "surrogatepass")


def echoable_id(value: object) -> TypeGuard[int | str]:
    """Whether `value` is an id a request may carry: one its ack or error frame can carry
    back (an integer within signed 64 bits, or 1-64 characters of writable Unicode)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return ID_LOWEST <= value <= ID_HIGHEST
    if isinstance(value, str) and 0 < len(value) <= 64:
        return _unicode(value)
    return False


def _client_id(value: object) -> int | str:
    if not echoable_id(value):
        raise ValueError(
            "an id is an integer from -2^63 to 2^63-1 or a string of 1 to 64 characters"
            " (no lone surrogate)"
        )
    return value


# One check (`echoable_id`), so that the error pydantic writes names the field alone and not
# the members of a union; its JSON schema is the hand-written one in openapi/asyncapi.yaml.
ClientId = Annotated[
    int | str,
    PlainValidator(_client_id),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "minLength": 1, "maxLength": 64},
                {"type": "integer", "minimum": ID_LOWEST, "maximum": ID_HIGHEST},
            ]
        }
    ),
]


def _event(value: object) -> AnyEvent:
    """An event as engine/event_types.py types it (its schema is msgspec's, in asyncapi.yaml)."""
    try:
        event: AnyEvent = msgspec.convert(value, AnyEvent)
    except msgspec.ValidationError as error:
        raise ValueError(str(error)) from None
    return event


SeatField = Annotated[int | None, Field(ge=0, le=3)]

# Frames larger than this are refused with an error and change nothing.
MAX_FRAME_BYTES = 64 * 1024

# Close codes: 4000 + HTTP status with the problem code as reason, and one of our own
# (openapi/asyncapi.yaml).
CLOSE_TOO_SLOW = 4008
TOO_SLOW_REASON = "too_slow"
# A seat of this socket was claimed by name from another device (a `seat_joined` event with
# `claimed: true`): the old holder's sockets close with this.
CLOSE_SEAT_CLAIMED = 4409
SEAT_CLAIMED_REASON = "seat_claimed"
# More open sockets for one token than DOMINO_SOCKETS_PER_TOKEN: 4429 `rate_limited`.


class ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AuthMessage(ClientMessage):
    """A browser's first message when it cannot send the Authorization header."""

    type: Literal["auth"]
    token: str = Field(min_length=1, max_length=200)


class MoveMessage(ClientMessage):
    """The same body as POST /v1/matches/{id}/moves, with the client's id."""

    type: Literal["move"]
    id: ClientId
    action: Literal["play", "draw", "pass"]
    tile: TileIn | None = None
    end: EndName | None = None
    seq: int = Field(ge=0, le=2**31 - 1)
    seat: SeatField = None


class StartMessage(ClientMessage):
    """Host: cut and deal hand 1; the same body as POST /v1/matches/{id}/start."""

    type: Literal["start"]
    id: ClientId
    cut: CutText | None = None
    fill_with_bots: bool = False


class NextHandMessage(ClientMessage):
    type: Literal["next_hand"]
    id: ClientId
    seat: SeatField = None


class ReadyMessage(ClientMessage):
    type: Literal["ready"]
    id: ClientId
    seat: SeatField = None


class ResignMessage(ClientMessage):
    type: Literal["resign"]
    id: ClientId
    seat: SeatField = None


class RematchMessage(ClientMessage):
    type: Literal["rematch"]
    id: ClientId
    seat: SeatField = None


class ChatMessage(ClientMessage):
    """Table talk, as POST /v1/matches/{id}/messages."""

    type: Literal["message"]
    id: ClientId
    text: TalkText
    seat: SeatField = None


class PingMessage(ClientMessage):
    type: Literal["ping"]
    id: ClientId | None = None


# What a client asks of the match (each acknowledged with the match's seq), and every message.
Request = (
    MoveMessage
    | StartMessage
    | NextHandMessage
    | ReadyMessage
    | ResignMessage
    | RematchMessage
    | ChatMessage
)
Incoming = AuthMessage | Request | PingMessage
AnyClientMessage = Annotated[Incoming, Field(discriminator="type")]
CLIENT_MESSAGES: TypeAdapter[Incoming] = TypeAdapter(AnyClientMessage)
CLIENT_TYPES = (
    "auth",
    "move",
    "start",
    "next_hand",
    "ready",
    "resign",
    "rematch",
    "message",
    "ping",
)


class SnapshotMessage(BaseModel):
    """First message on every connection: the viewing seat's view as it is now (with `after=N`
    the events after N follow; those up to the view's seq are already reflected in it)."""

    type: Literal["snapshot"]
    view: ViewField


class EventMessage(BaseModel):
    """One event, filtered for the viewing seat, in seq order without gaps."""

    type: Literal["event"]
    event: Annotated[AnyEvent, PlainValidator(_event)]


class AckMessage(BaseModel):
    """A request done; `seq` is the match's seq after it, computer replies included. The
    events up to `seq` came before it on this socket (a step's own events straight from the
    step), so an ack carries no view."""

    type: Literal["ack"]
    id: ClientId
    seq: int


class ErrorMessage(BaseModel):
    """A request refused (nothing changed); `id` is null when the frame could not be read."""

    type: Literal["error"]
    id: ClientId | None
    error: Problem


class PongMessage(BaseModel):
    type: Literal["pong"]
    id: ClientId | None = None


class KeepaliveMessage(BaseModel):
    """Sent by the server at least every 20 s so idle proxies keep the connection open."""

    type: Literal["keepalive"]
    now: str


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "snapshot": SnapshotMessage,
    "event": EventMessage,
    "ack": AckMessage,
    "error": ErrorMessage,
    "pong": PongMessage,
    "keepalive": KeepaliveMessage,
}
CLIENT_MODELS: dict[str, type[BaseModel]] = {
    "auth": AuthMessage,
    "move": MoveMessage,
    "start": StartMessage,
    "next_hand": NextHandMessage,
    "ready": ReadyMessage,
    "resign": ResignMessage,
    "rematch": RematchMessage,
    "message": ChatMessage,
    "ping": PingMessage,
}
