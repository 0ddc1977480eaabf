"""The caller of an account route: a player signed in on a device (a session), never a bot's
API key, so a leaked key cannot make itself a session, a passkey or another key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request

from domino_api.errors import SessionRequired, Unauthenticated
from domino_api.store import accounts_repo
from domino_api.store.account_models import PlayerToken
from domino_api.store.models import Player
from domino_api.web.deps import CurrentPlayer, UnitOfWork
from domino_api.web.problems import AUTH
from domino_api.web.tokens import hash_token, parse_bearer

# What a route for a signed-in device answers when the caller is not one.
DEVICE_CODES = (*AUTH, "session_required")
# A passkey's, session's or key's id in a path.
RowId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,16}$")]


@dataclass(frozen=True)
class Device:
    player: Player
    token: PlayerToken  # the session the request came with


async def device_session(request: Request, player: CurrentPlayer, session: UnitOfWork) -> Device:
    # Read again, past the auth cache: a session signed out a moment ago manages nothing.
    token = parse_bearer(request.headers.get("authorization")) or ""
    row = await accounts_repo.token_by_hash(session, hash_token(token))
    if row is None or row.player_id != player.id:
        raise Unauthenticated("The token is not valid (unknown, revoked or signed out).")
    if row.kind != "session":
        raise SessionRequired(
            "An API key cannot manage the account; sign in on a device (a passkey or a link"
            " code) to do this."
        )
    return Device(player, row)


SignedInDevice = Annotated[Device, Depends(device_session)]
