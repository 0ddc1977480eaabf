"""Game numbers: the numbers people join tables by (4 digits, then 5 and 6), one live table each.

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


# The lengths a game number grows through: the seeds' 4 digits while they last, then 5 and 6
# (no leading zero past 4 digits, so "01234" is never mistaken for "1234"): 10,000 + 90,000 +
# 900,000 numbers, the pip-count of a deployment with a million players.
SPACES = ((0, 10_000, 4), (10_000, 100_000, 5), (100_000, 1_000_000, 6))
# Candidates drawn per length and looked up in one statement. A length is used while at least
# half its sample is free, which holds each length near half full (about 60% at the most) so
# that a guessed number is wrong about as often at a million tables as at ten: the budgets
# against guessing (matches/claims.py) count wrong guesses, and keep their worth at any size.
SAMPLE = 8
ROOMY = SAMPLE // 2
FREE = (
    "SELECT c FROM unnest($1::text[]) AS c WHERE NOT EXISTS "
    f"(SELECT 1 FROM matches WHERE code = c AND status NOT IN ({OVER_SQL}))"
)


def draw(low: int, high: int, width: int) -> list[str]:
    """SAMPLE distinct numbers of one length, drawn at random (a number must not be guessable
    from the one before)."""
    drawn: set[str] = set()
    while len(drawn) < SAMPLE:
        drawn.add(f"{low + secrets.randbelow(high - low):0{width}d}")
    return sorted(drawn)


def pick(free_by_length: list[list[str]]) -> str | None:
    """The number to take, from each length's free candidates in growing order: the first
    length with room (at least ROOMY free), else any free number of the longest, else none."""
    for free in free_by_length:
        if len(free) >= ROOMY:
            return free[secrets.randbelow(len(free))]
    last = free_by_length[-1] if free_by_length else []
    return last[secrets.randbelow(len(last))] if last else None


async def free_code(connection: asyncpg.Connection) -> str:
    """A game number no live match holds, of the shortest length with room (MatchFull when
    even 6 digits are crowded). One statement per length tried: 4 digits first."""
    seen: list[list[str]] = []
    for low, high, width in SPACES:
        rows = await connection.fetch(FREE, draw(low, high, width))
        seen.append([row[0] for row in rows])
        if len(seen[-1]) >= ROOMY:
            break
    chosen = pick(seen)
    if chosen is None:
        raise MatchFull("Every game number is in use; try again later.", retry_after=60)
    return chosen
