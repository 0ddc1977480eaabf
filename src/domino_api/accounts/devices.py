"""A player's devices and keys: sessions (a device's bearer token), one-time link codes that
sign another device in, named API keys for bots, and the rule that keeps a player from locking
itself out. The service layer: never commits.

Link codes are 8 characters of Crockford's base32 (40 bits), shown as `XXXX-XXXX`: with a code
living minutes, used once, and entries budgeted per address (`DOMINO_SIGN_IN_RATE_LIMIT`), a
guess has no chance worth the name. Only a code's SHA-256 is stored; it travels only in request
bodies, which no log line holds.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.accounts import schemas as s
from domino_api.engine.clock_text import iso
from domino_api.errors import (
    ApiKeyNotFound,
    LastWayIn,
    LinkCodeNotFound,
    PasskeyNotFound,
    SessionNotFound,
)
from domino_api.players.service import profile
from domino_api.store import accounts_repo, players_repo
from domino_api.store.account_models import PlayerToken, TokenKind
from domino_api.web.tokens import hash_token, new_token

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O or U
# What a person may type for a character Crockford's alphabet leaves out.
READS_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
CODE_LENGTH = 8


def token_out(row: PlayerToken) -> s.TokenOut:
    return s.TokenOut(
        id=row.id,
        name=row.name,
        created_at=iso(row.created_at) or "",
        last_used_at=iso(row.last_used_at),
    )


def session_out(row: PlayerToken, current_id: str | None) -> s.SessionOut:
    return s.SessionOut(**msgspec.structs.asdict(token_out(row)), current=row.id == current_id)


async def sign_in(session: AsyncSession, player_id: str, device: str, now: datetime) -> s.SignedIn:
    """A new session for a device signing in as the player, its token shown this once."""
    token = new_token()
    row = accounts_repo.issue_token(session, player_id, "session", device, hash_token(token), now)
    await session.flush()
    player = await players_repo.by_id(session, player_id)
    assert player is not None  # its token row was just written under its foreign key
    return s.SignedIn(player=profile(player), session=session_out(row, row.id), token=token)


async def new_api_key(
    session: AsyncSession, player_id: str, name: str, now: datetime
) -> s.ApiKeyCreated:
    token = new_token()
    row = accounts_repo.issue_token(session, player_id, "api_key", name, hash_token(token), now)
    await session.flush()
    return s.ApiKeyCreated(**msgspec.structs.asdict(token_out(row)), token=token)


async def remove_token(
    session: AsyncSession, player_id: str, kind: TokenKind, token_id: str
) -> str:
    """Sign a session out or revoke an API key: its token stops working. Returns its hash
    (whose sockets close once this commits: web/revocation.py). The last session of a
    player without a passkey stays (an API key is no way in: it manages no account)."""
    passkeys, sessions = await accounts_repo.ways_in(session, player_id)
    token_hash = await accounts_repo.delete_token(session, player_id, kind, token_id)
    if token_hash is None:
        missing = SessionNotFound if kind == "session" else ApiKeyNotFound
        raise missing(f"You have no {kind.replace('_', ' ')} with id {token_id!r}.")
    if kind == "session" and passkeys == 0 and sessions == 1:
        raise LastWayIn(
            "This is your only signed-in device and you have no passkey (an API key cannot"
            " sign a device in): add a passkey, or link another device, before you sign it out."
        )
    return token_hash


async def remove_passkey(session: AsyncSession, player_id: str, passkey_id: str) -> None:
    passkeys, sessions = await accounts_repo.ways_in(session, player_id)
    if not await accounts_repo.delete_passkey(session, player_id, passkey_id):
        raise PasskeyNotFound(f"You have no passkey with id {passkey_id!r}.")
    if passkeys == 1 and sessions == 1:
        raise LastWayIn(
            "This passkey is your last one and this device your only session: without it,"
            " nothing could sign you in again once this device forgets you. Add another"
            " passkey, or link another device, first."
        )


async def new_link_code(
    session: AsyncSession, player_id: str, ttl_s: float, now: datetime
) -> s.LinkCodeOut:
    """The player's one live link code (a newer one replaces it)."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    expires = now + timedelta(seconds=ttl_s)
    await accounts_repo.drop_expired(session, now)
    await accounts_repo.replace_link_code(session, player_id, hash_token(code), now, expires)
    return s.LinkCodeOut(code=f"{code[:4]}-{code[4:]}", expires_at=iso(expires) or "")


async def link(session: AsyncSession, code: str, device: str, now: datetime) -> s.SignedIn:
    """Sign a device in by a link code (using it up)."""
    typed = "".join(code.upper().translate(READS_AS).replace("-", "").split())
    player_id = None
    if len(typed) == CODE_LENGTH and set(typed) <= set(ALPHABET):
        player_id = await accounts_repo.take_link_code(session, hash_token(typed), now)
    if player_id is None:
        raise LinkCodeNotFound(
            "That link code is not valid: it may be mistyped, used already, replaced by a newer"
            " one, or expired. Show a new one on your signed-in device."
        )
    return await sign_in(session, player_id, device, now)
