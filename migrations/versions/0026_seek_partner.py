"""A pair seeking a pair (issue 52)

seeks.partner_id: the player a seeker enters quick pairing with as one team; two seeks that
name each other are seated as partners (lobby/seek_teams.py).

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("partner_id", sa.String(36), nullable=True))


def downgrade() -> None:
    op.drop_column("seeks", "partner_id")
