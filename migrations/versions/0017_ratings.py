"""Ratings (issue 43): a rating per player and preset, and which matches are rated

matches.rated: the match's finish moves its players' ratings (docs/API.md, "Ratings").
ratings: one row per player and preset, OpenSkill's mean (mu) and uncertainty (sigma), the
rated matches that made it, and the leaderboard's order (mu - 3 sigma, kept by PostgreSQL).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Double(), sa.Computed("mu - 3 * sigma", persisted=True)),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_ratings_player_id_players"),
        sa.PrimaryKeyConstraint("player_id", "preset", name="pk_ratings"),
    )
    op.create_index("ix_ratings_board", "ratings", ["preset", "ordinal", "player_id"])


def downgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_column("matches", "rated")
