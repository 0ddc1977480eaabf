"""A software passkey authenticator for the API tests: an EC P-256 key made by `cryptography`,
answering WebAuthn ceremonies as a browser and its authenticator would (clientDataJSON,
authenticatorData, "none" attestation, ES256 signatures), so the service's verification by
py_webauthn runs for real on every test."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor

# The origin of a server reached on the default port when DOMINO_WEBAUTHN_ORIGINS is left
# empty (accounts/passkeys.expected_origins): the test client's.
ORIGIN = "http://localhost"
RP_ID = "localhost"
# Flags of authenticatorData: user present, user verified, attested credential data.
UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class Authenticator:
    """One passkey: its private key, credential id, user handle and signature counter."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    user_handle: bytes = b""
    counter: int = 0

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def auth_data(self, rp_id: str, flags: int, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256(rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.counter) + attested

    def create(
        self,
        options: dict[str, Any],
        origin: str = ORIGIN,
        rp_id: str | None = None,
        top_origin: str | None = None,
    ) -> dict[str, Any]:
        """`navigator.credentials.create()`'s answer (toJSON) to creation options; with
        `top_origin`, as given inside a frame of that site."""
        public_key = options["publicKey"]
        self.user_handle = base64url_to_bytes(public_key["user"]["id"])
        client_data = _client_data("webauthn.create", public_key["challenge"], origin, top_origin)
        attested = (
            bytes(16)  # aaguid: none
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + self.cose_key()
        )
        auth_data = self.auth_data(rp_id or public_key["rp"]["id"], UP | UV | AT, attested)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str = ORIGIN,
        rp_id: str | None = None,
        signer: ec.EllipticCurvePrivateKey | None = None,
        top_origin: str | None = None,
    ) -> dict[str, Any]:
        """`navigator.credentials.get()`'s answer (toJSON); `signer` forges with another key;
        with `top_origin`, as given inside a frame of that site."""
        public_key = options["publicKey"]
        self.counter += 1
        client_data = _client_data("webauthn.get", public_key["challenge"], origin, top_origin)
        auth_data = self.auth_data(rp_id or public_key["rpId"], UP | UV)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = (signer or self.key).sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(self.user_handle),
            },
        }


def _client_data(kind: str, challenge: str, origin: str, top_origin: str | None) -> bytes:
    data: dict[str, object] = {"type": kind, "challenge": challenge, "origin": origin}
    data["crossOrigin"] = top_origin is not None
    if top_origin is not None:
        data["topOrigin"] = top_origin
    return json.dumps(data).encode()
