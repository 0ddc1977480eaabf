"""How the schema would be laid out on a distributed PostgreSQL (Citus): the one place that
says it (docs/ARCHITECTURE.md, "Sharding", quotes `statements()`;
tests/ops/test_distributable.py holds the migrated schema to it).

A match's rows live on one shard, found by its match id: each step is a single-shard
statement or transaction. The tables written beside the match rows at its end (records) and
by tournaments are small and replicated to every node (reference tables): a transaction that
writes one of them commits on every node. Game numbers are distributed by number, apart from
the matches (their rows are written only when a match is created).
"""

from __future__ import annotations

# Table -> its distribution column; every table here is colocated with `matches`.
MATCH_TABLES = {
    "matches": "id",
    "seats": "match_id",
    "match_events": "match_id",
    "idempotency_keys": "match_id",
    "finishes": "match_id",
    "rating_points": "match_id",  # written by the match's end, as its finishes
    "mutes": "match_id",
}
# Distributed on a key of their own, in a colocation group of their own.
APART = {"match_codes": "code"}
REFERENCE = (
    "players",
    "records",
    "ratings",
    "service_starts",
    "tournaments",
    "tournament_entrants",
    "tournament_matches",
    "tournament_events",
    "blocks",  # read by a join, written by a host: small
    "reports",  # written rarely, read by operators
    # Accounts: a player's tokens, passkeys, ceremonies and link codes (small, read by token).
    "player_tokens",
    "passkeys",
    "webauthn_challenges",
    "link_codes",
    "lobby_tables",  # the lobby (store/lobby_models.py): small, short-lived rows
    "seeks",
    "lobby_events",
    "push_keys",  # Web Push (store/push_models.py): one key pair, a player's devices, notices
    "push_subscriptions",
    "push_outbox",
    "friend_links",  # friends and challenges (store/social_models.py): small, a player's own
    "challenges",
    "player_presence",
)
# Left on the coordinator: only migrations read it.
LOCAL = ("alembic_version",)


def statements() -> list[str]:
    """What a Citus deployment runs once, after the migrations, in this order (reference
    tables first: the match tables' foreign keys point at `players`)."""
    out = [f"SELECT create_reference_table('{table}');" for table in REFERENCE]
    first, *colocated = MATCH_TABLES
    out.append(f"SELECT create_distributed_table('{first}', '{MATCH_TABLES[first]}');")
    out += [
        f"SELECT create_distributed_table('{table}', '{column}', colocate_with => '{first}');"
        for table, column in ((t, MATCH_TABLES[t]) for t in colocated)
    ]
    out += [
        f"SELECT create_distributed_table('{table}', '{column}', colocate_with => 'none');"
        for table, column in APART.items()
    ]
    return out
