"""A JSON response written by msgspec (jsontext), for answers in their documented shape: plain
values and the contract's Structs alike, encoded once here."""

from __future__ import annotations

from starlette.responses import JSONResponse

from domino_api import jsontext


class FastJSONResponse(JSONResponse):
    """Skips FastAPI's response-model pass (validate, then dump) for a hot route's answer.

    The route names its answer's schema (`response_model`, or `answers.struct_answer` for a
    Struct's); tests/api/test_write_core.py checks every answer of played matches against it.
    """

    def render(self, content: object) -> bytes:
        return jsontext.dump_bytes(content)
