"""Friends and challenges (issue 50, "where players live online"; docs/API.md, "Friends and
challenges").

friend_links: one row per player and the player it asked to be friends with; two rows, one
each way, are a friendship (a request the other accepted by asking back).
challenges: a challenge of a named player, or an invitation anyone with its link may take,
with its preset, options and answer.
player_presence: a player's online lease, renewed by the presence pass of the process that
holds its sockets (social/presence.py); `online` as the friends were last told.
ix_players_lower_name: a player looked up by its name in any case.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def _player(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["players.id"], name=f"fk_{table}_{column}_players", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "friend_links",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("friend_id", sa.String(36), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        _player("player_id", "friend_links"),
        _player("friend_id", "friend_links"),
        sa.PrimaryKeyConstraint("player_id", "friend_id", name="pk_friend_links"),
    )
    op.create_index("ix_friend_links_friend_id", "friend_links", ["friend_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("from_id", sa.String(36), nullable=False),
        sa.Column("to_id", sa.String(36), nullable=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("options_key", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True),
        sa.Column("taken_by", sa.String(36), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        _player("from_id", "challenges"),
        _player("to_id", "challenges"),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("uq_challenges_token", "challenges", ["token"], unique=True)
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])
    op.create_table(
        "player_presence",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("online_until", TIME, nullable=False),
        sa.Column("online", sa.Boolean(), nullable=False),
        _player("player_id", "player_presence"),
        sa.PrimaryKeyConstraint("player_id", name="pk_player_presence"),
    )
    # Each presence pass looks for the online leases that ran out (social/presence.py).
    op.create_index(
        "ix_player_presence_online_until",
        "player_presence",
        ["online_until"],
        postgresql_where=sa.text("online"),
    )
    # A friend or a challenge named by its name, in any case (store/social_repo.py `named`).
    op.create_index("ix_players_lower_name", "players", [sa.text("lower(name)")])


def downgrade() -> None:
    op.drop_index("ix_players_lower_name", table_name="players")
    op.drop_table("player_presence")
    op.drop_table("challenges")
    op.drop_table("friend_links")
