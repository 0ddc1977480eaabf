"""tournaments: tournaments, tournament_entrants, tournament_matches

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=24), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("host_player_id", sa.String(length=36), nullable=False),
        sa.Column("match_options", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("max_entrants", sa.Integer(), nullable=False),
        sa.Column("check_in_s", sa.Integer(), nullable=False),
        sa.Column("seed", sa.LargeBinary(), nullable=True),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("champion_id", sa.String(length=36), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["host_player_id"],
            ["players.id"],
            name=op.f("fk_tournaments_host_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status"], unique=False)
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(length=36), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("entry_no", sa.Integer(), nullable=False),
        sa.Column("order", sa.Integer(), nullable=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_tournament_entrants_player_id_players"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("tournament_id", sa.String(length=36), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=36), nullable=False),
        sa.Column("player_a", sa.String(length=36), nullable=False),
        sa.Column("player_b", sa.String(length=36), nullable=False),
        sa.Column("winner", sa.String(length=36), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("hands_a", sa.Integer(), nullable=False),
        sa.Column("hands_b", sa.Integer(), nullable=False),
        sa.Column("points_a", sa.Integer(), nullable=False),
        sa.Column("points_b", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_matches_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round", "index", name=op.f("pk_tournament_matches")
        ),
        sa.UniqueConstraint("match_id", name=op.f("uq_tournament_matches_match_id")),
    )


def downgrade() -> None:
    op.drop_table("tournament_matches")
    op.drop_table("tournament_entrants")
    op.drop_index(op.f("ix_tournaments_status"), table_name="tournaments")
    op.drop_table("tournaments")
