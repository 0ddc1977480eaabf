"""outage grace: matches.outage_grace_until, an index on service_starts.started_at

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        'matches', sa.Column('outage_grace_until', sa.DateTime(timezone=True), nullable=True)
    )
    op.create_index(
        op.f('ix_service_starts_started_at'), 'service_starts', ['started_at'], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f('ix_service_starts_started_at'), table_name='service_starts')
    op.drop_column('matches', 'outage_grace_until')
