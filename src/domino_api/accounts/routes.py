"""HTTP routes for passkeys: registering them, listing and removing them, and signing a
device in with one (docs/API.md, "Accounts")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from domino_api.accounts import devices, passkeys
from domino_api.accounts.deps import DEVICE_CODES, RowId, SignedInDevice
from domino_api.accounts.schemas import (
    PasskeyOut,
    PasskeyRegister,
    PasskeySignIn,
    RegistrationStart,
    SignedIn,
    SignInStart,
)
from domino_api.store import accounts_repo
from domino_api.web.deps import (
    NO_STRAY_BODY,
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


def served_port(request: Request) -> int | None:
    """The port this server was reached on: its socket's (the ASGI `server`), which no
    request header can name."""
    server = request.scope.get("server")
    return server[1] if server and isinstance(server[1], int) else None


@router.post(
    "/players/me/passkeys/options",
    summary="Start registering a passkey",
    responses=struct_answer(RegistrationStart) | problems(*DEVICE_CODES, "rate_limited"),
)
async def passkey_options(
    request: Request, device: SignedInDevice, session: UnitOfWork
) -> FastJSONResponse:
    """WebAuthn creation options for a new passkey of the caller's player (pass `publicKey` to
    `navigator.credentials.create`), and the `ceremony` to send back with its answer, once,
    within `DOMINO_WEBAUTHN_TIMEOUT_S`. Budgeted per player (`DOMINO_ACCOUNT_RATE_LIMIT`)."""
    await limits_of(request).hit("account", f"player:{device.player.id}")
    start = await passkeys.registration_options(
        session, settings_of(request), device.player, clock_of(request).now()
    )
    return FastJSONResponse(start)


@router.post(
    "/players/me/passkeys",
    status_code=201,
    summary="Register a passkey",
    openapi_extra=request_body("PasskeyRegister"),
    responses=struct_answer(PasskeyOut, 201)
    | problems(
        *BODY, *DEVICE_CODES, "ceremony_not_found", "passkey_rejected", "passkey_registered"
    ),
)
async def register_passkey(
    body: Annotated[PasskeyRegister, Depends(reader(PasskeyRegister))],
    request: Request,
    device: SignedInDevice,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Verify the authenticator's answer to the ceremony (its challenge, origin, site and
    "none" attestation) and keep the passkey's public key: from now on it signs the player in on
    any device (POST /v1/sign-in/passkey)."""
    settings, now = settings_of(request), clock_of(request).now()
    origins = passkeys.expected_origins(settings, served_port(request))
    made = await passkeys.register(session, settings, origins, device.player, body, now)
    return FastJSONResponse(made, status_code=201)


@router.get(
    "/players/me/passkeys",
    summary="Your passkeys",
    responses=struct_answer(PasskeyOut, many=True) | problems(*DEVICE_CODES),
)
async def list_passkeys(device: SignedInDevice, session: UnitOfWork) -> FastJSONResponse:
    """The caller's passkeys, oldest first: name, when registered, when last used."""
    rows = await accounts_repo.passkeys_of(session, device.player.id)
    return FastJSONResponse([passkeys.passkey_out(row) for row in rows])


@router.delete(
    "/players/me/passkeys/{passkey_id}",
    status_code=204,
    summary="Remove a passkey",
    responses=problems(*DEVICE_CODES, "validation_error", "passkey_not_found", "last_way_in"),
)
async def remove_passkey(
    passkey_id: RowId, device: SignedInDevice, session: UnitOfWork
) -> Response:
    """The passkey signs nobody in any more. Refused (`409 last_way_in`) for the last passkey
    while the calling device's session is the player's only token."""
    await devices.remove_passkey(session, device.player.id, passkey_id)
    return Response(status_code=204)


@router.post(
    "/sign-in/passkey/options",
    summary="Start signing in with a passkey",
    responses=struct_answer(SignInStart) | problems("rate_limited", "service_busy"),
)
async def sign_in_options(request: Request, session: UnitOfWork) -> FastJSONResponse:
    """WebAuthn request options (pass `publicKey` to `navigator.credentials.get`; any passkey
    of this site may answer), and the `ceremony` to send back with its answer. No token needed;
    budgeted per client address (`DOMINO_SIGN_IN_RATE_LIMIT`) and its network."""
    await limits_of(request).hit_from("sign_in", client_address(request))
    start = await passkeys.sign_in_options(session, settings_of(request), clock_of(request).now())
    return FastJSONResponse(start)


@router.post(
    "/sign-in/passkey",
    status_code=201,
    summary="Sign a device in with a passkey",
    openapi_extra=request_body("PasskeySignIn"),
    responses=struct_answer(SignedIn, 201)
    | problems(*BODY, "ceremony_not_found", "passkey_rejected", "rate_limited"),
)
async def sign_in_with_passkey(
    body: Annotated[PasskeySignIn, Depends(reader(PasskeySignIn))],
    request: Request,
    session: UnitOfWork,
) -> FastJSONResponse:
    """Verify the passkey's answer (signature, challenge, origin, site, signature counter) and
    give this device a session of the passkey's player: its token (shown once) opens the
    player's records, settings and seats at its live matches, as on the first device."""
    await limits_of(request).hit_from("sign_in", client_address(request))
    now = clock_of(request).now()
    settings = settings_of(request)
    origins = passkeys.expected_origins(settings, served_port(request))
    player_id = await passkeys.verify_sign_in(session, settings, origins, body, now)
    signed_in = await devices.sign_in(session, player_id, body.device or "Passkey sign-in", now)
    return FastJSONResponse(signed_in, status_code=201)
