"""The lobby as a read model of committed steps (issues 47, 48, 50)

lobby_tables.seq: the match's seq the listing was last told at, so a step followed late (by
another process) never overwrites a newer one (lobby/follower.py). seeks.rated: whether the
seeker asked for a rated game; a pairing is rated when both asked.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "lobby_tables", sa.Column("seq", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "seeks", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("seeks", "rated")
    op.drop_column("lobby_tables", "seq")
