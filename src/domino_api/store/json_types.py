"""JSON as the JSONB columns hold it, for the few values that really are arbitrary JSON (an
idempotent request's stored answer, a column read back before its typed reader checks it):
pydantic's `JsonValue`, the one JSON type of the code base."""

from __future__ import annotations

from pydantic import JsonValue

JSONObject = dict[str, JsonValue]
