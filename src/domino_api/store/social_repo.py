"""SQL of friends, challenges and players' presence (social/, migration 0023).

Statements run on asyncpg connections of the process's pool, or on the connection of a
transaction the caller holds (an acceptance claims its challenge in the transaction that
inserts the new match: social/challenges.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg

# Two players of whom neither blocked the other (matches/civil.py).
_UNBLOCKED = """NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.player_id = {a} AND b.blocked_id = {b})
 OR (b.player_id = {b} AND b.blocked_id = {a}))"""
# A player's friends: a link each way, and no block either way.
_FRIENDS = f"""
SELECT l.player_id AS player, l.friend_id AS friend FROM friend_links l
JOIN friend_links back ON back.player_id = l.friend_id AND back.friend_id = l.player_id
WHERE l.player_id = ANY($1) AND {_UNBLOCKED.format(a="l.player_id", b="l.friend_id")}
"""


@dataclass(frozen=True, slots=True)
class Someone:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class FriendRow:
    id: str
    name: str
    online: bool  # as its friends were last told (player_presence.online)
    since: datetime  # when the caller's link to it was made


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: str
    token: str
    from_id: str
    from_name: str
    to_id: str | None
    to_name: str | None
    ruleset: str
    options_key: str
    rated: bool
    status: str
    match_id: str | None
    taken_by: str | None
    created_at: datetime
    expires_at: datetime


# ------------------------------------------------------------------ players and blocks


async def player(connection: asyncpg.Connection, player_id: str) -> Someone | None:
    record = await connection.fetchrow("SELECT id, name FROM players WHERE id = $1", player_id)
    return None if record is None else Someone(record["id"], record["name"])


async def named(connection: asyncpg.Connection, name: str) -> list[Someone]:
    """Up to two players of this name (a name is not unique: two mean it is ambiguous)."""
    rows = await connection.fetch(
        "SELECT id, name FROM players WHERE lower(name) = lower($1) ORDER BY created_at LIMIT 2",
        name,
    )
    return [Someone(r["id"], r["name"]) for r in rows]


async def blocked(connection: asyncpg.Connection, one: str, other: str) -> bool:
    """Whether either of the two blocked the other."""
    query = f"SELECT NOT ({_UNBLOCKED.format(a='$1', b='$2')})"
    found: bool = await connection.fetchval(query, one, other)
    return found


# ------------------------------------------------------------------ friends


async def lock_pair(connection: asyncpg.Connection, one: str, other: str) -> None:
    """Inside a transaction: two players' requests to each other take turns (the second
    sees the first, and makes them friends)."""
    pair = "|".join(sorted((one, other)))
    await connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"friends:{pair}")


async def online(connection: asyncpg.Connection, player_ids: list[str]) -> set[str]:
    rows = await connection.fetch(
        "SELECT player_id FROM player_presence WHERE player_id = ANY($1) AND online", player_ids
    )
    return {r["player_id"] for r in rows}


async def link(
    connection: asyncpg.Connection, player_id: str, friend_id: str, at: datetime
) -> bool:
    """The player asks to be friends with `friend_id`; False if it had asked already."""
    added = await connection.fetchval(
        "INSERT INTO friend_links (player_id, friend_id, created_at) VALUES ($1, $2, $3)"
        " ON CONFLICT DO NOTHING RETURNING player_id",
        player_id,
        friend_id,
        at,
    )
    return added is not None


async def linked(connection: asyncpg.Connection, player_id: str, friend_id: str) -> bool:
    found = await connection.fetchval(
        "SELECT 1 FROM friend_links WHERE player_id = $1 AND friend_id = $2", player_id, friend_id
    )
    return found is not None


async def unlink(connection: asyncpg.Connection, one: str, other: str) -> int:
    """Both links of the two players (a friendship, a request either way); how many went."""
    status = await connection.execute(
        "DELETE FROM friend_links WHERE (player_id = $1 AND friend_id = $2)"
        " OR (player_id = $2 AND friend_id = $1)",
        one,
        other,
    )
    return int(status.split()[-1])


async def friends(connection: asyncpg.Connection, player_id: str) -> list[FriendRow]:
    """The player's friends, online ones first, then by name."""
    rows = await connection.fetch(
        f"SELECT f.friend AS id, p.name, coalesce(pp.online, false) AS online, l.created_at"
        f" FROM ({_FRIENDS}) f JOIN players p ON p.id = f.friend"
        " JOIN friend_links l ON l.player_id = f.player AND l.friend_id = f.friend"
        " LEFT JOIN player_presence pp ON pp.player_id = f.friend"
        " ORDER BY online DESC, lower(p.name), p.id",
        [player_id],
    )
    return [FriendRow(r["id"], r["name"], r["online"], r["created_at"]) for r in rows]


async def requests(connection: asyncpg.Connection, player_id: str, incoming: bool) -> list[Someone]:
    """Links one way only: to the player (incoming) or from it (outgoing), newest first; a
    pair either of whom blocked the other is left out."""
    mine, theirs = ("friend_id", "player_id") if incoming else ("player_id", "friend_id")
    rows = await connection.fetch(
        f"SELECT p.id, p.name FROM friend_links l JOIN players p ON p.id = l.{theirs}"
        f" WHERE l.{mine} = $1 AND NOT EXISTS (SELECT 1 FROM friend_links back"
        f" WHERE back.player_id = l.friend_id AND back.friend_id = l.player_id)"
        f" AND {_UNBLOCKED.format(a='l.player_id', b='l.friend_id')}"
        " ORDER BY l.created_at DESC, p.id",
        player_id,
    )
    return [Someone(r["id"], r["name"]) for r in rows]


