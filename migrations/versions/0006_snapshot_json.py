"""snapshot as json, not jsonb: the step's write no longer parses it into PostgreSQL's tree

Every step rewrites the match's snapshot (5-9 KB). As jsonb, PostgreSQL parses that text into
its binary tree on each write (and prints it back on each read), and nothing ever queries
inside a snapshot: it is read and written whole. As json it is only checked and stored as
text. Measured on the benchmark machine (bench/README.md, "Load"): the step's statement cost
PostgreSQL 0.41-0.46 ms of CPU with jsonb and 0.28-0.29 ms with json, same snapshot.

The type change rewrites the table under an exclusive lock (seconds for a large table): run it
in a quiet moment, as `domino-api migrate` before the new API processes start. lz4
compression (0005) is set again on the new column where the server has it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LZ4 = """
DO $$ BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN  -- SET COMPRESSION: 14+
        EXECUTE 'ALTER TABLE matches ALTER COLUMN snapshot SET COMPRESSION lz4';
    END IF;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available: matches.snapshot keeps the default compression';
END $$
"""


def upgrade() -> None:
    op.execute("ALTER TABLE matches ALTER COLUMN snapshot TYPE json USING snapshot::json")
    op.execute(_LZ4)


def downgrade() -> None:
    op.execute("ALTER TABLE matches ALTER COLUMN snapshot TYPE jsonb USING snapshot::jsonb")
    op.execute(_LZ4)
