"""Passkey ceremonies (WebAuthn, verified by py_webauthn): registering a passkey for the
caller's player, and signing a device in with one. The service layer: never commits.

A ceremony's challenge is kept server-side under a random `ceremony` id until it is answered
(once: the row goes in the transaction that answers) or `DOMINO_WEBAUTHN_TIMEOUT_S` passes. A
refused answer rolls its transaction back, so nothing changes, the challenge included.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, structs
from webauthn.helpers.exceptions import WebAuthnException

from domino_api.accounts import schemas as s
from domino_api.config import Settings
from domino_api.engine.clock_text import iso
from domino_api.errors import CeremonyNotFound, PasskeyRegistered, PasskeyRejected
from domino_api.store import accounts_repo
from domino_api.store.account_models import Ceremony, Passkey, WebauthnChallenge
from domino_api.store.models import Player

SELECTION = structs.AuthenticatorSelectionCriteria(
    # A discoverable credential: a device that has never seen the player signs in with it.
    resident_key=structs.ResidentKeyRequirement.REQUIRED,
    require_resident_key=True,
    user_verification=structs.UserVerificationRequirement.PREFERRED,
)


def expected_origins(settings: Settings, served_port: int | None) -> list[str]:
    """The origins a passkey's answer may name: the configured ones, else this server's own
    port at `localhost` and `127.0.0.1` (local use)."""
    if configured := settings.webauthn_origin_list:
        return configured
    port = f":{served_port}" if served_port and served_port != 80 else ""
    return [f"http://localhost{port}", f"http://127.0.0.1{port}"]


def _not_framed(client_data_json: bytes, origins: list[str]) -> None:
    """Refuse an answer given inside another site's frame (`crossOrigin: true`, or a
    `topOrigin` that is not ours): a page of ours framed by a stranger is not our page."""
    try:
        found = json.loads(client_data_json)
    except ValueError:
        return  # py_webauthn refuses it with its own words
    if not isinstance(found, dict):
        return
    top = found.get("topOrigin")
    if found.get("crossOrigin") is True or (top is not None and top not in origins):
        raise PasskeyRejected(
            "The answer was given inside another site's frame (crossOrigin); passkeys are"
            " used on this site's own pages only."
        )


def user_handle(player_id: str) -> bytes:
    # The player's id is public (leaderboards show it): the handle tells nothing more.
    return player_id.encode()


def passkey_out(row: Passkey) -> s.PasskeyOut:
    return s.PasskeyOut(
        id=row.id,
        name=row.name,
        created_at=iso(row.created_at) or "",
        last_used_at=iso(row.last_used_at),
    )


async def registration_options(
    session: AsyncSession, settings: Settings, player: Player, now: datetime
) -> s.RegistrationStart:
    held = await accounts_repo.passkeys_of(session, player.id)
    options = generate_registration_options(
        rp_id=settings.webauthn_rp_id,
        rp_name=settings.webauthn_rp_name,
        user_name=player.name,
        user_id=user_handle(player.id),
        user_display_name=player.name,
        timeout=int(settings.webauthn_timeout_s * 1000),
        authenticator_selection=SELECTION,
        # The same authenticator twice would be one passkey under two names.
        exclude_credentials=[_descriptor(row) for row in held],
    )
    ceremony = await _keep(session, settings, "register", player.id, options.challenge, now)
    return s.RegistrationStart(ceremony=ceremony, publicKey=_creation_json(options))


async def register(
    session: AsyncSession,
    settings: Settings,
    origins: list[str],
    player: Player,
    body: s.PasskeyRegister,
    now: datetime,
) -> s.PasskeyOut:
    challenge = await _take(session, body.ceremony, "register", player.id, now)
    given = body.credential
    try:
        client_data = base64url_to_bytes(given.response.clientDataJSON)
        _not_framed(client_data, origins)
        verified = verify_registration_response(
            credential=structs.RegistrationCredential(
                id=given.id,
                raw_id=base64url_to_bytes(given.rawId),
                response=structs.AuthenticatorAttestationResponse(
                    client_data_json=client_data,
                    attestation_object=base64url_to_bytes(given.response.attestationObject),
                ),
            ),
            expected_challenge=challenge,
            expected_rp_id=settings.webauthn_rp_id,
            expected_origin=origins,
        )
    except (WebAuthnException, ValueError) as exc:
        raise PasskeyRejected(f"The new passkey did not verify: {_reason(exc)}") from None
    if await accounts_repo.passkey_by_credential(session, verified.credential_id) is not None:
        raise PasskeyRegistered("This passkey is registered already.")
    count = len(await accounts_repo.passkeys_of(session, player.id))
    row = Passkey(
        id=accounts_repo.new_id(),
        player_id=player.id,
        credential_id=verified.credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[t for t in given.response.transports if t in TRANSPORTS],
        name=body.name or f"Passkey {count + 1}",
        created_at=now,
        last_used_at=None,
    )
    accounts_repo.add(session, row)
    try:
        await session.flush()
    except IntegrityError:  # the same passkey, registered by a request at the same moment
        raise PasskeyRegistered("This passkey is registered already.") from None
    return passkey_out(row)


async def sign_in_options(
    session: AsyncSession, settings: Settings, now: datetime
) -> s.SignInStart:
    options = generate_authentication_options(
        rp_id=settings.webauthn_rp_id,
        timeout=int(settings.webauthn_timeout_s * 1000),
        user_verification=structs.UserVerificationRequirement.PREFERRED,
    )
    ceremony = await _keep(session, settings, "sign_in", None, options.challenge, now)
    public_key = s.RequestOptions(
        challenge=bytes_to_base64url(options.challenge),
        timeout=options.timeout or 0,
        rpId=settings.webauthn_rp_id,
        allowCredentials=[],
        userVerification="preferred",
    )
    return s.SignInStart(ceremony=ceremony, publicKey=public_key)


async def verify_sign_in(
    session: AsyncSession,
    settings: Settings,
    origins: list[str],
    body: s.PasskeySignIn,
    now: datetime,
) -> str:
    """The player whose passkey answered the ceremony; the passkey's count and use recorded."""
    challenge = await _take(session, body.ceremony, "sign_in", None, now)
    given = body.credential
    try:
        raw_id = base64url_to_bytes(given.rawId)
        handle = base64url_to_bytes(given.response.userHandle or "")
    except ValueError:
        raise PasskeyRejected("The answer is not base64url.") from None
    row = await accounts_repo.passkey_by_credential(session, raw_id)
    if row is None or (handle and handle != user_handle(row.player_id)):
        raise PasskeyRejected("This service holds no such passkey (it may have been removed).")
    try:
        client_data = base64url_to_bytes(given.response.clientDataJSON)
        _not_framed(client_data, origins)
        verified = verify_authentication_response(
            credential=structs.AuthenticationCredential(
                id=given.id,
                raw_id=raw_id,
                response=structs.AuthenticatorAssertionResponse(
                    client_data_json=client_data,
                    authenticator_data=base64url_to_bytes(given.response.authenticatorData),
                    signature=base64url_to_bytes(given.response.signature),
                ),
            ),
            expected_challenge=challenge,
            expected_rp_id=settings.webauthn_rp_id,
            expected_origin=origins,
            credential_public_key=row.public_key,
            credential_current_sign_count=row.sign_count,
        )
    except (WebAuthnException, ValueError) as exc:
        raise PasskeyRejected(f"The passkey's answer did not verify: {_reason(exc)}") from None
    row.sign_count = verified.new_sign_count
    row.last_used_at = now
    return row.player_id


