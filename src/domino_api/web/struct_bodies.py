"""The one way a request body typed by msgspec Structs is read: a route dependency that decodes
the body into the type and answers what pydantic's bodies answer for the same faults (400
`bad_request` for a body that is not JSON; 422 `validation_error` naming the field), and the
route's `openapi_extra` that publishes the type's schema as its request body.

As for pydantic's bodies (web/inputs.py), a whole number written `3.0` is the number 3, a body
nested deeper than MAX_DEPTH is refused, and no string may hold the NUL character.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import msgspec
from fastapi import Request
from pydantic import JsonValue

from domino_api.errors import BadRequest, ValidationFailed
from domino_api.web.inputs import holds_nul, whole_numbers

T = TypeVar("T")
REF = "#/components/schemas/{name}"


def reader(kind: type[T] | object, name: str) -> Callable[[Request], Awaitable[T]]:
    """A dependency giving the request's body decoded as `kind` (a Struct or a union of them,
    published as the schema `name`)."""

    async def read(request: Request) -> T:
        return decode(await request.body(), kind)

    read.__name__ = f"read_{name}"
    return read


def decode(raw: bytes, kind: type[T] | object) -> T:
    """`raw` as `kind`, or the problem a client gets for it."""
    if not raw.strip():
        raise ValidationFailed("body: Field required")
    try:
        value = whole_numbers(msgspec.json.decode(raw))
    except msgspec.DecodeError:
        raise BadRequest("The body is not valid JSON.") from None
    except ValueError as error:
        raise ValidationFailed(f"body: {error}") from None
    if holds_nul(value):
        raise ValidationFailed("body: text may not contain the NUL character (\\u0000)")
    try:
        decoded: T = msgspec.convert(value, kind)
    except msgspec.ValidationError as error:
        raise ValidationFailed(_summary(str(error))) from None
    return decoded


def _summary(message: str) -> str:
    """msgspec's `what - at `$.tile[1]`` as `tile.1: what`, the form pydantic's errors take."""
    what, _, where = message.partition(" - at `$")
    path = where.rstrip("`").replace("[", ".").replace("]", "").lstrip(".")
    return f"{path or 'body'}: {what}"


def request_body(name: str) -> dict[str, JsonValue]:
    """A route's `openapi_extra` naming its body's published schema (documents/openapi_doc.py
    adds the schema itself)."""
    schema: dict[str, JsonValue] = {"$ref": REF.format(name=name)}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}
