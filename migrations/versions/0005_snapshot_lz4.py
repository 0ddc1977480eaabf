"""snapshot compression: lz4 for matches.snapshot where the server has it

Every step rewrites the match's snapshot (5-7 KB of JSONB), which PostgreSQL compresses for
TOAST: with the default pglz that compression was about a tenth of the server's CPU under load
(perf, bench/README.md "Load"); lz4 does the same job several times faster. A server built
without lz4 keeps pglz: the migration then changes nothing.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        DO $$ BEGIN
            IF current_setting('server_version_num')::int >= 140000 THEN  -- SET COMPRESSION: 14+
                EXECUTE 'ALTER TABLE matches ALTER COLUMN snapshot SET COMPRESSION lz4';
            END IF;
        EXCEPTION WHEN feature_not_supported THEN
            RAISE NOTICE 'lz4 is not available: matches.snapshot keeps the default compression';
        END $$
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DO $$ BEGIN
            IF current_setting('server_version_num')::int >= 140000 THEN
                EXECUTE 'ALTER TABLE matches ALTER COLUMN snapshot SET COMPRESSION default';
            END IF;
        END $$
        """
    )