# ---------------------------------------------------------------- the parts

TRANSPORTS = frozenset(t.value for t in structs.AuthenticatorTransport)


def _descriptor(row: Passkey) -> structs.PublicKeyCredentialDescriptor:
    return structs.PublicKeyCredentialDescriptor(
        id=row.credential_id,
        transports=[structs.AuthenticatorTransport(t) for t in row.transports],
    )


def _creation_json(options: structs.PublicKeyCredentialCreationOptions) -> s.CreationOptions:
    return s.CreationOptions(
        rp=s.RelyingParty(id=options.rp.id or "", name=options.rp.name),
        user=s.UserEntity(
            id=bytes_to_base64url(options.user.id),
            name=options.user.name,
            displayName=options.user.display_name,
        ),
        challenge=bytes_to_base64url(options.challenge),
        pubKeyCredParams=[
            s.CredentialParameter(type="public-key", alg=param.alg.value)
            for param in options.pub_key_cred_params
        ],
        timeout=options.timeout or 0,
        excludeCredentials=[
            s.CredentialDescriptor(
                id=bytes_to_base64url(held.id),
                type="public-key",
                transports=[t.value for t in held.transports or []],
            )
            for held in options.exclude_credentials or []
        ],
        authenticatorSelection=s.AuthenticatorSelection(
            residentKey="required", requireResidentKey=True, userVerification="preferred"
        ),
        attestation="none",
    )


async def _keep(
    session: AsyncSession,
    settings: Settings,
    purpose: Ceremony,
    player_id: str | None,
    challenge: bytes,
    now: datetime,
) -> str:
    await accounts_repo.drop_expired(session, now)
    row = WebauthnChallenge(
        id=secrets.token_urlsafe(24),
        purpose=purpose,
        player_id=player_id,
        challenge=challenge,
        expires_at=now + timedelta(seconds=settings.webauthn_timeout_s),
    )
    accounts_repo.add(session, row)
    await session.flush()
    return row.id


async def _take(
    session: AsyncSession, ceremony: str, purpose: Ceremony, player_id: str | None, now: datetime
) -> bytes:
    challenge = await accounts_repo.take_challenge(session, ceremony, purpose, player_id, now)
    if challenge is None:
        raise CeremonyNotFound(
            "No such passkey ceremony: it was never started, was answered already, or expired;"
            " ask for new options."
        )
    return challenge


def _reason(exc: Exception) -> str:
    """The library's words for a refusal, one short line (they name no secret)."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__
