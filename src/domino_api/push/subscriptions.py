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
import socket
from typing import Annotated
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from msgspec import Meta, Struct

from domino_api.errors import ValidationFailed
from domino_api.web.struct_bodies import Body

MAX_ENDPOINT = 1024


class PushKeysIn(Body):
    p256dh: Annotated[str, Meta(min_length=80, max_length=100, description="base64url, 65 bytes")]
    auth: Annotated[str, Meta(min_length=16, max_length=40, description="base64url, 16 bytes")]


class SubscriptionIn(Body):
    """A browser's `PushSubscription.toJSON()` (its `expirationTime`, if sent, is ignored)."""

    endpoint: Annotated[str, Meta(min_length=8, max_length=MAX_ENDPOINT)]
    keys: PushKeysIn
    expirationTime: Annotated[int | None, Meta(description="ignored")] = None


class SubscriptionOut(Struct, frozen=True, kw_only=True):
    """The subscription kept: this device's turns are pushed to it."""

    id: Annotated[str, Meta(description="DELETE /v1/push/subscriptions/{id} forgets it")]
    endpoint: str


class PushKeyOut(Struct, frozen=True, kw_only=True):
    """The VAPID public key browsers subscribe with."""

    public_key: Annotated[
        str,
        Meta(
            description="The VAPID public key, base64url (an uncompressed P-256 point): the"
            " `applicationServerKey` of `PushManager.subscribe`"
        ),
    ]


ANSWERS = (PushKeyOut, SubscriptionOut)


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


# Names that never leave the operator's network (RFC 6761, 6762, 8375; ICANN's `internal`).
PRIVATE_SUFFIXES = ("localhost", "local", "internal", "home.arpa", "lan", "invalid")


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as one names: any form the resolver takes for IPv4 too
    (`2130706433`, `127.1`, `0x7f.1`, `0177.0.0.1` are all 127.0.0.1 to getaddrinfo)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _check_host(host: str) -> None:
    """A public address, or a fully qualified name outside the private suffixes: a name of
    one label (`metadata`) resolves through the operator's search domains."""
    name = host.rstrip(".")  # `localhost.` is localhost
    address = _address(name)
    if address is not None:
        if not address.is_global:
            raise ValidationFailed("endpoint: not a public address.")
        return
    labels = name.split(".")
    private = any(name == s or name.endswith("." + s) for s in PRIVATE_SUFFIXES)
    if private or len(labels) < 2 or labels[-1].isdigit() or not all(labels):
        raise ValidationFailed("endpoint: not a public host.")


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
    if not allow_local:
        _check_host(host)


def check(body: SubscriptionIn, allow_local: bool) -> None:
    check_endpoint(body.endpoint, allow_local)
    check_keys(body.keys)
