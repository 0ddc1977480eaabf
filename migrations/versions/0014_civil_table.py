"""A civil table (issue 43): the host's talk switch, mutes, blocks and reported messages

matches.talk_off: the host turned table talk off. mutes: a seat's talk a player folds away at
one match, on every device. blocks: players kept from the tables another hosts. reports:
messages reported to the operators (`domino-api reports`), kept as they were said.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("talk_off", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "mutes",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_mutes_player_id_players", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_mutes_match_id_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "match_id", "seat", name="pk_mutes"),
    )
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("blocked_id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_blocks_player_id_players", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["blocked_id"], ["players.id"], name="fk_blocks_blocked_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "blocked_id", name="pk_blocks"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.String(36), nullable=False),
        sa.Column("reported_id", sa.String(36), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["reporter_id"],
            ["players.id"],
            name="fk_reports_reporter_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_created_at", "reports", ["created_at"])
    op.create_index("uq_reports_once", "reports", ["reporter_id", "match_id", "seq"], unique=True)


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("blocks")
    op.drop_table("mutes")
    op.drop_column("matches", "talk_off")
