"""Request and response bodies of accounts: WebAuthn's own JSON (camelCase, as browsers send
and take it), device sessions, link codes and API keys."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from domino_api.players.schemas import PlayerOut
from domino_api.web.names import PlayerName
from domino_api.web.struct_bodies import Body

# Base64url text (WebAuthn's encoding of bytes), as long as each part can be.
B64URL = r"^[A-Za-z0-9_-]*={0,2}$"
# A credential id is at most 1023 bytes (WebAuthn level 3): 1364 characters.
CredentialId = Annotated[str, Meta(pattern=B64URL, min_length=1, max_length=1400)]
Short = Annotated[str, Meta(pattern=B64URL, min_length=1, max_length=4096)]
Long = Annotated[str, Meta(pattern=B64URL, min_length=1, max_length=16384)]
Handle = Annotated[str, Meta(pattern=B64URL, max_length=128)]
CeremonyId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
Transport = Annotated[str, Meta(pattern=r"^[a-z-]{1,16}$")]


# WebAuthn's own parts are plain Structs, not `Body`s: members this service does not read
# (`clientExtensionResults`, a response's `publicKey`...) are ignored, as browsers add them.
class AttestationResponse(msgspec.Struct, kw_only=True):
    clientDataJSON: Short
    attestationObject: Long
    transports: Annotated[list[Transport], Meta(max_length=8)] = []


class AssertionResponse(msgspec.Struct, kw_only=True):
    clientDataJSON: Short
    authenticatorData: Short
    signature: Short
    userHandle: Handle | None = None


class RegistrationCredential(msgspec.Struct, kw_only=True):
    """What `PublicKeyCredential.toJSON()` sends for a new passkey."""

    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = None
    response: AttestationResponse


class AuthenticationCredential(msgspec.Struct, kw_only=True):
    """What `PublicKeyCredential.toJSON()` sends for a sign-in."""

    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = None
    response: AssertionResponse


class PasskeyRegister(Body):
    ceremony: Annotated[CeremonyId, Meta(description="From POST /v1/players/me/passkeys/options")]
    credential: Annotated[
        RegistrationCredential,
        Meta(description="`navigator.credentials.create()`'s answer, as `toJSON()` gives it"),
    ]
    name: Annotated[PlayerName | None, Meta(description="Default `Passkey N`")] = None


class PasskeySignIn(Body):
    ceremony: Annotated[CeremonyId, Meta(description="From POST /v1/sign-in/passkey/options")]
    credential: Annotated[
        AuthenticationCredential,
        Meta(description="`navigator.credentials.get()`'s answer, as `toJSON()` gives it"),
    ]
    device: Annotated[PlayerName | None, Meta(description="The session's name")] = None


class LinkSignIn(Body):
    code: Annotated[
        str,
        Meta(
            max_length=32, examples=["7KQ2-M9XD"], description="The code the signed-in device shows"
        ),
    ]
    device: Annotated[PlayerName | None, Meta(description="The session's name")] = None


class ApiKeyCreate(Body):
    name: Annotated[PlayerName, Meta(examples=["My bot"])]


# ---------------------------------------------------------------- WebAuthn's options


# Answers are frozen Structs, encoded once by web/responses.py's FastJSONResponse; each
# docstring's first line is its answer's description (`struct_answer`).
class RelyingParty(Struct, frozen=True, kw_only=True):
    """The site a passkey belongs to."""

    id: str
    name: str


class UserEntity(Struct, frozen=True, kw_only=True):
    """The player a new passkey is made for."""

    id: Annotated[str, Meta(description="The user handle (base64url)")]
    name: str
    displayName: str


class CredentialParameter(Struct, frozen=True, kw_only=True):
    """A signature algorithm the site takes (COSE's number)."""

    type: Literal["public-key"]
    alg: int


class CredentialDescriptor(Struct, frozen=True, kw_only=True):
    """A passkey already known, by its credential id."""

    id: Annotated[str, Meta(description="A credential id (base64url)")]
    type: Literal["public-key"]
    transports: list[str]


class AuthenticatorSelection(Struct, frozen=True, kw_only=True):
    """What the authenticator must do: keep a discoverable passkey, check its user."""

    residentKey: Literal["discouraged", "preferred", "required"]
    requireResidentKey: bool
    userVerification: Literal["discouraged", "preferred", "required"]


class CreationOptions(Struct, frozen=True, kw_only=True):
    """`PublicKeyCredentialCreationOptions` in JSON (`PublicKeyCredential.
    parseCreationOptionsFromJSON` takes it): bytes as base64url."""

    rp: RelyingParty
    user: UserEntity
    challenge: str
    pubKeyCredParams: list[CredentialParameter]
    timeout: int
    excludeCredentials: list[CredentialDescriptor]
    authenticatorSelection: AuthenticatorSelection
    attestation: Literal["none"]


class RequestOptions(Struct, frozen=True, kw_only=True):
    """`PublicKeyCredentialRequestOptions` in JSON (`parseRequestOptionsFromJSON` takes it);
    no `allowCredentials`: the passkey names its player."""

    challenge: str
    timeout: int
    rpId: str
    allowCredentials: list[CredentialDescriptor]
    userVerification: Literal["discouraged", "preferred", "required"]


Ceremony = Annotated[str, Meta(description="Send it back with the credential (once, in time)")]


class RegistrationStart(Struct, frozen=True, kw_only=True):
    """WebAuthn's creation options, and the ceremony to send back with their answer."""

    ceremony: Ceremony
    publicKey: CreationOptions


class SignInStart(Struct, frozen=True, kw_only=True):
    """WebAuthn's request options, and the ceremony to send back with their answer."""

    ceremony: Ceremony
    publicKey: RequestOptions


# ---------------------------------------------------------------- what a player has


class PasskeyOut(Struct, frozen=True, kw_only=True):
    """A passkey of the player's."""

    id: str
    name: str
    created_at: str
    last_used_at: str | None


class TokenOut(Struct, frozen=True, kw_only=True):
    """An API key of the player's (never the key itself)."""

    id: str
    name: str
    created_at: str
    last_used_at: Annotated[str | None, Meta(description="Moves in steps of a minute")]


class SessionOut(TokenOut, frozen=True, kw_only=True):
    """A signed-in device's session."""

    current: Annotated[bool, Meta(description="The session of the request that asks")]


class ApiKeyCreated(TokenOut, frozen=True, kw_only=True):
    """The new API key, its token shown this once."""

    token: Annotated[str, Meta(description="Shown once; send as 'Authorization: Bearer <token>'.")]


class SignedIn(Struct, frozen=True, kw_only=True):
    """The device's new session of the player, its token shown this once."""

    player: PlayerOut
    session: SessionOut
    token: Annotated[str, Meta(description="This device's bearer token, shown once")]


class LinkCodeOut(Struct, frozen=True, kw_only=True):
    """A one-time code that signs another device in."""

    code: Annotated[
        str, Meta(examples=["7KQ2-M9XD"], description="Enter it on the new device, once")
    ]
    expires_at: str


ANSWERS = (
    RegistrationStart,
    SignInStart,
    PasskeyOut,
    TokenOut,
    SessionOut,
    ApiKeyCreated,
    SignedIn,
    LinkCodeOut,
)
