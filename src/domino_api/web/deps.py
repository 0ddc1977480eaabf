"""What routes take from the request: the caller, the unit of work, the process's objects."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.openapi.models import HTTPBearer as BearerScheme
from fastapi.security.base import SecurityBase
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.errors import Unauthenticated, ValidationFailed
from domino_api.store import players_repo
from domino_api.store.db import Pool, transaction
from domino_api.store.models import Player
from domino_api.web.ratelimit import Limits, address_key
from domino_api.web.tokens import hash_token, parse_bearer


class PlayerBearer(SecurityBase):
    """The bearer scheme that resolves the caller: one dependency, so that OpenAPI declares the
    scheme on every route that needs a player (Swagger UI's Authorize button), and a request
    pays for one resolution instead of a scheme under a dependency (this runs on nearly every
    request). A missing or unknown token is our 401 problem, not the scheme's own error. It is a
    `SecurityBase` (what FastAPI publishes as a scheme), not an `HTTPBearer`, whose call answers
    credentials rather than a player."""

    def __init__(self, scheme_name: str, description: str) -> None:
        self.model = BearerScheme(description=description)
        self.scheme_name = scheme_name

    async def __call__(self, request: Request) -> Player:
        if len(request.headers.getlist("authorization")) > 1:
            # Which one would count is a guess a proxy and this server may make differently.
            raise Unauthenticated("Send one Authorization header.")
        token = parse_bearer(request.headers.get("authorization"))
        if token is None:
            raise Unauthenticated("Send 'Authorization: Bearer <token>' (from POST /v1/players).")
        state = request.app.state
        player = await player_of_token(
            state.auth_cache, state.core.pool, hash_token(token), clock_of(request)
        )
        if player is None:
            raise Unauthenticated("The token is not valid (unknown, revoked or signed out).")
        return player


async def player_of_token(
    cache: AuthCache, pool: Pool, token_hash: str, clock: Clock
) -> Player | None:
    """The token's player, from the process's cache or looked up (and cached); None: no such
    token. Requests and sockets alike: a revoked token is dropped from the cache at once, and a
    socket holds its credential before it asks (web/revocation.py), so either way it closes."""
    player = cache.get(token_hash)
    if player is None:
        generation = cache.generation  # a revocation during the lookup voids its entry
        async with pool.acquire() as connection:
            player = await players_repo.by_token_hash(connection, token_hash, clock.now())
        if player is not None:
            cache.put(token_hash, player, generation)
    return player


# Named as FastAPI names a plain HTTPBearer, so the published scheme keeps its name.
PLAYER_BEARER = PlayerBearer(
    scheme_name="HTTPBearer", description="The token from POST /v1/players"
)


class AuthCache:
    """Token hash -> player for a few seconds: most requests then skip a database round trip.

    Entries are detached rows; a profile change in this process drops them at once, and other
    processes see it within `ttl_s`. A revoked token is dropped at once in every process
    (web/revocation.py), and a lookup that was in flight meanwhile cannot put it back:
    each revocation moves `generation`, and an entry read under an older one is not stored.
    """

    def __init__(self, ttl_s: float, max_entries: int = 50_000) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, Player]] = {}
        self.generation = 0  # moved by every revocation and forgetting

    def get(self, token_hash: str) -> Player | None:
        entry = self._entries.get(token_hash)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1]

    def put(self, token_hash: str, player: Player, generation: int) -> None:
        """Keep what a lookup begun at `generation` read, unless a revocation came since."""
        if self.ttl_s <= 0 or generation != self.generation:
            return
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[token_hash] = (time.monotonic() + self.ttl_s, player)

    def forget_player(self, player_id: str) -> None:
        self.generation += 1
        for key in [k for k, (_, p) in self._entries.items() if p.id == player_id]:
            del self._entries[key]

    def forget_tokens(self, token_hashes: Iterable[str]) -> None:
        self.generation += 1
        for token_hash in token_hashes:
            self._entries.pop(token_hash, None)


async def unit_of_work(request: Request) -> AsyncIterator[AsyncSession]:
    """The request's one unit of work (docs/ARCHITECTURE.md): the route and its service stage
    their writes on this session; it commits once the route has returned and rolls back if it
    raised (the error is then answered as its problem document), and what the transaction
    asked to run after its commit (announcements) runs then, all before the answer is sent.
    Its connection is taken at its first statement, not before."""
    maker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    async with transaction(maker) as session:
        yield session


# scope="function": the commit comes before the answer is sent, never after it.
UnitOfWork = Annotated[AsyncSession, Depends(unit_of_work, scope="function")]
CurrentPlayer = Annotated[Player, Depends(PLAYER_BEARER)]


# The process's objects are read off the app (`clock_of`, ...; the write core by the matches'
# `service.core_of`, as this module is below matches), not declared as
# dependencies: each is the same object for every request, and each dependency FastAPI resolves
# costs a request about 2% of the API process's CPU (measured in the history of
# bench/README.md: `git log -p`). Dependencies are what OpenAPI declares (the caller) or what
# wraps the route (its unit of work).


def clock_of(request: Request) -> Clock:
    clock: Clock = request.app.state.clock
    return clock


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def client_address(request: Request) -> str:
    """The budget key of the caller's address (IPv6 by /64); uvicorn sets `client` from
    forwarded headers only when they come from DOMINO_TRUSTED_PROXIES."""
    return address_key(request.client.host if request.client else None)


def limits_of(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


async def idempotency_key(
    request: Request,
    key: Annotated[
        str | None, Header(alias="Idempotency-Key", min_length=1, max_length=200)
    ] = None,
) -> str | None:
    """A move's `Idempotency-Key`: one header, 1-200 characters (two would leave which one
    counts to a guess)."""
    if key is not None and len(request.headers.getlist("idempotency-key")) > 1:
        raise ValidationFailed("Idempotency-Key: send one.")
    return key


IdempotencyKey = Annotated[str | None, Depends(idempotency_key)]


async def refuse_stray_body(request: Request) -> None:
    """A route that declares no body takes none (nothing, or `{}`): `PUT .../lock` with `{bad`
    locked the table, as if the body had been read and found good. Every route of the API's
    routers depends on it; a route with a body returns at once (its body is its model's)."""
    route = request.scope.get("route")
    if request.method == "GET" or _takes_body(route):
        return
    if b"".join((await request.body()).split()) not in (b"", b"{}"):
        raise ValidationFailed("body: this route takes no body (send none, or {}).")


def _takes_body(route: object) -> bool:
    # Every body is a Struct read by web/struct_bodies.py and named in the route's
    # `openapi_extra` (FastAPI reads none: no route has a `body_field`).
    extra = getattr(route, "openapi_extra", None) or {}
    return "requestBody" in extra


NO_STRAY_BODY = [Depends(refuse_stray_body)]
