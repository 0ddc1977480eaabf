"""a clean stop is recorded: service_starts.stopped_at

A process stopped cleanly (Ctrl-C, SIGTERM) was alive until exactly then; only a process that
died without a word is given the heartbeat's slack. Before, a deadline that fell within that
slack after every process had stopped cleanly was forfeited instead of moved (issue 41).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "service_starts", sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    op.drop_column("service_starts", "stopped_at")
