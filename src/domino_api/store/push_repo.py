"""SQL about Web Push (push/): the VAPID key pair, subscriptions and the outbox of notices."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from domino_api.store import push_models  # noqa: F401  (its tables join Base.metadata)


@dataclass(frozen=True, slots=True)
class Claimed:
    """One notice claimed for sending, with its subscription."""

    id: int
    body: str
    attempts: int
    subscription_id: str
    endpoint: str
    p256dh: str
    auth: str


async def key_pem(connection: asyncpg.Connection) -> str | None:
    pem: str | None = await connection.fetchval("SELECT private_pem FROM push_keys WHERE id = 1")
    return pem


async def keep_key(connection: asyncpg.Connection, pem: str) -> str:
    """Store `pem` unless a key is stored already (another process started first); returns
    the stored one, which every process then signs with."""
    await connection.execute(
        "INSERT INTO push_keys (id, private_pem, created_at) VALUES (1, $1, now())"
        " ON CONFLICT (id) DO NOTHING",
        pem,
    )
    stored: str = await connection.fetchval("SELECT private_pem FROM push_keys WHERE id = 1")
    return stored


async def subscribe(
    connection: asyncpg.Connection,
    subscription_id: str,
    player_id: str,
    endpoint: str,
    p256dh: str,
    auth: str,
) -> str:
    """Keep a device's subscription for the player; an endpoint known already (the same
    device again, or a device that changed hands) is the player's now, with these keys.
    Returns the subscription's id."""
    found: str = await connection.fetchval(
        "INSERT INTO push_subscriptions (id, player_id, endpoint, p256dh, auth, created_at)"
        " VALUES ($1, $2, $3, $4, $5, now())"
        " ON CONFLICT (endpoint) DO UPDATE SET player_id = excluded.player_id,"
        " p256dh = excluded.p256dh, auth = excluded.auth"
        " RETURNING id",
        subscription_id,
        player_id,
        endpoint,
        p256dh,
        auth,
    )
    return found


async def keep_newest(connection: asyncpg.Connection, player_id: str, most: int) -> None:
    """Forget the player's subscriptions beyond its `most` newest (their notices with them):
    each turn is sent to every one, so a player may not multiply the requests it costs."""
    await connection.execute(
        "DELETE FROM push_subscriptions WHERE player_id = $1 AND id NOT IN (SELECT id FROM"
        " push_subscriptions WHERE player_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)",
        player_id,
        most,
    )


async def unsubscribe(connection: asyncpg.Connection, subscription_id: str, player_id: str) -> bool:
    """Forget the player's subscription; False: it holds none by that id."""
    done: str = await connection.execute(
        "DELETE FROM push_subscriptions WHERE id = $1 AND player_id = $2",
        subscription_id,
        player_id,
    )
    return done.endswith(" 1")


async def forget(connection: asyncpg.Connection, subscription_id: str) -> None:
    """The push service said the subscription is gone (404, 410): its notices go with it."""
    await connection.execute("DELETE FROM push_subscriptions WHERE id = $1", subscription_id)


async def enqueue(connection: asyncpg.Connection, notices: list[tuple[str, str]]) -> int:
    """One outbox row per subscription of each (player id, body); returns how many."""
    if not notices:
        return 0
    rows: int = await connection.fetchval(
        "WITH given AS (SELECT * FROM unnest($1::text[], $2::text[]) AS g(player_id, body)),"
        " made AS (INSERT INTO push_outbox (subscription_id, body, attempts, next_at, created_at)"
        " SELECT s.id, g.body, 0, now(), now() FROM given g"
        " JOIN push_subscriptions s ON s.player_id = g.player_id RETURNING 1)"
        " SELECT count(*) FROM made",
        [player for player, _ in notices],
        [body for _, body in notices],
    )
    return rows


async def claim(connection: asyncpg.Connection, limit: int, backoff_s: float) -> list[Claimed]:
    """Take up to `limit` due notices: each is due again after `backoff_s` x 2^attempts (its
    retry if this send fails or its sender dies), counted as an attempt."""
    rows = await connection.fetch(
        "UPDATE push_outbox o SET attempts = o.attempts + 1,"
        " next_at = now() + least($2 * power(2, o.attempts), 3600) * interval '1 second'"
        " FROM push_subscriptions s"
        " WHERE o.id IN (SELECT id FROM push_outbox WHERE next_at <= now()"
        " ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
        " AND s.id = o.subscription_id"
        " RETURNING o.id, o.body, o.attempts, s.id AS sid, s.endpoint, s.p256dh, s.auth",
        limit,
        backoff_s,
    )
    return [
        Claimed(r["id"], r["body"], r["attempts"], r["sid"], r["endpoint"], r["p256dh"], r["auth"])
        for r in rows
    ]


async def done(connection: asyncpg.Connection, ids: list[int]) -> None:
    """Notices sent, or given up: off the outbox."""
    if ids:
        await connection.execute("DELETE FROM push_outbox WHERE id = ANY($1::bigint[])", ids)
