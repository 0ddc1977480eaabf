"""Inputs' shared rules (`whole_numbers`, `nul_path`, the no-NUL pattern) and `Strict`, the base
of the request bodies pydantic still reads (`TournamentCreate`: its parts sit in pydantic
answers); every other body is web/struct_bodies.py's `Body`. `Strict` refuses unknown
fields and loose types and NUL characters.

The schema says what the checks do: JSON Schema's `integer` includes `3.0`, which strict mode
alone refused, and every free string carries the no-NUL pattern."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, GetJsonSchemaHandler, JsonValue, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails

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
    """`3.0` as 3, anywhere in a parsed body: strict mode then refuses only what JSON Schema's
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


class Strict(BaseModel):
    """A request body. PostgreSQL stores no NUL character in text or JSONB, so a string that
    holds one (`\\u0000`) is refused here, as invalid input, before it reaches the database."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        # Here rather than in json_schema_extra, which a body's own examples would replace.
        schema = handler(core_schema)
        document_no_nul(handler.resolve_ref_schema(schema))
        return schema

    @model_validator(mode="before")
    @classmethod
    def _integral_floats(cls, data: object) -> object:
        return whole_numbers(data)

    @model_validator(mode="after")
    def _no_nul_characters(self) -> Strict:
        for name in type(self).model_fields:
            if _holds_nul(getattr(self, name)):
                raise ValueError(f"{name}: text may not contain the NUL character (\\u0000)")
        return self


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


def _holds_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_holds_nul(item) for item in value)
    return False  # nested Strict models check themselves


def error_summary(errors: Sequence[ErrorDetails], most: int = 5) -> str:
    """`where: what` for each of the first `most` of pydantic's errors, as a problem's
    detail over REST and over the socket alike: the field's path, list positions kept."""
    parts = []
    for err in errors[:most]:
        where = ".".join(str(p) for p in err["loc"] if _named(p)) or "body"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def _named(part: object) -> bool:
    """Whether a part of an error's location is the client's: a field or a list position, not
    the REST body's container nor a validator pydantic names after its functions
    (`function-after[_no_nul_characters(), PlayerSettings]`)."""
    return part != "body" and not (isinstance(part, str) and "[" in part)
