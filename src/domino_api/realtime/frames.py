"""A client's frame on the match socket, read: the request it holds, or the error that refuses it.

A refused frame changes nothing and is answered `{"type": "error", "id", "error": {problem}}`
(`id` null when the frame could not be read). uvicorn refuses frames above
`messages.MAX_FRAME_BYTES` before reading them (app/serving.py); the check here holds under any
server. A frame nested deeper than the parser goes (a 20,000-deep array) is an error frame too,
and logged, rather than the socket's silent end.
"""

from __future__ import annotations

import json
import logging
from typing import Literal, TypedDict

from pydantic import ValidationError

from domino_api.errors import BadRequest, ProblemDoc, ValidationFailed
from domino_api.realtime import messages as m
from domino_api.web.inputs import error_summary, holds_nul
from domino_api.web.problem_docs import problem_of

log = logging.getLogger(__name__)


class ErrorFrame(TypedDict):
    type: Literal["error"]
    id: int | str | None
    error: ProblemDoc


class AckFrame(TypedDict):
    type: Literal["ack"]
    id: int | str
    seq: int


class PongFrame(TypedDict):
    type: Literal["pong"]
    id: int | str | None


Answer = AckFrame | PongFrame | ErrorFrame


def error_frame(client_id: int | str | None, exc: Exception) -> ErrorFrame:
    return {"type": "error", "id": client_id, "error": problem_of(exc)}


def request_of(text: str | None, data: bytes | None) -> m.Incoming | ErrorFrame:
    """The client message a frame holds, or the error frame (a dict) that refuses it."""
    if text is None:
        size = len(data or b"")
        return error_frame(None, BadRequest(f"Send JSON text frames; got {size} binary bytes."))
    if len(text) > m.MAX_FRAME_BYTES // 4 and len(text.encode()) > m.MAX_FRAME_BYTES:
        detail = f"A frame may hold at most {m.MAX_FRAME_BYTES} bytes."
        return error_frame(None, BadRequest(detail))
    try:
        return _parsed(text)
    except RecursionError:
        log.warning("socket frame refused: JSON nested too deeply (%d bytes)", len(text))
        return error_frame(None, BadRequest("The frame's JSON is nested too deeply."))


def _parsed(text: str) -> m.Incoming | ErrorFrame:
    try:
        raw = json.loads(text)
    except ValueError:
        return error_frame(None, BadRequest("The frame is not valid JSON."))
    client_id = _client_id(raw)
    if holds_nul(raw):  # as on REST (inputs.Strict): PostgreSQL stores no NUL
        detail = "text may not contain the NUL character (\\u0000)"
        return error_frame(client_id, ValidationFailed(detail))
    if not isinstance(raw, dict) or raw.get("type") not in m.CLIENT_TYPES:
        kinds = ", ".join(m.CLIENT_TYPES)
        return error_frame(client_id, ValidationFailed(f"type: expected one of {kinds}."))
    try:
        return m.CLIENT_MESSAGES.validate_json(text)
    except ValidationError as exc:
        return error_frame(client_id, ValidationFailed(error_summary(exc.errors())))


def _client_id(raw: object) -> int | str | None:
    value: object = raw.get("id") if isinstance(raw, dict) else None
    return value if m.echoable_id(value) else None
