"""Inputs' shared rules, which web/struct_bodies.py applies to every request body: whole numbers
(`whole_numbers`), the depth bound, no NUL character (`nul_path`; PostgreSQL stores none in
text or JSONB) and the no-NUL pattern the schema states; and `error_summary`, the detail of a
refused query or path parameter (FastAPI checks those with pydantic; a NUL in any query
parameter is refused before any route, by the observability middleware).

The schema says what the checks do: JSON Schema's `integer` includes `3.0`, which msgspec
alone refuses, and every free string carries the no-NUL pattern."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue
from pydantic_core import ErrorDetails

NO_NUL = "^[^\\u0000]*$"


def document_no_nul(schema: dict[str, JsonValue]) -> None:
    """Every string without a pattern of its own gets the no-NUL one (nested ones included)."""
    if schema.get("type") == "string" and not {"pattern", "enum", "const"} & schema.keys():
        schema["pattern"] = NO_NUL
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, dict):
            parts = list(value.values())  # schemas by name
        else:
            parts = value if isinstance(value, list) else [value]
        for part in parts:
            if isinstance(part, dict):
                document_no_nul(part)


# No body of the contract nests deeper than a few levels. The JSON parser accepts up to about
# a thousand, and walking such a body again here overflowed Python's stack (a 500).
MAX_DEPTH = 32


def whole_numbers(value: object, depth: int = 0) -> object:
    """`3.0` as 3, anywhere in a parsed body: msgspec then refuses only what JSON Schema's
    `integer` does (`3.5`, `"3"`, `true`). A body nested deeper than `MAX_DEPTH` is refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict | list) and depth >= MAX_DEPTH:
        raise ValueError(f"the body is nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        return {key: whole_numbers(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item, depth + 1) for item in value]
    return value


def nul_path(value: object, path: str = "") -> str | None:
    """Where a parsed JSON value holds the NUL character (`options.draw`, `seats.1.name`;
    `body` for the whole), or None: the field a problem names."""
    if isinstance(value, str):
        return (path or "body") if "\x00" in value else None
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, item in items:
        here = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and "\x00" in key:
            return path or "body"
        if (found := nul_path(item, here)) is not None:
            return found
    return None


def error_summary(errors: Sequence[ErrorDetails], most: int = 5) -> str:
    """`where: what` for each of the first `most` of the errors FastAPI's pydantic found in a
    request's parameters, as a problem's detail: `query.limit: Input should be ...`."""
    return "; ".join(
        f"{'.'.join(str(part) for part in err['loc'])}: {err['msg']}" for err in errors[:most]
    )
