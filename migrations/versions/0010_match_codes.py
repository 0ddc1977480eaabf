"""live game numbers in match_codes, so every unique index of matches holds the match id

A game number is unique among the matches that are not over. That was a partial unique index on
`matches.code`, which a table distributed by match id (Citus, docs/ARCHITECTURE.md, "Sharding")
cannot keep: each shard would only see its own matches. `match_codes` holds one row per number,
naming the match that took it last; a number is taken while that match is not over, and a new
match takes it over from a match that is over (store/matches_repo.py, `_take_code`). Numbers
are never released at a match's end, so no end of a match writes outside its own rows.
`matches.code` keeps a plain partial index for the look-ups by number.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("status NOT IN ('finished', 'abandoned', 'cancelled')")


def upgrade() -> None:
    op.create_table(
        "match_codes",
        sa.Column("code", sa.String(4), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_match_codes"),
    )
    op.execute(
        "INSERT INTO match_codes (code, match_id) SELECT code, id FROM matches "
        f"WHERE code IS NOT NULL AND {LIVE.text}"
    )
    op.drop_index("uq_matches_live_code", table_name="matches")
    op.create_index("ix_matches_live_code", "matches", ["code"], postgresql_where=LIVE)


def downgrade() -> None:
    op.drop_index("ix_matches_live_code", table_name="matches")
    op.create_index(
        "uq_matches_live_code", "matches", ["code"], unique=True, postgresql_where=LIVE
    )
    op.drop_table("match_codes")
