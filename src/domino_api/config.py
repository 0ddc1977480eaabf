"""Settings from the environment (prefix DOMINO_), in one typed object.

Each field's description is its row in docs/OPERATING.md's settings table, which
`domino-api openapi` writes from this class (documents/contract_docs.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import SettingsConfigDict

from domino_api.limit_settings import LimitSettings


class Settings(LimitSettings):
    model_config = SettingsConfigDict(env_prefix="DOMINO_", extra="ignore")

    database_url: str | None = Field(
        None,
        description="PostgreSQL to use (`postgresql://user:pass@host:5432/db`). Unset: start the"
        " embedded server in `DOMINO_EMBEDDED_PGDATA` (the `make run` default; development only)",
    )
    embedded_pgdata: Path = Field(
        Path(".domino/pgdata"), description="data folder of the embedded server"
    )
    embedded_database: str = Field("domino", description="database name on the embedded server")
    db_pool_size: int = Field(
        6,
        description="the process's one pool of database connections, for every use (the write"
        " core, the ORM's reads and transactions, announcements); with the `postgres` backend"
        " each process holds one LISTEN connection more. Size PostgreSQL's `max_connections` (or"
        " PgBouncer's) for `replicas x (pool + overflow + listen) + workers x (pool + overflow)`"
        ' (docs/ARCHITECTURE.md, "Connections")',
    )
    db_max_overflow: int = Field(
        0,
        description="extra connections a process may open under load (opened per request, each"
        " a backend fork, so keep the pool large enough)",
    )
    db_connect_timeout_s: float = Field(
        2.0,
        description="how long a new connection may take, each host of a multi-host URL on its"
        " own (store/connect.py): a frozen server's host fails instead of holding the request",
    )
    db_command_timeout_s: float = Field(
        5.0,
        description="how long one statement may take; then its connection is dropped and the"
        " request answers 503 `service_busy` (a frozen or partitioned primary never answers)",
    )
    db_pool_timeout_s: float = Field(
        5.0,
        description="how long a request waits for a connection of the pool; then 503"
        " `service_busy` with `Retry-After` (as when PostgreSQL refuses connections)",
    )
    # store/db.py turns prepared statements off for it.
    db_transaction_pooler: bool = Field(
        False,
        description="`DOMINO_DATABASE_URL` is PgBouncer in transaction mode (`pool_mode ="
        " transaction`): no prepared statement outlives its statement",
    )
    # A LISTEN needs a session of its own, which a transaction pooler does not give.
    listen_database_url: str | None = Field(
        None,
        description="the `postgres` backend's LISTEN connection; unset: `DOMINO_DATABASE_URL`."
        " Required beside a transaction pooler (a direct connection to PostgreSQL, or a"
        " session-mode pool)",
    )
    auth_cache_s: float = Field(
        5.0,
        description="how long a process trusts a token lookup (profile changes from other"
        " processes show after it; a sign-out or a revoked key is dropped at once everywhere)",
    )

    # Accounts (docs/API.md, "Accounts"): passkeys (WebAuthn) and link codes.
    webauthn_rp_id: str = Field(
        "localhost",
        description="the passkeys' relying-party id: the site's domain (never an IP address;"
        " passkeys are bound to it)",
    )
    webauthn_rp_name: str = Field("domino-api", description="the site's name a passkey shows")
    webauthn_origins: str = Field(
        "",
        description="comma-separated origins whose pages may use passkeys (`https://` but for"
        " localhost), each on `DOMINO_WEBAUTHN_RP_ID` or a subdomain of it; empty (local use):"
        " `http://localhost:PORT` and `http://127.0.0.1:PORT` of the port served",
    )
    webauthn_timeout_s: float = Field(
        300.0, description="how long a passkey ceremony's challenge stays good (used once)"
    )
    link_code_ttl_s: float = Field(
        300.0, description="how long a device's one-time link code stays good (used once)"
    )
    sign_in_rate_limit: int = Field(
        20,
        description="sign-in attempts (passkey ceremonies, link codes entered) per client address"
        " per window",
    )
    account_rate_limit: int = Field(
        20,
        description="passkey registrations, link codes and API keys one player starts per window",
    )

    friend_rate_limit: int = Field(
        30,
        description="friend requests one player sends per window (docs/API.md, Friends and"
        " challenges)",
    )
    report_rate_limit: int = Field(
        10, description="messages one player reports to the operators per window"
    )
    tournament_rate_limit: int = Field(
        3,
        description="tournaments one player creates per hour (a household's worth per client"
        " address, a network's share per network)",
    )

    # Presence (docs/ARCHITECTURE.md, "Presence").
    presence_lease_s: float = Field(
        30.0, description="a seat is connected while one of its sockets was seen this recently"
    )
    presence_refresh_s: float = Field(
        10.0,
        description="how often each process renews its sockets' leases and records that it"
        " did; a process silent 3 times this long while others could see is counted gone",
    )
    keepalive_s: float = Field(20.0, description="the server's WebSocket keepalive")
    seek_lease_s: float = Field(
        10.0,
        gt=0,
        le=300,
        description="a lobby seek lapses this long after its last poll or lobby-socket renewal",
    )
    challenge_ttl_s: float = Field(
        600.0,
        gt=0,
        le=86_400,
        description="a challenge or invitation link not answered this long after it was made"
        " expires (docs/API.md, Friends and challenges)",
    )
    ws_auth_timeout_s: float = Field(
        5.0, description="a browser socket must send its auth message within this"
    )
    ws_frame_timeout_s: float = Field(
        10.0,
        description="a WebSocket frame begun must arrive whole within this (web/transport.py); a"
        " socket that sends nothing between frames is not timed",
    )
    ws_send_queue: int = Field(
        1000, description="messages queued per socket before a slow client is dropped"
    )
    ws_deflate: bool = Field(
        False,
        description="offer permessage-deflate on sockets: each socket then compresses its own"
        " copy of every frame (bench/README.md, Lobby fan-out)",
    )
    ws_send_buffer_bytes: int = Field(
        1 << 20,
        gt=0,
        description="bytes written to a socket and not yet taken by its client before a slow"
        " client is dropped",
    )

    # matches/pacing.py holds the floor.
    computer_think_s: float = Field(
        0.075,
        description="an answer that ran computers takes at least this long per computer"
        " decision (1.5 times the slowest of the last 64 decisions when that is longer), so its"
        " timing does not tell how many options they had (`0`: off, for simulations and"
        " functional tests)",
    )
    # bots/computers.py runs them.
    computer_workers: int = Field(
        0,
        ge=0,
        le=64,
        description="worker processes that decide computers' moves beside each API process"
        " (`0`: one per core)",
    )
    max_body_bytes: int = Field(
        64 * 1024,
        description="largest request body read; above it a 413 `payload_too_large` problem",
    )
    # Slow clients: web/transport.py.
    request_head_timeout_s: float = Field(
        10.0,
        description="a request's head (request line and headers, a WebSocket upgrade too) must"
        " be complete this long after the connection opened, or after the first byte of the next"
        " request on a kept-alive connection; else the connection is closed",
    )
    request_body_timeout_s: float = Field(
        20.0,
        description="a request's body must be complete this long after its head; else the"
        " connection is closed",
    )
    connections_per_address: int = Field(
        64,
        description="open connections (HTTP and WebSocket) one client address (IPv6: its /64)"
        " may hold per process; the next is answered 429 and closed. Trusted proxies are not"
        " capped (`0`: no cap)",
    )
    trusted_proxies: str = Field(
        "",
        description="comma-separated addresses or networks of your reverse proxies; only their"
        " `X-Forwarded-For`/`X-Forwarded-Proto` are believed (empty: none, the peer is the"
        " client)",
    )

    check_in_s: float = Field(300.0, description="tournament check-in window")
    worker_interval_s: float = Field(
        5.0,
        description="`domino-api worker`'s pause between passes (when `--interval` is not given)",
    )
    sweep_in_process: bool = Field(
        True,
        description="each API process runs the sweep loop (every 0.5 s), so clocks fire with"
        " nothing else running; `false` for deployments that run `domino-api worker` instead",
    )

    role: Literal["api", "sockets"] = Field(
        "api",
        description="what the process serves: `api` (every route) or `sockets` (the watch and"
        " lobby sockets, /healthz, /readyz and /metrics only; fed by the announcements, no"
        ' sweep, no computers: docs/OPERATING.md, "Socket processes")',
    )

    # Announcements after each commit: realtime/announce.py.
    announce_backend: Literal["postgres", "nats"] = Field(
        "postgres",
        description="how processes tell each other a match moved: `postgres` (LISTEN/NOTIFY,"
        " every process hears every match) or `nats` (a subject per match, for many API"
        " processes)",
    )
    nats_url: str = Field(
        "nats://127.0.0.1:4222",
        description="the NATS server, or a cluster's nodes comma-separated, tried in that order"
        " (with `DOMINO_ANNOUNCE_BACKEND=nats`)",
    )
    catch_up_s: float = Field(
        5.0,
        description="how often a process checks its sockets' matches against the table and reads"
        " the ones behind: an announcement lost to a crash between a commit and its"
        " announcement arrives at the latest this much later",
    )
    fault_kill_before_announce: str = Field(
        "",
        description="tests only: while the file this names exists, the process SIGKILLs itself"
        " after a step's commit and before its announcement (realtime/announce.py)",
    )

    # Web Push (push/, docs/OPERATING.md "Web Push").
    vapid_private_key: str = Field(
        "",
        description="the VAPID private key that signs Web Push requests (PEM, or base64url DER);"
        " empty: the first process to start makes a P-256 key pair and stores it in the"
        " database (`push_keys`), and every process signs with that one",
    )
    vapid_subject: str = Field(
        "mailto:push@domino-api.invalid",
        description="the VAPID `sub` claim: a `mailto:` or `https:` address push services may"
        " reach the operator at (set it: some services refuse an unreachable one)",
    )
    push_allow_local: bool = Field(
        False,
        description="tests and development only: accept push endpoints over plain `http` and on"
        " loopback or private addresses (otherwise `https` on a public host only)",
    )

    log_json: bool = Field(True, description="one JSON object per log line (`false`: plain text)")
    log_level: str = Field(
        "INFO", description="`INFO` includes one access line per request; `WARNING` drops them"
    )

    @property
    def webauthn_origin_list(self) -> list[str]:
        """`webauthn_origins` as a list (blanks and empty items dropped)."""
        return [origin.strip() for origin in self.webauthn_origins.split(",") if origin.strip()]

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


def get_settings() -> Settings:
    """The environment's settings, read now: entry points (the CLI, the ASGI module) call this
    once and hand the parts what they need (tests/ops/test_no_globals.py)."""
    return Settings()


def pass_on_database_url(url: str) -> None:
    """Child processes (uvicorn's workers, a reload) read their settings from the environment:
    the URL this process resolved (the embedded server it started) is written there for them."""
    os.environ["DOMINO_DATABASE_URL"] = url


def pass_on_role(role: str) -> None:
    """`serve --role`: the role reaches the settings (and the workers') as DOMINO_ROLE would."""
    if role not in ("api", "sockets"):
        raise ValueError(f"role: `api` or `sockets`, not {role!r}")
    os.environ["DOMINO_ROLE"] = role
