"""Correspondence tables and Web Push (issue 50)

matches.per_move_s: a correspondence table's time per move (engine/table/clocks.py).
lobby_events.player_id: an event for that player's lobby sockets alone (`your_turn`).
push_keys: the deployment's VAPID key pair, made on first start (push/keys.py).
push_subscriptions: a player's devices' Web Push subscriptions (push/routes.py).
push_outbox: notices to send, one per subscription, retried until sent (push/sender.py).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("per_move_s", sa.Integer(), nullable=True))
    op.add_column("lobby_events", sa.Column("player_id", sa.String(36), nullable=True))
    op.create_table(
        "push_keys",
        sa.Column("id", sa.SmallInteger(), nullable=False),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_push_keys"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_push_subscriptions_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_push_subscriptions"),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("subscription_id", sa.String(36), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name="fk_push_outbox_subscription_id_push_subscriptions",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_push_outbox"),
    )
    op.create_index("ix_push_outbox_next_at", "push_outbox", ["next_at"])


def downgrade() -> None:
    op.drop_table("push_outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")
    op.drop_column("lobby_events", "player_id")
    op.drop_column("matches", "per_move_s")
