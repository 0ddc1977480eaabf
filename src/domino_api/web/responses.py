"""A JSON response rendered by orjson, for answers already in their documented shape."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from domino_api import jsontext


class FastJSONResponse(JSONResponse):
    """Skips FastAPI's response-model pass (validate, then dump) for a hot route's answer.

    The route still declares its `response_model`, so the OpenAPI document is unchanged; the
    answer must already be plain JSON of that shape (tests/api/test_write_core.py checks it
    against the model for every answer of played matches).
    """

    def render(self, content: Any) -> bytes:
        return jsontext.dump_bytes(content)
