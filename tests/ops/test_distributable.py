"""The migrated schema stays distributable on Citus as store/citus.py lays it out.

Citus is not packaged here, so its rules are checked on the real migrated schema through
PostgreSQL's catalogs: every table is placed (distributed, reference or local); every primary
key and unique index of a distributed table holds its distribution column; a distributed
table's foreign keys point at reference tables or at a colocated table through the
distribution column; a reference table's only at reference tables; colocated tables'
distribution columns share one type. docs/OPERATING.md carries the exact calls.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
from alembic import command

from domino_api.store import citus
from domino_api.store.db import to_asyncpg_url, to_plain_url
from domino_api.store.migrate import alembic_config, upgrade_to_head
from tests.conftest import TEST_DB
from tests.support.servers import create_database, drop_database

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTED = {**citus.MATCH_TABLES, **citus.APART}

TABLES = """
SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
"""
# Unique indexes (primary keys among them) and exclusion constraints, with their key columns.
UNIQUE = """
SELECT t.relname AS table, c.relname AS name, i.indexprs IS NOT NULL AS expression,
       array(SELECT a.attname FROM unnest(i.indkey) k
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k) AS columns
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
WHERE n.nspname = 'public' AND (i.indisunique OR i.indisexclusion)
"""
FOREIGN_KEYS = """
SELECT con.conname AS name, src.relname AS source, dst.relname AS target,
       array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(num, pos)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num
             ORDER BY k.pos) AS columns,
       array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(num, pos)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num
             ORDER BY k.pos) AS referred
FROM pg_constraint con JOIN pg_class src ON src.oid = con.conrelid
JOIN pg_class dst ON dst.oid = con.confrelid
JOIN pg_namespace n ON n.oid = src.relnamespace
WHERE n.nspname = 'public' AND con.contype = 'f'
"""
COLUMN_TYPE = """
SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
WHERE a.attrelid = $1::regclass AND a.attname = $2 AND NOT a.attisdropped
"""


async def violations(url: str) -> list[str]:
    """Every way the schema at `url` breaks the layout of store/citus.py."""
    conn = await asyncpg.connect(url)
    try:
        tables = {row[0] for row in await conn.fetch(TABLES)}
        unique = await conn.fetch(UNIQUE)
        keys = await conn.fetch(FOREIGN_KEYS)
        types = {
            table: await conn.fetchval(COLUMN_TYPE, table, column)
            for table, column in citus.MATCH_TABLES.items()
            if table in tables
        }
    finally:
        await conn.close()
    placed = set(DISTRIBUTED) | set(citus.REFERENCE) | set(citus.LOCAL)
    found = [f"{t}: not placed (store/citus.py)" for t in sorted(tables - placed)]
    found += [f"{t}: placed but missing" for t in sorted(placed - tables)]
    found += [broken for row in unique if (broken := _unique_break(row))]
    found += [broken for row in keys if (broken := _key_break(row))]
    if len(set(types.values())) > 1:
        found.append(f"colocated distribution columns differ in type: {types}")
    return found


def _unique_break(row: asyncpg.Record) -> str:
    column = DISTRIBUTED.get(row["table"])
    if column is None or (column in row["columns"] and not row["expression"]):
        return ""
    return f"{row['table']}: unique index {row['name']} lacks {column} ({row['columns']})"


def _key_break(row: asyncpg.Record) -> str:
    source, target = row["source"], row["target"]
    if target in citus.REFERENCE and source not in citus.LOCAL:
        return ""  # anything may point at a reference table
    if source in citus.MATCH_TABLES and target in citus.MATCH_TABLES:
        pairs = set(zip(row["columns"], row["referred"], strict=True))
        if (citus.MATCH_TABLES[source], citus.MATCH_TABLES[target]) in pairs:
            return ""  # colocated, through the distribution column: one shard
    return f"{source}: foreign key {row['name']} to {target} crosses shards"


async def test_the_migrated_schema_is_distributable(database_url: str) -> None:
    assert await violations(to_plain_url(database_url)) == []


async def test_the_check_finds_what_the_migration_fixed() -> None:
    """At revision 0009 the live game number was a unique index of `matches` without the match
    id; the check names it, and the downgrade and the upgrade back both work."""
    name = f"{TEST_DB}_citus"
    url = to_asyncpg_url(await create_database(name))
    try:
        await asyncio.to_thread(upgrade_to_head, url)
        await asyncio.to_thread(command.downgrade, alembic_config(url), "0009")
        before = await violations(to_plain_url(url))
        assert "matches: unique index uq_matches_live_code lacks id (['code'])" in before
        await asyncio.to_thread(upgrade_to_head, url)
        assert await violations(to_plain_url(url)) == []
    finally:
        await drop_database(name)


def test_players_records_and_tile_backs_are_reference_tables() -> None:
    # Tile backs are a column of `players` (and files in the package).
    assert {"players", "records"} <= set(citus.REFERENCE)
    assert set(citus.MATCH_TABLES) >= {"matches", "seats", "match_events", "idempotency_keys"}


def test_the_operating_document_carries_the_exact_calls() -> None:
    text = (ROOT / "docs/OPERATING.md").read_text()
    missing = [sql for sql in citus.statements() if sql not in text]
    assert missing == []
