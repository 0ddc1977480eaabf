"""presence is witnessed: service_starts.witnessed_at, service_starts.witness_since

Each API process records, after renewing its sockets' leases, the moment it did
(`witnessed_at`) and the start of its unbroken run of renewals (`witness_since`). A seat's lease
lapses only in time some process could see it (issue 48): a PostgreSQL outage no longer makes
every socket's lease look run out to the first request after it.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for column in ("witnessed_at", "witness_since"):
        op.add_column(
            "service_starts", sa.Column(column, sa.DateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    for column in ("witness_since", "witnessed_at"):
        op.drop_column("service_starts", column)
