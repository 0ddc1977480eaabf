"""JSON text for the database and the sockets, by orjson.

Every move writes a 5-7 KB snapshot and its events as JSONB and sends events to sockets:
encoding a snapshot takes the standard library about 60 us and orjson about 5 (measured on a
mid-game All Fives snapshot), a few percent of a move request's CPU.
"""

from __future__ import annotations

from typing import Any

import orjson

# Seat numbers key some private maps: written as strings, as the standard library does.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    return orjson.dumps(value, option=_OPTIONS).decode()


def dump_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=_OPTIONS)


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)
