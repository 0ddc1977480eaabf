"""game numbers of 5 and 6 digits once the 4-digit ones are crowded

A deployment held about 9,000 live numbered tables: every 4-digit number in use, creation
refused (409 `match_full`). Numbers now grow to 5 and then 6 digits (store/match_codes.py), so
`matches.code` and `match_codes.code` widen to 6 characters. Existing 4-digit numbers keep
their meaning.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("matches", "match_codes"):
        op.alter_column(table, "code", type_=sa.String(6), existing_type=sa.String(4))


def downgrade() -> None:
    # Only while no number is longer than 4 digits (a longer one would be cut off).
    for table in ("matches", "match_codes"):
        op.alter_column(table, "code", type_=sa.String(4), existing_type=sa.String(6))
