"""numbered tables: matches.host_address and the indexes the caps on live numbered tables count

`matches.host_address` is the budget key of the client address that created the table (an IPv4
address or an IPv6 /64; null for tournament matches). A table holds a game number only while a
remote human can join or rejoin it; live numbered tables are capped per host and per address
(matches/hosting.py).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NUMBERED = sa.text("code IS NOT NULL AND status NOT IN ('finished', 'abandoned', 'cancelled')")


def upgrade() -> None:
    op.add_column("matches", sa.Column("host_address", sa.String(64), nullable=True))
    op.create_index(
        "ix_matches_numbered_host", "matches", ["host_player_id"], postgresql_where=NUMBERED
    )
    op.create_index(
        "ix_matches_numbered_address", "matches", ["host_address"], postgresql_where=NUMBERED
    )


def downgrade() -> None:
    op.drop_index("ix_matches_numbered_address", table_name="matches")
    op.drop_index("ix_matches_numbered_host", table_name="matches")
    op.drop_column("matches", "host_address")
