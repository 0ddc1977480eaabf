"""How a socket learns its caller: a bearer header, or an `auth` frame first (browsers cannot
set headers on a WebSocket), then the token's player from the process's auth cache, as a
request's (web/deps.py `player_of_token`). Refusals are `Refused` (4401, 4408)."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket

from domino_api.players.auth import hash_token, parse_bearer
from domino_api.realtime import frames
from domino_api.realtime.refused import Refused
from domino_api.store.models import Player
from domino_api.web.deps import player_of_token


async def token_hash_of(websocket: WebSocket, timeout_s: float) -> str:
    """The hash of the socket's token: its bearer header's, else its first frame's."""
    token = parse_bearer(websocket.headers.get("authorization"))
    if token is None:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), timeout_s)
        except TimeoutError:
            raise Refused(4408, "unauthenticated") from None
        except (KeyError, RuntimeError):  # a binary frame first
            raise Refused(4401, "unauthenticated") from None
        token = frames.auth_token(text)
        if token is None:
            raise Refused(4401, "unauthenticated")
    return hash_token(token)


async def player_of(websocket: WebSocket, token_hash: str) -> Player:
    """The token's player; hold the credential (web/revocation.py) before asking, so that a
    revocation committed meanwhile still closes the socket."""
    state = websocket.app.state
    player = await player_of_token(state.auth_cache, state.core.pool, token_hash, state.clock)
    if player is None:
        raise Refused(4401, "unauthenticated")
    return player
