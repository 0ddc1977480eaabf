"""Revoked credentials reach open sockets (issue 48): a sign-out or a revoked API key closes
every socket opened with that token, on every process, with `CLOSE_REVOKED`.

The revoking request, once its deletion has committed, revokes the token in its own process at
once (its auth cache and its sockets) and announces it (realtime/announce.py `announce_revoked`:
NOTIFY on `domino_revoked`, or the NATS subject `domino.revoked`, payload `<token hash>:0`);
every process's listener revokes it in turn (realtime/listener.py). An announcement lost (the
broker away, a full queue) is repaired by the catch-up: each pass asks the database which of
the tokens its sockets hold still exist (realtime/lifecycle.py).

A socket holds an event per credential here (`Credentials.hold`); revoking sets it, and the
socket, waiting on it beside its reader and writer, stops reading and closes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Protocol

# 4000 + 401: the credential no longer opens anything; reconnecting with it gets 4401 too.
CLOSE_REVOKED = 4401
REVOKED_REASON = "revoked"


class Credentials:
    """This process's open sockets, by the hash of the token each was opened with."""

    def __init__(self) -> None:
        self._held: dict[str, set[asyncio.Event]] = {}

    def hold(self, token_hash: str, revoked: asyncio.Event | None = None) -> asyncio.Event:
        """A socket opened with `token_hash`: the event (`revoked`, or a new one) is set when
        that token is revoked."""
        revoked = revoked or asyncio.Event()
        self._held.setdefault(token_hash, set()).add(revoked)
        return revoked

    def release(self, token_hash: str, revoked: asyncio.Event) -> None:
        held = self._held.get(token_hash)
        if held is not None:
            held.discard(revoked)
            if not held:
                del self._held[token_hash]

    def held(self) -> list[str]:
        """The tokens this process's sockets were opened with."""
        return list(self._held)

    def revoke(self, token_hashes: Iterable[str]) -> int:
        """Close every socket opened with one of `token_hashes`; returns how many."""
        closed = 0
        for token_hash in token_hashes:
            for revoked in self._held.pop(token_hash, set()):
                revoked.set()
                closed += 1
        return closed


class Forgets(Protocol):
    """The process's auth cache (web/deps.py `AuthCache`)."""

    def forget_tokens(self, token_hashes: Iterable[str]) -> None: ...


def revoke_here(cache: Forgets, credentials: Credentials, token_hashes: list[str]) -> int:
    """In this process: the tokens are no longer trusted from the cache (nor stored in it by a
    lookup in flight), and their sockets close. Returns how many sockets were told."""
    cache.forget_tokens(token_hashes)
    return credentials.revoke(token_hashes)
