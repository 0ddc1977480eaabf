"""The game-number space at a deployment's size (issue 49): 50,000 live numbered tables, each
number held by one live table, and creation still finds a free one in a statement or two.

The live tables are rows cloned from one real match (the allocator reads only `code` and
`status`); the new tables take their numbers the way creation does (`free_code`, then `take`
in the creating transaction)."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
import pytest_asyncio

from domino_api.store import match_codes
from domino_api.store.db import to_plain_url
from domino_api.store.models import Match
from tests.realtime.wsclient import two_seat_match

LIVE_FOUR = 6_000  # the 4-digit space about as full as the allocator keeps it
LIVE_FIVE = 44_000  # the rest of 50,000 in the 5-digit space
NEW = 400

# Clones of one live match under new ids and numbers: `codes` is the numbers to give them.
# Every column is copied by name (a row rebuilt through jsonb_populate_record costs ~100 times
# as much: 50,000 of them took minutes).
REPLACED = {"id": "'fill-' || c", "code": "c", "host_player_id": "NULL", "host_address": "NULL"}
COLUMNS = [column.name for column in Match.__table__.columns]
FILL = f"""
INSERT INTO matches ({", ".join(COLUMNS)})
SELECT {", ".join(REPLACED.get(name, f"m.{name}") for name in COLUMNS)}
FROM matches m, unnest($1::text[]) AS c WHERE m.id = $2
"""
CLONE = FILL.replace("unnest($1::text[]) AS c", "(SELECT $1::text AS c) AS one")
LIVE = (
    "SELECT count(*) FROM matches WHERE code IS NOT NULL"
    f" AND status NOT IN ({match_codes.OVER_SQL})"
)


def distinct_numbers(count: int, low: int, high: int, width: int, seed: int) -> list[str]:
    drawn = random.Random(seed).sample(range(low, high), count)
    return [f"{n:0{width}d}" for n in drawn]


async def create_numbered(connection: asyncpg.Connection, template: str, n: int) -> str:
    async with connection.transaction():
        code = await match_codes.free_code(connection)
        assert await match_codes.take(connection, code, f"new-{n}")
        await connection.execute(CLONE.replace("'fill-'", "'new-'"), code, template)
    return code


@pytest_asyncio.fixture(loop_scope="session")
async def crowded(
    client: httpx.AsyncClient, clean_db: str
) -> AsyncIterator[tuple[asyncpg.Connection, str]]:
    _, _, template = await two_seat_match(client)
    connection = await asyncpg.connect(to_plain_url(clean_db))
    four = [c for c in distinct_numbers(LIVE_FOUR, 0, 10_000, 4, 1) if c != template["code"]]
    five = distinct_numbers(LIVE_FIVE, 10_000, 100_000, 5, 2)
    await connection.execute(FILL, four + five, template["id"])
    yield connection, template["id"]
    await connection.close()


async def test_fifty_thousand_live_tables_each_get_a_number_of_their_own(
    crowded: tuple[asyncpg.Connection, str], record_property: pytest.RecordProperty
) -> None:
    connection, template = crowded
    before = await connection.fetchval(LIVE)
    assert before >= 50_000
    started = time.perf_counter()
    codes = [await create_numbered(connection, template, n) for n in range(NEW)]
    record_property("allocation_ms_at_50k_live", 1000 * (time.perf_counter() - started) / NEW)
    assert len(set(codes)) == NEW  # no number given twice
    assert await connection.fetchval(LIVE) == before + NEW  # none taken from a live table
    duplicates = "SELECT code FROM matches WHERE code IS NOT NULL GROUP BY code HAVING count(*) > 1"
    assert await connection.fetch(duplicates) == []
    lengths = {len(code) for code in codes}
    assert lengths <= {4, 5, 6}
    record_property("lengths", sorted(lengths))


async def test_a_full_four_digit_space_grows_to_five_and_the_number_joins(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    from tests.api.helpers import create_match, new_player

    _, _, template = await two_seat_match(client)
    connection = await asyncpg.connect(to_plain_url(clean_db))
    try:
        every = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" != template["code"]]
        await connection.execute(FILL, every, template["id"])
    finally:
        await connection.close()
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw-50", [{"type": "human"}, {"type": "human"}])
    assert len(created["code"]) == 5 and not created["code"].startswith("0")
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200 and joined.json()["id"] == created["id"]
