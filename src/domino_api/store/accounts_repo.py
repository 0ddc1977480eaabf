"""SQL about accounts: tokens, passkeys, WebAuthn challenges and link codes."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.account_models import (
    Ceremony,
    LinkCode,
    Passkey,
    PlayerToken,
    TokenKind,
    WebauthnChallenge,
)


def new_id() -> str:
    """A row's public id: 16 URL-safe characters (it names the row, it grants nothing)."""
    return secrets.token_urlsafe(12)


def issue_token(
    session: AsyncSession,
    player_id: str,
    kind: TokenKind,
    name: str,
    token_hash: str,
    now: datetime,
) -> PlayerToken:
    """Stage a new token row of the player's (the caller flushes)."""
    row = PlayerToken(
        id=new_id(),
        player_id=player_id,
        kind=kind,
        name=name,
        token_hash=token_hash,
        created_at=now,
        last_used_at=None,
    )
    session.add(row)
    return row


def add(session: AsyncSession, row: Passkey | WebauthnChallenge) -> None:
    session.add(row)


async def token_by_hash(session: AsyncSession, token_hash: str) -> PlayerToken | None:
    result = await session.execute(select(PlayerToken).where(PlayerToken.token_hash == token_hash))
    return result.scalar_one_or_none()


async def tokens_of(session: AsyncSession, player_id: str, kind: TokenKind) -> list[PlayerToken]:
    result = await session.execute(
        select(PlayerToken)
        .where(PlayerToken.player_id == player_id, PlayerToken.kind == kind)
        .order_by(PlayerToken.created_at, PlayerToken.id)
    )
    return list(result.scalars())


async def delete_token(
    session: AsyncSession, player_id: str, kind: TokenKind, token_id: str
) -> str | None:
    """Delete one token of the player's; its hash, or None when it has no such token."""
    result = await session.execute(
        delete(PlayerToken)
        .where(
            PlayerToken.id == token_id,
            PlayerToken.player_id == player_id,
            PlayerToken.kind == kind,
        )
        .returning(PlayerToken.token_hash)
    )
    return result.scalar_one_or_none()


async def ways_in(session: AsyncSession, player_id: str) -> tuple[int, int]:
    """How many passkeys and how many sessions the player has (its ways in: an API key manages
    no account, so it is none), read under a lock on its tokens and passkeys: two removals at
    once cannot both pass the last-way-in rule."""
    passkeys = await session.execute(
        select(Passkey.id).where(Passkey.player_id == player_id).with_for_update()
    )
    tokens = await session.execute(
        select(PlayerToken.kind).where(PlayerToken.player_id == player_id).with_for_update()
    )
    return len(passkeys.all()), sum(1 for kind in tokens.scalars() if kind == "session")


async def passkeys_of(session: AsyncSession, player_id: str) -> list[Passkey]:
    result = await session.execute(
        select(Passkey)
        .where(Passkey.player_id == player_id)
        .order_by(Passkey.created_at, Passkey.id)
    )
    return list(result.scalars())


async def passkey_by_credential(session: AsyncSession, credential_id: bytes) -> Passkey | None:
    result = await session.execute(
        select(Passkey).where(Passkey.credential_id == credential_id).with_for_update()
    )
    return result.scalar_one_or_none()


async def delete_passkey(session: AsyncSession, player_id: str, passkey_id: str) -> bool:
    result = await session.execute(
        delete(Passkey)
        .where(Passkey.id == passkey_id, Passkey.player_id == player_id)
        .returning(Passkey.id)
    )
    return result.scalar_one_or_none() is not None


async def take_challenge(
    session: AsyncSession, ceremony_id: str, purpose: Ceremony, player_id: str | None, now: datetime
) -> bytes | None:
    """Take a ceremony's challenge (once: the row goes), if it is the caller's and not expired."""
    result = await session.execute(
        delete(WebauthnChallenge)
        .where(
            WebauthnChallenge.id == ceremony_id,
            WebauthnChallenge.purpose == purpose,
            WebauthnChallenge.player_id.is_(None)
            if player_id is None
            else WebauthnChallenge.player_id == player_id,
            WebauthnChallenge.expires_at > now,
        )
        .returning(WebauthnChallenge.challenge)
    )
    return result.scalar_one_or_none()


async def drop_expired(session: AsyncSession, now: datetime) -> None:
    """Forget challenges and link codes past their time (run as new ones are made)."""
    await session.execute(delete(WebauthnChallenge).where(WebauthnChallenge.expires_at <= now))
    await session.execute(delete(LinkCode).where(LinkCode.expires_at <= now))


async def replace_link_code(
    session: AsyncSession, player_id: str, code_hash: str, now: datetime, expires: datetime
) -> None:
    """The player's one live link code becomes this one (an earlier one stops working); one
    statement, so two at once (a double click) leave the later one, not a conflict."""
    values = {"code_hash": code_hash, "created_at": now, "expires_at": expires}
    statement = insert(LinkCode).values(player_id=player_id, **values)
    await session.execute(
        statement.on_conflict_do_update(index_elements=[LinkCode.player_id], set_=values)
    )


async def take_link_code(session: AsyncSession, code_hash: str, now: datetime) -> str | None:
    """The player a live link code signs in as, using the code up; None when there is none."""
    result = await session.execute(
        delete(LinkCode)
        .where(LinkCode.code_hash == code_hash, LinkCode.expires_at > now)
        .returning(LinkCode.player_id)
    )
    return result.scalar_one_or_none()
