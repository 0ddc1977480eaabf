"""seat names and spectators: seats.name, matches.spectators

`seats.name` is the name a seat goes by at its table (the name given when joining, or a hot-seat
seat's name); null means its holder's profile name. `matches.spectators` is the creator's
`options.spectators`: players without a seat may watch the public view.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("name", sa.String(32), nullable=True))
    op.add_column(
        "matches",
        sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("matches", "spectators")
    op.drop_column("seats", "name")
