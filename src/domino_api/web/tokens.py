"""Bearer tokens: random, shown once, stored only as a SHA-256 hash, sent as `Bearer <token>`."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    # A fast hash is right here: tokens are 256-bit random, so there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


def parse_bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        return None
    return token.strip()
