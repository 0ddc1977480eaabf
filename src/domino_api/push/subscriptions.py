"""A device's Web Push subscription, checked before it is kept.

The endpoint is where this service will POST (a push service's URL, RFC 8030): `https` on a
named or public host only, so a player cannot point the service's requests at its own
network (`DOMINO_PUSH_ALLOW_LOCAL` lifts that for tests and development). The keys are the
browser's: `p256dh` a P-256 public key (65 bytes, uncompressed, a point on the curve), `auth`
a 16-byte secret, both base64url as `PushSubscription.toJSON()` gives them (RFC 8291).
Anything else is `422 validation_error`, and nothing is kept.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from pydantic import Field

from domino_api.errors import ValidationFailed
from domino_api.web.inputs import Strict

MAX_ENDPOINT = 1024


class PushKeysIn(Strict):
    p256dh: str = Field(min_length=80, max_length=100, description="base64url, 65 bytes")
    auth: str = Field(min_length=16, max_length=40, description="base64url, 16 bytes")


class SubscriptionIn(Strict):
    """A browser's `PushSubscription.toJSON()` (its `expirationTime`, if sent, is ignored)."""

    endpoint: str = Field(min_length=8, max_length=MAX_ENDPOINT)
    keys: PushKeysIn
    expirationTime: int | None = Field(default=None, description="ignored")


class SubscriptionOut(Strict):
    id: str = Field(description="DELETE /v1/push/subscriptions/{id} forgets it")
    endpoint: str


class PushKeyOut(Strict):
    public_key: str = Field(
        description="The VAPID public key, base64url (an uncompressed P-256 point): the"
        " `applicationServerKey` of `PushManager.subscribe`"
    )


def _b64url(text: str, name: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValidationFailed(f"keys.{name}: not base64url.") from None


def check_keys(keys: PushKeysIn) -> None:
    raw = _b64url(keys.p256dh, "p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise ValidationFailed("keys.p256dh: not a P-256 public key (65 bytes).") from None
    if len(raw) != 65:
        raise ValidationFailed("keys.p256dh: not an uncompressed P-256 public key (65 bytes).")
    if len(_b64url(keys.auth, "auth")) != 16:
        raise ValidationFailed("keys.auth: not a 16-byte secret.")


def check_endpoint(endpoint: str, allow_local: bool) -> None:
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
        parts.port  # noqa: B018  (a port that is no number raises here)
    except ValueError:
        raise ValidationFailed("endpoint: not a URL.") from None
    schemes = ("https", "http") if allow_local else ("https",)
    if parts.scheme not in schemes or not host or parts.username or parts.password:
        raise ValidationFailed("endpoint: an https URL of a push service, without credentials.")
    if allow_local:
        return
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            raise ValidationFailed("endpoint: not a public host.") from None
        return
    if not address.is_global:
        raise ValidationFailed("endpoint: not a public address.")


def check(body: SubscriptionIn, allow_local: bool) -> None:
    check_endpoint(body.endpoint, allow_local)
    check_keys(body.keys)