async def friends_of(connection: asyncpg.Connection, player_ids: list[str]) -> dict[str, list[str]]:
    """Each player's friends (those told of its presence)."""
    found: dict[str, list[str]] = {}
    for record in await connection.fetch(_FRIENDS, player_ids):
        found.setdefault(record["player"], []).append(record["friend"])
    return found


async def names(connection: asyncpg.Connection, player_ids: list[str]) -> dict[str, str]:
    rows = await connection.fetch("SELECT id, name FROM players WHERE id = ANY($1)", player_ids)
    return {r["id"]: r["name"] for r in rows}


# ------------------------------------------------------------------ presence


async def hold(connection: asyncpg.Connection, player_ids: list[str], until: datetime) -> list[str]:
    """Extend these players' online leases to `until`; returns those that were not online
    (their friends are to be told). The CTE reads the rows as they were before the upsert."""
    rows = await connection.fetch(
        "WITH was AS (SELECT player_id FROM player_presence WHERE player_id = ANY($1)"
        " AND online) INSERT INTO player_presence (player_id, online_until, online)"
        " SELECT id, $2, true FROM unnest($1::text[]) AS id"
        " ON CONFLICT (player_id) DO UPDATE SET online = true,"
        " online_until = greatest(player_presence.online_until, excluded.online_until)"
        " RETURNING player_id, player_id IN (SELECT player_id FROM was) AS was_online",
        sorted(set(player_ids)),
        until,
    )
    return [r["player_id"] for r in rows if not r["was_online"]]


async def release(connection: asyncpg.Connection, player_ids: list[str], now: datetime) -> None:
    """This process holds no socket of these players any more: their leases end now, unless
    another process renews them before every process has looked (social/presence.py)."""
    await connection.execute(
        "UPDATE player_presence SET online_until = least(online_until, $2)"
        " WHERE player_id = ANY($1)",
        player_ids,
        now,
    )


async def ran_out(connection: asyncpg.Connection, now: datetime) -> list[tuple[str, datetime]]:
    """Online players whose lease ran out by `now`, locked for the caller's transaction
    (another process expiring at the same moment skips them)."""
    rows = await connection.fetch(
        "SELECT player_id, online_until FROM player_presence WHERE online"
        " AND online_until <= $1 ORDER BY player_id LIMIT 500 FOR UPDATE SKIP LOCKED",
        now,
    )
    return [(r["player_id"], r["online_until"]) for r in rows]


async def mark_offline(connection: asyncpg.Connection, player_ids: list[str]) -> None:
    await connection.execute(
        "UPDATE player_presence SET online = false WHERE player_id = ANY($1)", player_ids
    )


# ------------------------------------------------------------------ challenges

_CHALLENGE = """
SELECT c.id, c.token, c.from_id, f.name AS from_name, c.to_id, t.name AS to_name, c.ruleset,
c.options_key, c.rated, c.status, c.match_id, c.taken_by, c.created_at, c.expires_at
FROM challenges c JOIN players f ON f.id = c.from_id LEFT JOIN players t ON t.id = c.to_id
"""


async def insert_challenge(connection: asyncpg.Connection, row: ChallengeRow) -> None:
    await connection.execute(
        "INSERT INTO challenges (id, token, from_id, to_id, ruleset, options_key, rated, status,"
        " created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9)",
        row.id,
        row.token,
        row.from_id,
        row.to_id,
        row.ruleset,
        row.options_key,
        row.rated,
        row.created_at,
        row.expires_at,
    )


async def challenge(
    connection: asyncpg.Connection, *, challenge_id: str | None = None, token: str | None = None
) -> ChallengeRow | None:
    column, value = ("c.id", challenge_id) if challenge_id is not None else ("c.token", token)
    record = await connection.fetchrow(f"{_CHALLENGE} WHERE {column} = $1", value)
    return None if record is None else ChallengeRow(**dict(record))


async def open_challenges(
    connection: asyncpg.Connection, player_id: str, now: datetime
) -> list[ChallengeRow]:
    """Open, unexpired challenges the player made or was sent, newest first; one between
    two players either of whom blocked the other is left out (it cannot be accepted)."""
    unblocked = _UNBLOCKED.format(a="c.from_id", b="c.to_id")
    rows = await connection.fetch(
        f"{_CHALLENGE} WHERE (c.from_id = $1 OR c.to_id = $1) AND c.status = 'open'"
        f" AND c.expires_at > $2 AND (c.to_id IS NULL OR {unblocked})"
        " ORDER BY c.created_at DESC, c.id LIMIT 100",
        player_id,
        now,
    )
    return [ChallengeRow(**dict(r)) for r in rows]


async def close(
    connection: asyncpg.Connection,
    challenge_id: str,
    status: str,
    now: datetime,
    *,
    match_id: str | None = None,
    taken_by: str | None = None,
) -> bool:
    """Answer an open, unexpired challenge; False if it was answered or expired first (the
    row is locked until the caller's transaction ends: two answers never both win)."""
    done = await connection.fetchval(
        "UPDATE challenges SET status = $2, match_id = $3, taken_by = $4"
        " WHERE id = $1 AND status = 'open' AND expires_at > $5 RETURNING id",
        challenge_id,
        status,
        match_id,
        taken_by,
        now,
    )
    return done is not None


async def prune(connection: asyncpg.Connection, player_id: str, before: datetime) -> None:
    """Forget the player's challenges that expired before `before`."""
    await connection.execute(
        "DELETE FROM challenges WHERE from_id = $1 AND expires_at < $2", player_id, before
    )
