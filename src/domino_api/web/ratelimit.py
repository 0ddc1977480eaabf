"""Request budgets (joins, player and match creation, chat, profile changes, failed seat claims)
on `limits`.

Storage is process memory by default (`memory://`): then each API process keeps its own
budgets. With `DOMINO_RATE_LIMIT_STORAGE=redis://host:6379/0` every process shares one budget
per key, and falls back to its own memory while Redis is unreachable (web/ratelimit_storage.py).
The sliding-window counter keeps two counters per key and the storage drops them when their
window has passed, so memory is bounded by the keys seen in two windows, not by history.

Keys are the client address (an IPv6 address counts by its /64: one subscriber gets a whole
/64 and rotates freely inside it) and, where the caller has one, the player behind the token.
A signed-in caller spends its player's budget and its address's household budget,
`DOMINO_HOUSEHOLD_PLAYERS` players' worth, so players behind one router do not spend each
other's (issue 43); an anonymous request (a new player) spends one player's worth of its
address's.
Every budget kept per address is kept per network as well (`network_key`: an IPv4 /24, an IPv6
/64), `DOMINO_NETWORK_SHARE` times larger, so one host with a whole /24 of addresses gets a few
addresses' worth, not 256 (issue 41). The address is uvicorn's: forwarded headers count only
from `DOMINO_TRUSTED_PROXIES` (`serving.serve`).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from limits import RateLimitItem, RateLimitItemPerSecond

from domino_api.config import Settings
from domino_api.errors import RateLimited
from domino_api.web.ratelimit_storage import Failover, Limiter, WindowMemory

T = TypeVar("T")


def address_key(host: str | None) -> str:
    """The budget key of a client address: IPv4 as is, IPv6 by its /64 network."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def network_key(address: str) -> str:
    """The network an address budget key belongs to: an IPv4 address's /24; an IPv6 key is its
    /64 already (`address_key`); anything else stands for itself."""
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        return f"net:{address}"
    return f"net:{ipaddress.IPv4Network(f'{address}/24', strict=False)}"


# The budgets kept per address, each kept per network too under this name; and the address's
# budget when a player is behind the request (a household's).
PER_NETWORK = {"join": "network_join", "create_player": "network_create_player"}
PER_NETWORK |= {"create_match": "network_create_match", "sign_in": "network_sign_in"}
PER_NETWORK |= {"create_tournament": "network_create_tournament"}
HOUSEHOLD = {"join": "household_join", "create_match": "household_create_match"}
HOUSEHOLD |= {"create_tournament": "household_create_tournament"}
HOUR = 3600.0


def storage_uri(configured: str) -> str:
    """The async form of a storage URI (`redis://` -> `async+redis://`)."""
    if configured.startswith("async+"):
        return configured
    scheme, sep, _ = configured.partition("://")
    if not sep:
        raise ValueError(f"not a storage URI: {configured!r}")
    return f"async+{configured}" if scheme in ("memory", "redis", "rediss") else configured


@dataclass(frozen=True)
class Budget:
    name: str
    item: RateLimitItem
    what: str  # for the refusal's detail: "joins by game number", ...


def _budget(name: str, amount: int, window_s: float, what: str) -> Budget:
    window = max(1, math.ceil(window_s))
    return Budget(name, RateLimitItemPerSecond(max(1, amount), window), what)


