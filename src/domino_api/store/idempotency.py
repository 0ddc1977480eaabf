"""Idempotency keys: a repeated request answers what the first one did (per player and match).

A key is stored with a digest of the request it came with (`Key.request`), so the same key
sent with a different request is refused (`422 idempotency_key_reused`) rather than answered
with the first request's answer, which would tell the client its second move was made.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, NamedTuple, TypeVar

import asyncpg
import msgspec

from domino_api import jsontext
from domino_api.engine.move_types import MoveRequest
from domino_api.errors import IdempotencyKeyReused
from domino_api.store.json_types import JSONObject

T = TypeVar("T")


class Key(NamedTuple):
    """A client's `Idempotency-Key` and the digest of the request that carried it."""

    value: str
    request: str


@dataclass(frozen=True, slots=True)
class Keyed(Generic[T]):
    """A request's key and the type its answer is: a repeat is answered with the stored answer
    read back as that type."""

    key: Key
    answer: type[T]

    def read(self, stored: JSONObject) -> T:
        return msgspec.convert(stored, self.answer)


def key_for(value: str, request: MoveRequest) -> Key:
    """The key of a request; `request` is its validated body with every field (in the model's
    order, so members sent in another order make the same digest), put in the engine's form
    where two spellings mean one thing (a tile named either way round)."""
    return Key(value, hashlib.sha256(jsontext.dump_bytes(request)).hexdigest())


async def idempotent_answer(
    connection: asyncpg.Connection, player_id: str, match_id: str, key: Key
) -> tuple[int, JSONObject] | None:
    """The stored answer to this player's key on this match (keys are scoped per match);
    IdempotencyKeyReused when the key came with another request."""
    row = await connection.fetchrow(
        "SELECT status_code, body, request_hash FROM idempotency_keys "
        "WHERE player_id = $1 AND match_id = $2 AND key = $3",
        player_id,
        match_id,
        key.value,
    )
    if row is None:
        return None
    # Keys stored before digests were kept (migration 0012) have none: answered as before.
    if row["request_hash"] not in (None, key.request):
        raise IdempotencyKeyReused(
            "This Idempotency-Key made another move on this match; a new move needs a new key."
        )
    body = row["body"]
    answer: JSONObject = body if isinstance(body, dict) else jsontext.load_object(body)
    return int(row["status_code"]), answer


async def store_answer(
    connection: asyncpg.Connection,
    player_id: str,
    match_id: str,
    key: Key,
    body: object,  # the answer as sent (a Struct or plain JSON values), written as JSON
    now: datetime,
) -> None:
    """In the step's transaction: a retry of the same key finds this answer, never a 500."""
    await connection.execute(
        "INSERT INTO idempotency_keys"
        " (player_id, match_id, key, status_code, body, created_at, request_hash)"
        " VALUES ($1, $2, $3, 200, $4, $5, $6) ON CONFLICT DO NOTHING",
        player_id,
        match_id,
        key.value,
        jsontext.dumps(body),
        now,
        key.request,
    )
