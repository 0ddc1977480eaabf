"""JSON as the JSONB columns hold it, for the few values that really are arbitrary JSON (an
idempotent request's stored answer, a column read back before its typed reader checks it)."""

from __future__ import annotations

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]