class Limits:
    """Every budget of one API process, on one storage (shared across processes on Redis)."""

    def __init__(self, settings: Settings) -> None:
        window, hour = settings.rate_window_s, settings.guess_window_s
        share, home = settings.network_share, settings.household_players
        self.budgets = {
            budget.name: budget
            for budget in (
                _budget(
                    "network_join",
                    share * home * settings.join_rate_limit,
                    window,
                    "joins by game number from one network",
                ),
                _budget(
                    "household_join",
                    home * settings.join_rate_limit,
                    window,
                    "joins by game number from one address",
                ),
                _budget(
                    "household_create_match",
                    home * settings.create_match_rate_limit,
                    window,
                    "new matches from one address",
                ),
                _budget(
                    "network_create_player",
                    share * settings.create_player_rate_limit,
                    window,
                    "new players from one network",
                ),
                _budget(
                    "network_create_match",
                    share * home * settings.create_match_rate_limit,
                    window,
                    "new matches from one network",
                ),
                _budget(
                    "network_sign_in",
                    share * settings.sign_in_rate_limit,
                    window,
                    "sign-in attempts from one network",
                ),
                _budget(
                    "create_tournament",
                    settings.tournament_rate_limit,
                    HOUR,
                    "new tournaments",
                ),
                _budget(
                    "household_create_tournament",
                    home * settings.tournament_rate_limit,
                    HOUR,
                    "new tournaments from one address",
                ),
                _budget(
                    "network_create_tournament",
                    share * home * settings.tournament_rate_limit,
                    HOUR,
                    "new tournaments from one network",
                ),
                _budget("report", settings.report_rate_limit, window, "reported messages"),
                _budget("friend", settings.friend_rate_limit, window, "friend requests"),
                _budget(
                    "network_claim_failures",
                    settings.claim_failures_per_network,
                    settings.network_guess_window_s,
                    "failed joins and seat claims from one network",
                ),
                # One wrong guess at a number marks its caller (token, address) for the window:
                # once the number's budget is spent, a marked caller guesses there no more.
                _budget("number_guessed", 1, hour, "wrong guesses at one number by one caller"),
                _budget("join", settings.join_rate_limit, window, "joins by game number"),
                _budget("create_player", settings.create_player_rate_limit, window, "new players"),
                _budget("create_match", settings.create_match_rate_limit, window, "new matches"),
                _budget("chat", settings.chat_rate_limit, window, "messages at one seat"),
                _budget("sign_in", settings.sign_in_rate_limit, window, "sign-in attempts"),
                _budget(
                    "account", settings.account_rate_limit, window, "passkeys, link codes and keys"
                ),
                _budget(
                    "profile", settings.profile_rate_limit, window, "changes of name or tile back"
                ),
                _budget(
                    "claim_failures",
                    settings.claim_failures_per_code,
                    hour,
                    "wrong guesses at one game number",
                ),
                _budget(
                    "caller_claim_failures",
                    settings.claim_failures_per_caller,
                    window,
                    "failed joins and seat claims by one caller",
                ),
            )
        }
        self._uri = storage_uri(settings.rate_limit_storage)
        self._prefix = settings.rate_limit_prefix
        self._settings = settings
        self._memory: Limiter | None = None
        self._failover: Failover | None = None

    async def _call(self, operation: Callable[[Limiter], Awaitable[T]]) -> T:
        # Made on first use, on the running loop (the shared storage's connections live there).
        if self._uri.startswith("async+memory"):
            self._memory = self._memory or Limiter(WindowMemory())
            return await operation(self._memory)
        if self._failover is None:
            timeout, retry = self._settings.rate_limit_timeout_s, self._settings.rate_limit_retry_s
            self._failover = Failover(self._uri, self._prefix, timeout, retry)
        return await self._failover.call(operation)

    def status(self) -> str:
        """Where budgets are counted: "memory" (per process, as configured), "shared", or
        "fallback" (per process while the shared storage is unreachable)."""
        if self._uri.startswith("async+memory"):
            return "memory"
        return "shared" if self._failover is None else self._failover.status()

    async def hit(self, name: str, *keys: str) -> None:
        """Spend one unit of `name` for each key; RateLimited (429) when any is spent out.

        Every key is charged even when an earlier one refuses, so that a refused caller keeps
        paying under all of its keys (address and token alike)."""
        budget = self.budgets[name]
        refused: str | None = None
        for key in keys:

            async def spend(limiter: Limiter, key: str = key) -> bool:
                return await limiter.hit(budget.item, self._prefix, name, key)

            allowed = await self._call(spend)
            if not allowed and refused is None:
                refused = key
        if refused is not None:
            await self._refuse(budget, refused)

    async def hit_from(self, name: str, address: str, *keys: str) -> None:
        """`hit` for a budget kept per address: the other `keys` (a player), the address (a
        household's budget when a player is behind the request), and the address's network
        under the network's budget."""
        refused: Exception | None = None
        network = (PER_NETWORK[name], (network_key(address),))
        spends = [(HOUSEHOLD[name], (address,)), (name, keys)] if keys else [(name, (address,))]
        for budget, spent in (*spends, network):
            try:
                await self.hit(budget, *spent)
            except RateLimited as exc:
                refused = refused or exc
        if refused is not None:
            raise refused

    async def exhausted(self, name: str, key: str) -> bool:
        """Whether `name` has nothing left for `key` (without spending any)."""
        budget = self.budgets[name]
        return not await self._call(
            lambda limiter: limiter.test(budget.item, self._prefix, name, key)
        )

    async def refuse(self, name: str, key: str) -> None:
        await self._refuse(self.budgets[name], key)

    async def _refuse(self, budget: Budget, key: str) -> None:
        stats = await self._call(
            lambda limiter: limiter.get_window_stats(budget.item, self._prefix, budget.name, key)
        )
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        amount, window = budget.item.amount, budget.item.get_expiry()
        raise RateLimited(
            f"At most {amount} {budget.what} per {window} s; try again later.",
            retry_after=retry,
        )


class SocketCount:
    """Open sockets per player in this process: one token cannot hold hundreds of sockets
    (each costs a task pair, a queue and a presence lease). Per process, not shared: a socket
    lives on one process, and a crashed process's counts die with it."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def open(self, key: str, most: int) -> bool:
        current = self._open.get(key, 0)
        if current >= most:
            return False
        self._open[key] = current + 1
        return True

    def close(self, key: str) -> None:
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)
