"""Partnership etiquette for table talk (issue 52)

matches.talk_etiquette: a partnership table created with `options.talk: "etiquette"` refuses
table talk while a hand is in play (docs/RULES.md 14).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("talk_etiquette", sa.Boolean(), server_default=sa.text("false"), nullable=False),
    )


def downgrade() -> None:
    op.drop_column("matches", "talk_etiquette")
