"""Tournaments of pairs (issue 52)

tournaments.preset: the ruleset every match plays (classic, or a partnership preset whose
entrants are pairs); tournament_entrants.partner_id: the partner a pair's player named.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "tournaments",
        sa.Column("preset", sa.String(32), nullable=False, server_default="classic"),
    )
    op.add_column("tournament_entrants", sa.Column("partner_id", sa.String(36), nullable=True))


def downgrade() -> None:
    op.drop_column("tournament_entrants", "partner_id")
    op.drop_column("tournaments", "preset")
