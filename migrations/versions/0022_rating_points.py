"""Rating history (issue 50): each rated result's rating after it, the points of a profile's
chart (docs/API.md, "Profiles").

rating_points: one row per player and rated match, the rating (mu, sigma, games) the match's
finish left at its preset, written in the transaction that moved the rating.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rating_points",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_rating_points_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", "match_id", name="pk_rating_points"),
    )
    op.create_index(
        "ix_rating_points_history", "rating_points", ["player_id", "preset", "games"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_points_history", table_name="rating_points")
    op.drop_table("rating_points")
