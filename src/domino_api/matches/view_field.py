"""The view as a field of a pydantic model (a socket's snapshot, an answer carrying the view):
validated and written as the msgspec Struct it is (engine/view_types.py), published as a
reference to the one generated `ViewOut` schema."""

from __future__ import annotations

from typing import Annotated

import msgspec
from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

from domino_api.engine.view_types import ViewOut


def _as_view(value: object) -> ViewOut:
    if isinstance(value, ViewOut):
        return value
    try:
        return msgspec.convert(value, ViewOut)
    except msgspec.ValidationError as error:
        raise ValueError(str(error)) from None


def _as_builtins(view: ViewOut) -> object:
    return msgspec.to_builtins(view)


ViewField = Annotated[
    ViewOut,
    PlainValidator(_as_view),
    PlainSerializer(_as_builtins),
    # In allOf: pydantic resolves a bare `$ref` beside a field's title in its own definitions.
    WithJsonSchema({"allOf": [{"$ref": "#/components/schemas/ViewOut"}]}),
]
