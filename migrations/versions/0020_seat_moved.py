"""A seat's holder made a move (issue 48): a rated match moves ratings only when every human
seat's holder made a move of its own (docs/API.md, "Ratings").

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "seats", sa.Column("moved", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("seats", "moved")
