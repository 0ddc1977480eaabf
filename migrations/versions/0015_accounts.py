"""accounts on every device (issue 43): tokens, passkeys, WebAuthn challenges, link codes

player_tokens: every bearer token of a player, a device's session or a named API key, stored
hashed; the token each player was given at its creation (players.token_hash) becomes its
"First device" session, and the column goes. passkeys: WebAuthn credentials (public keys).
webauthn_challenges: a ceremony's challenge until it is answered once or expires. link_codes:
the one live code a player's device shows to sign another device in.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def _player(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["player_id"], ["players.id"], name=f"fk_{table}_player_id_players", ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "player_tokens",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("last_used_at", WHEN, nullable=True),
        _player("player_tokens"),
        sa.PrimaryKeyConstraint("id", name="pk_player_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_player_tokens_token_hash"),
    )
    op.create_index("ix_player_tokens_player_id", "player_tokens", ["player_id"])
    # Each player's one token so far, as its first device's session; a random 16-character id.
    op.execute(
        "INSERT INTO player_tokens (id, player_id, kind, name, token_hash, created_at)"
        " SELECT substr(md5(random()::text || id), 1, 16), id, 'session', 'First device',"
        " token_hash, created_at FROM players"
    )
    op.drop_constraint("uq_players_token_hash", "players", type_="unique")
    op.drop_column("players", "token_hash")
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("credential_id", sa.LargeBinary(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", postgresql.JSONB(), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("last_used_at", WHEN, nullable=True),
        _player("passkeys"),
        sa.PrimaryKeyConstraint("id", name="pk_passkeys"),
        sa.UniqueConstraint("credential_id", name="uq_passkeys_credential_id"),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=True),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        _player("webauthn_challenges"),
        sa.PrimaryKeyConstraint("id", name="pk_webauthn_challenges"),
    )
    op.create_index("ix_webauthn_challenges_expires_at", "webauthn_challenges", ["expires_at"])
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
        _player("link_codes"),
        sa.PrimaryKeyConstraint("code_hash", name="pk_link_codes"),
        sa.UniqueConstraint("player_id", name="uq_link_codes_player_id"),
    )


def downgrade() -> None:
    op.drop_table("link_codes")
    op.drop_table("webauthn_challenges")
    op.drop_table("passkeys")
    # Each player's oldest token becomes its one token again (a player with none gets a random
    # hash: no token opens it); sessions and API keys beyond it are lost.
    op.add_column("players", sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = coalesce((SELECT t.token_hash FROM player_tokens t"
        " WHERE t.player_id = players.id ORDER BY t.created_at, t.id LIMIT 1),"
        " md5(random()::text) || md5(random()::text))"
    )
    op.alter_column("players", "token_hash", nullable=False)
    op.create_unique_constraint("uq_players_token_hash", "players", ["token_hash"])
    op.drop_table("player_tokens")
