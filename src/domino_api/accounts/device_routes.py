"""HTTP routes for a player's devices and keys: sessions, link codes, API keys
(docs/API.md, "Accounts")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.accounts import devices
from domino_api.accounts.deps import DEVICE_CODES, RowId, SignedInDevice
from domino_api.accounts.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    LinkCodeOut,
    LinkSignIn,
    SessionOut,
    SignedIn,
    TokenOut,
)
from domino_api.store import accounts_repo
from domino_api.store.db import after_commit
from domino_api.web import revocation
from domino_api.web.deps import (
    NO_STRAY_BODY,
    AuthCache,
    UnitOfWork,
    client_address,
    clock_of,
    limits_of,
    settings_of,
)
from domino_api.web.problems import BODY, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["accounts"], dependencies=NO_STRAY_BODY)


def _revoked(request: Request, session: AsyncSession, token_hash: str) -> None:
    """Once the removal has committed, no process trusts the token any more and every socket
    opened with it closes (4401 `revoked`): this one at once, the others when the revocation's
    announcement reaches them (web/revocation.py)."""
    state = request.app.state
    cache: AuthCache = state.auth_cache

    async def revoke() -> None:
        revocation.revoke_here(cache, state.credentials, [token_hash])
        await state.announcer.announce_revoked(token_hash)

    after_commit(session, revoke)


@router.get(
    "/players/me/sessions",
    summary="Your signed-in devices",
    responses=struct_answer(SessionOut, many=True) | problems(*DEVICE_CODES),
)
async def list_sessions(device: SignedInDevice, session: UnitOfWork) -> FastJSONResponse:
    """The caller's sessions (one per signed-in device), oldest first; `current` marks the
    one asking."""
    rows = await accounts_repo.tokens_of(session, device.player.id, "session")
    return FastJSONResponse([devices.session_out(row, device.token.id) for row in rows])


@router.delete(
    "/players/me/sessions/{session_id}",
    status_code=204,
    summary="Sign a device out",
    responses=problems(*DEVICE_CODES, "validation_error", "session_not_found", "last_way_in"),
)
async def sign_out(
    session_id: RowId, request: Request, device: SignedInDevice, session: UnitOfWork
) -> Response:
    """The session's token stops working (`401` from then on); the caller's own `current`
    session signs this device out. Every socket opened with it closes (4401 `revoked`), on
    every server process, within about a second. Refused (`409 last_way_in`) for the
    player's only token while it has no passkey."""
    token_hash = await devices.remove_token(session, device.player.id, "session", session_id)
    _revoked(request, session, token_hash)
    return Response(status_code=204)


@router.post(
    "/players/me/link-codes",
    status_code=201,
    summary="Show a code that signs another device in",
    responses=struct_answer(LinkCodeOut, 201) | problems(*DEVICE_CODES, "rate_limited"),
)
async def new_link_code(
    request: Request, device: SignedInDevice, session: UnitOfWork
) -> FastJSONResponse:
    """A one-time code (`XXXX-XXXX`) to enter on a new device (POST /v1/sign-in/link) within
    `DOMINO_LINK_CODE_TTL_S`; a newer code replaces it. Budgeted per player
    (`DOMINO_ACCOUNT_RATE_LIMIT`)."""
    await limits_of(request).hit("account", f"player:{device.player.id}")
    ttl = settings_of(request).link_code_ttl_s
    code = await devices.new_link_code(session, device.player.id, ttl, clock_of(request).now())
    return FastJSONResponse(code, status_code=201)


@router.post(
    "/sign-in/link",
    status_code=201,
    summary="Sign a device in with a link code",
    openapi_extra=request_body("LinkSignIn"),
    responses=struct_answer(SignedIn, 201)
    | problems(*BODY, "link_code_not_found", "rate_limited", "service_busy"),
)
async def sign_in_with_code(
    body: Annotated[LinkSignIn, Depends(reader(LinkSignIn))],
    request: Request,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Use up a link code: this device gets a session of the code's player (its token shown
    once). Every entry, right or wrong, is budgeted per client address
    (`DOMINO_SIGN_IN_RATE_LIMIT`) and per network (`DOMINO_NETWORK_SHARE` addresses' worth)."""
    await limits_of(request).hit_from("sign_in", client_address(request))
    now = clock_of(request).now()
    signed_in = await devices.link(session, body.code, body.device or "Linked device", now)
    return FastJSONResponse(signed_in, status_code=201)


@router.get(
    "/players/me/api-keys",
    summary="Your API keys",
    responses=struct_answer(TokenOut, many=True) | problems(*DEVICE_CODES),
)
async def list_api_keys(device: SignedInDevice, session: UnitOfWork) -> FastJSONResponse:
    """The caller's API keys, oldest first: name, created, last used (never the key again)."""
    rows = await accounts_repo.tokens_of(session, device.player.id, "api_key")
    return FastJSONResponse([devices.token_out(row) for row in rows])


@router.post(
    "/players/me/api-keys",
    status_code=201,
    summary="Create an API key (shown once)",
    openapi_extra=request_body("ApiKeyCreate"),
    responses=struct_answer(ApiKeyCreated, 201) | problems(*BODY, *DEVICE_CODES, "rate_limited"),
)
async def new_api_key(
    body: Annotated[ApiKeyCreate, Depends(reader(ApiKeyCreate))],
    request: Request,
    device: SignedInDevice,
    session: UnitOfWork,
) -> FastJSONResponse:
    """A named bearer token for a bot or a script: it plays as the player (matches, moves, the
    socket) but manages no account (`403 session_required`). Budgeted per player
    (`DOMINO_ACCOUNT_RATE_LIMIT`)."""
    await limits_of(request).hit("account", f"player:{device.player.id}")
    key = await devices.new_api_key(session, device.player.id, body.name, clock_of(request).now())
    return FastJSONResponse(key, status_code=201)


@router.delete(
    "/players/me/api-keys/{key_id}",
    status_code=204,
    summary="Revoke an API key",
    responses=problems(*DEVICE_CODES, "validation_error", "api_key_not_found"),
)
async def revoke_api_key(
    key_id: RowId, request: Request, device: SignedInDevice, session: UnitOfWork
) -> Response:
    """The key stops working: `401 unauthenticated` from then on, and every socket opened with
    it closes (4401 `revoked`)."""
    token_hash = await devices.remove_token(session, device.player.id, "api_key", key_id)
    _revoked(request, session, token_hash)
    return Response(status_code=204)
