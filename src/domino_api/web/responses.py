"""A JSON response written by msgspec (jsontext), for answers in their documented shape: plain
values and the contract's Structs alike, encoded once here."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta
from pydantic import JsonValue
from starlette.responses import JSONResponse

from domino_api import jsontext


class FastJSONResponse(JSONResponse):
    """Skips FastAPI's response-model pass (validate, then dump) for a hot route's answer.

    The route names its answer's schema (`response_model`, or `struct_answer` below for a
    Struct's); tests/api/test_write_core.py checks every answer of played matches against it.
    """

    def render(self, content: object) -> bytes:
        return jsontext.dump_bytes(content)


# A moment of an answer: msgspec publishes a datetime as a bare string; it is RFC 3339's.
DateTime = Annotated[datetime, Meta(extra_json_schema={"format": "date-time"})]

# Where the published documents keep each schema (openapi.json, asyncapi.yaml).
REF = "#/components/schemas/{name}"


def struct_answer(
    kind: type, status: int = 200, many: bool = False
) -> dict[int | str, dict[str, JsonValue]]:
    """A route's `responses=` entry for an answer typed by a Struct (or an event type); with
    `many`, a JSON array of them."""
    schema: dict[str, JsonValue] = {"$ref": REF.format(name=kind.__name__)}
    if many:
        schema = {"type": "array", "items": schema}
    description = (kind.__doc__ or "").strip().splitlines()[0]
    return {
        status: {"description": description, "content": {"application/json": {"schema": schema}}}
    }
