"""idempotency keys remember the request they came with: idempotency_keys.request_hash

The SHA-256 of the request's validated body. The same key sent again with another request is
refused (422 idempotency_key_reused); before, it was answered with the first request's answer.
Keys stored before this have no digest and are answered as before.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("idempotency_keys", sa.Column("request_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("idempotency_keys", "request_hash")
