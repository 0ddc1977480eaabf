"""Game numbers: the 4-digit numbers people join tables by, one live table each.

The live holder of a number is its `match_codes` row (a table distributed by match id cannot
keep a unique index on `matches.code`: docs/ARCHITECTURE.md, "Sharding"). Taking a number and
drawing a free one run in the creating transaction (store/matches_repo.insert_match).
"""

from __future__ import annotations

import secrets

import asyncpg

from domino_api.engine.errors import MatchFull
from domino_api.engine.kinds import OVER

OVER_SQL = ", ".join(f"'{status}'" for status in sorted(OVER))

# A game number's row: new, or taken over from the match named in it once that match is over.
CLAIM_CODE = (
    "INSERT INTO match_codes (code, match_id) VALUES ($1, $2) "
    "ON CONFLICT (code) DO NOTHING RETURNING code"
)
HOLDER = "SELECT match_id FROM match_codes WHERE code = $1 FOR UPDATE"
# The holder still holds the number: not over, and not given back (a table nobody can join or
# rejoin sets its code to null: engine/table/seats.py `needs_number`).
LIVE = f"SELECT 1 FROM matches WHERE id = $1 AND code = $2 AND status NOT IN ({OVER_SQL})"
TAKE_OVER = (
    "INSERT INTO match_codes (code, match_id) VALUES ($1, $2) "
    "ON CONFLICT (code) DO UPDATE SET match_id = EXCLUDED.match_id"
)


async def take(connection: asyncpg.Connection, code: str, match_id: str) -> bool:
    """Whether `code` is now `match_id`'s game number (False: a live match holds it), until
    the caller's transaction ends. The holder is read under the number's row lock and checked
    by a statement of its own: one that began before another creator's commit would not see
    that creator's match (a READ COMMITTED snapshot is taken per statement)."""
    if await connection.fetchval(CLAIM_CODE, code, match_id) is not None:
        return True
    holder = await connection.fetchval(HOLDER, code)
    if holder is not None and await connection.fetchval(LIVE, holder, code) is not None:
        return False
    await connection.execute(TAKE_OVER, code, match_id)
    return True


# Game numbers drawn and looked up one by one before all live ones are read: with few tables
# the first draw is free, and reading every live number cost each creation O(live tables).
CODE_DRAWS = 20


async def free_code(connection: asyncpg.Connection) -> str:
    """A 4-digit game number no live match holds (MatchFull when nearly all are taken)."""
    live = f"SELECT 1 FROM matches WHERE code = $1 AND status NOT IN ({OVER_SQL}) LIMIT 1"
    for _ in range(CODE_DRAWS):
        code = f"{secrets.randbelow(10_000):04d}"
        if await connection.fetchval(live, code) is None:
            return code
    every = f"SELECT code FROM matches WHERE code IS NOT NULL AND status NOT IN ({OVER_SQL})"
    taken = {row[0] for row in await connection.fetch(every)}
    if len(taken) >= 9000:
        raise MatchFull("Every game number is in use; try again later.", retry_after=60)
    while True:
        code = f"{secrets.randbelow(10_000):04d}"
        if code not in taken:
            return code
