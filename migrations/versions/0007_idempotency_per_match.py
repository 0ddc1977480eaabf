"""idempotency keys scoped per player and match: one key sent to two matches is two keys

Before, the key was unique per player, so the same key sent to a second match failed its
insert with a unique violation (a 500). Now the primary key is (player_id, match_id, key): a
repeat on the same match answers what the first did, and another match is another answer.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_constraint("pk_idempotency_keys", "idempotency_keys", type_="primary")
    op.create_primary_key(
        "pk_idempotency_keys", "idempotency_keys", ["player_id", "match_id", "key"]
    )


def downgrade() -> None:
    # Keys a player reused across matches cannot all stay: keep the earliest of each.
    op.execute(
        "DELETE FROM idempotency_keys a USING idempotency_keys b "
        "WHERE a.player_id = b.player_id AND a.key = b.key AND a.created_at > b.created_at"
    )
    op.drop_constraint("pk_idempotency_keys", "idempotency_keys", type_="primary")
    op.create_primary_key("pk_idempotency_keys", "idempotency_keys", ["player_id", "key"])
