"""JSON text for the database, the answers and the sockets: msgspec writes, orjson reads.

Every move writes a 5-7 KB snapshot and its events as JSONB and sends events to sockets:
encoding a snapshot takes the standard library about 60 us and orjson about 5 (measured on a
mid-game All Fives snapshot), a few percent of a move request's CPU.
"""

from __future__ import annotations

import msgspec
import orjson
from pydantic import JsonValue

# One encoder for plain values and the contract's Structs alike (events go out as they were
# built, never turned into dicts first); seat numbers keying private maps are written as
# strings, as the standard library does.
_ENCODE = msgspec.json.Encoder().encode


def dumps(value: object) -> str:
    return _ENCODE(value).decode()


def dump_bytes(value: object) -> bytes:
    return _ENCODE(value)


def loads(text: str | bytes) -> JsonValue:
    """Any JSON text, read before its shape is known (the caller narrows or converts it)."""
    value: JsonValue = orjson.loads(text)
    return value


def load_object(text: str | bytes) -> dict[str, JsonValue]:
    """A JSON object the service wrote itself (a stored answer, a seek's options key)."""
    value = loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value
