"""A lobby and quick pairing (issue 43): public tables, seeks and the lobby's feed

lobby_tables: waiting tables their hosts made public, each under a public id of its own (never
its game number), with the free seats last announced. seeks: players asking to be paired for a
preset and options ("Play anyone now"), alive while their lease is renewed. lobby_events: what
the lobby's sockets are sent, in order, read by seq (realtime/lobby_feed.py).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "lobby_tables",
        sa.Column("public_id", sa.String(22), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("free_seats", sa.Integer(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("public_id", name="pk_lobby_tables"),
        sa.UniqueConstraint("match_id", name="uq_lobby_tables_match_id"),
    )
    op.create_index(
        "ix_lobby_tables_ruleset_created", "lobby_tables", ["ruleset", "created_at", "public_id"]
    )
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("options", postgresql.JSONB(), nullable=False),
        sa.Column("options_key", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("lease_until", WHEN, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_seeks_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
    )
    op.create_index(
        "ix_seeks_open",
        "seeks",
        ["ruleset", "options_key", "created_at"],
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_index("ix_seeks_player_id", "seeks", ["player_id"])
    op.create_table(
        "lobby_events",
        sa.Column("seq", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("seek_id", sa.String(36), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_lobby_events"),
    )


def downgrade() -> None:
    op.drop_table("lobby_events")
    op.drop_index("ix_seeks_player_id", table_name="seeks")
    op.drop_index("ix_seeks_open", table_name="seeks")
    op.drop_table("seeks")
    op.drop_index("ix_lobby_tables_ruleset_created", table_name="lobby_tables")
    op.drop_table("lobby_tables")
