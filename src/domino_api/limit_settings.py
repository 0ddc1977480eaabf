"""The budgets against abuse (rate limits, wrong guesses, hosting caps, sockets per token): a
part of config.py's `Settings`, which inherits it, in a module of its own so that neither
grows past a screenful. Each field's description is its row in docs/OPERATING.md's settings
table, as every setting's is.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class LimitSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOMINO_", extra="ignore")

    # Rate limits (web/ratelimit.py), each per window of `rate_window_s`.
    join_rate_limit: int = Field(
        20, description="joins by game number per client address, and per player, per window"
    )
    create_player_rate_limit: int = Field(
        30, description="player creations per client address per window"
    )
    create_match_rate_limit: int = Field(
        10, description="match creations per player, and per client address, per window"
    )
    profile_rate_limit: int = Field(
        20,
        description="changes of name or tile back per player per window (each is shown at the"
        " player's live tables)",
    )
    chat_rate_limit: int = Field(
        30,
        description="table-talk messages per seat (player and match) per window, REST and socket"
        " together",
    )
    claim_failures_per_code: int = Field(
        10,
        description="wrong guesses at one game number per `guess_window_s`, all callers not"
        " seated at that table together; past it, each caller that guessed wrong there is"
        " refused, while a rejoin under a seat's own name still succeeds",
    )
    claim_failures_per_caller: int = Field(
        10,
        description="refused joins and seat claims per caller (its token, and its client"
        " address) per window, whichever numbers it tries",
    )
    claim_failures_per_network: int = Field(
        30,
        description="refused joins and seat claims per network (an IPv4 /24, an IPv6 /64) per"
        " `network_guess_window_s`, whichever numbers and names its addresses try",
    )
    network_guess_window_s: float = Field(
        300.0,
        description="the window of a network's budget of failed joins"
        " (`DOMINO_CLAIM_FAILURES_PER_NETWORK`): shorter than `guess_window_s`, so a player"
        " whose network a guesser shares waits minutes, not an hour",
    )
    household_players: int = Field(
        6,
        description="a client address gets this many players' worth of the joins and new"
        " matches of signed-in players (a household or an office behind one router), each"
        " player keeping its own budget; an anonymous request (a new player) gets one player's",
    )
    network_share: int = Field(
        4,
        description="a network (IPv4 /24, IPv6 /64) gets this many addresses' worth of each"
        " per-address budget (joins, new players, new matches, new tournaments, sign-in"
        " attempts)",
    )
    guess_window_s: float = Field(
        3600.0,
        description="the window of the budgets against guessing: wrong guesses per game number"
        " and failed joins per network",
    )
    rate_window_s: float = Field(60.0, description="the rate-limit window (a sliding window)")
    rate_limit_storage: str = Field(
        "memory://",
        description="where budgets live: `memory://` (each process its own) or"
        " `redis://host:6379/0` (every process shares one budget per key)",
    )
    rate_limit_prefix: str = Field("domino", description="prefix of the budget keys in Redis")
    # The shared storage's outage handling: web/ratelimit_storage.py.
    rate_limit_timeout_s: float = Field(
        0.5,
        description="a call to Redis gives up after this (the whole call after twice this);"
        " then budgets are per process until Redis answers again",
    )
    rate_limit_retry_s: float = Field(
        5.0, description="while Redis is unreachable, how often a process tries it again"
    )
    open_tables_per_player: int = Field(3, description="waiting tables one player may host at once")
    numbered_tables_per_player: int = Field(
        5,
        description="live tables with a game number one player may host at once, rematches"
        ' included (docs/ARCHITECTURE.md, "Game numbers")',
    )
    numbered_tables_per_address: int = Field(
        8,
        description="live tables with a game number created from one client address, rematches"
        " included",
    )
    numbered_tables_per_network: int = Field(
        24,
        description="live tables with a game number created from one network (an IPv4 /24, an"
        " IPv6 /64), rematches included",
    )
    sockets_per_token: int = Field(
        8,
        description="open WebSockets per player, per process (the next one closes with 4429"
        " `rate_limited`)",
    )
