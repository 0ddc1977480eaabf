"""The tables of accounts (migration 0015): a player's bearer tokens (device sessions and named
API keys), its passkeys, the WebAuthn ceremonies under way and the one-time link codes.

Every secret is stored as a SHA-256 hash (tokens, link codes); a passkey is stored as its public
key only. docs/API.md, "Accounts", tells the rules."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import BigInteger, ForeignKey, LargeBinary, String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from domino_api.store.models import Base

TokenKind = Literal["session", "api_key"]
Ceremony = Literal["register", "sign_in"]


class PlayerToken(Base):
    """A bearer token of a player: a device's session or a named API key (a bot's)."""

    __tablename__ = "player_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]


class Passkey(Base):
    """A WebAuthn credential of a player: its id and public key, as the authenticator made them."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    credential_id: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    transports: Mapped[list[str]] = mapped_column(JSONB)
    name: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]


class WebauthnChallenge(Base):
    """A ceremony's challenge, kept until it is answered (once) or expires."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    # The player registering a passkey; none for a sign-in (the passkey names its player).
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class LinkCode(Base):
    """A one-time code a signed-in device shows to sign another in as the same player."""

    __tablename__ = "link_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), unique=True
    )
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
