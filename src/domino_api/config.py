"""Settings from the environment (prefix DOMINO_), in one typed object."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOMINO_", extra="ignore")

    # Unset means: start the embedded PostgreSQL in `embedded_pgdata` (the `make run` default).
    database_url: str | None = None
    embedded_pgdata: Path = Path(".domino/pgdata")
    embedded_database: str = "domino"
    # The process's one pool of database connections, for every use: the write core, the ORM's
    # reads and transactions, the announcements (docs/ARCHITECTURE.md, "Connections"). Steady:
    # a connection opened per request (overflow) costs a backend fork each.
    db_pool_size: int = 6
    db_max_overflow: int = 0
    # A caller waits this long at most for a connection (then 503 service_busy).
    db_pool_timeout_s: float = 30.0
    # DOMINO_DATABASE_URL goes through a transaction pooler (PgBouncer, pool_mode =
    # transaction): no prepared statement outlives its statement (store/db.py).
    db_transaction_pooler: bool = False
    # The LISTEN connection of the `postgres` announcement backend; unset: DOMINO_DATABASE_URL.
    # A LISTEN needs a session of its own, so behind a transaction pooler this names
    # PostgreSQL itself (or a session-mode pool).
    listen_database_url: str | None = None
    # Token -> player lookups are cached this long per process (profile edits show up after it).
    auth_cache_s: float = 5.0

    # Presence: a seat is connected while any socket was seen within this span
    # (docs/ARCHITECTURE.md, "Presence").
    presence_lease_s: float = 30.0
    presence_refresh_s: float = 10.0
    keepalive_s: float = 20.0
    ws_auth_timeout_s: float = 5.0
    ws_send_queue: int = 1000

    # Rate limits (ratelimit.py), each per window: joins per client address and per player,
    # player creations per address, match creations per player and per address, chat per seat,
    # failed seat claims per game number (all callers together).
    join_rate_limit: int = 20
    create_player_rate_limit: int = 30
    create_match_rate_limit: int = 10
    chat_rate_limit: int = 30
    claim_failures_per_code: int = 10
    rate_window_s: float = 60.0
    # Where budgets live: "memory://" (per process) or "redis://host:6379/0" (shared).
    rate_limit_storage: str = "memory://"
    rate_limit_prefix: str = "domino"
    # Each call to the shared storage gives up after this long; while it is unreachable, budgets
    # are per process and it is tried again every `rate_limit_retry_s` (ratelimit_storage.py).
    rate_limit_timeout_s: float = 0.5
    rate_limit_retry_s: float = 5.0
    # Waiting tables one player may host at once; open sockets per token (per process).
    open_tables_per_player: int = 3
    sockets_per_token: int = 8
    # A computer's decision takes at least this long (matches/pacing.py), so the answer time
    # does not tell how many options it had; 0: no floor (simulations, functional tests).
    computer_think_s: float = 0.075
    # Worker processes that decide computers' moves beside this API process (matches/
    # computers.py); 0: one per core.
    computer_workers: int = Field(default=0, ge=0, le=64)
    # The largest request body read (413 above it).
    max_body_bytes: int = 64 * 1024
    # Slow clients (transport.py): a request's head must arrive within `request_head_timeout_s`
    # of the connection (or of its first byte on a kept-alive one), its body within
    # `request_body_timeout_s` of the head; one client address holds at most
    # `connections_per_address` connections (HTTP and WebSocket) per process.
    request_head_timeout_s: float = 10.0
    request_body_timeout_s: float = 20.0
    connections_per_address: int = 64
    # Addresses or networks (comma-separated) of reverse proxies whose X-Forwarded-For and
    # X-Forwarded-Proto are believed; empty: none, the peer's address is the client.
    trusted_proxies: str = ""

    check_in_s: float = 300.0
    worker_interval_s: float = 5.0
    # Each API process runs the sweep loop (clocks fire with nothing else running); operators
    # who run `domino-api worker` instead turn it off.
    sweep_in_process: bool = True

    # Announcements after each commit (realtime/announce.py): "postgres" (LISTEN/NOTIFY) or
    # "nats" (subjects per match, for many API processes) at `nats_url`: one server or the
    # nodes of a cluster, comma-separated, tried in that order (`nats_servers`).
    announce_backend: Literal["postgres", "nats"] = "postgres"
    nats_url: str = "nats://127.0.0.1:4222"
    # The catch-up: every this many seconds each process compares its watched matches' seq in
    # the table with what its sockets have, and reads the ones behind (an announcement lost to a
    # crash between a commit and its announcement arrives at the latest this much later).
    catch_up_s: float = 5.0

    log_json: bool = True
    log_level: str = "INFO"

    @property
    def nats_servers(self) -> list[str]:
        """`nats_url` as a list of server URLs (blanks and empty items dropped)."""
        return [url.strip() for url in self.nats_url.split(",") if url.strip()]

    @model_validator(mode="after")
    def _listen_beside_a_pooler(self) -> Settings:
        # A LISTEN through transaction pooling registers on a server connection that is then
        # lent to others: announcements would be lost without a word.
        if (
            self.announce_backend == "postgres"
            and self.db_transaction_pooler
            and not self.listen_database_url
        ):
            raise ValueError(
                "DOMINO_ANNOUNCE_BACKEND=postgres behind a transaction pooler needs "
                "DOMINO_LISTEN_DATABASE_URL (a direct connection to PostgreSQL for LISTEN)"
            )
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
