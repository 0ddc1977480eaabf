"""Prometheus metrics: what each process counts, the scrape-time match census, `GET /metrics`.

Every metric lives in the process's default registry. Each API process (and a worker started
with a metrics port) exposes its own numbers; Prometheus scrapes every replica and sums.
Other modules report through the small functions below (`socket_opened`, `observe_move`,
`sweep_pass`, ...), so none of them imports prometheus-client itself.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.store import match_reads
from domino_api.store.db import transaction

log = logging.getLogger(__name__)

# Requests that matched no route share one label, so a scanner cannot explode the series count.
UNMATCHED = "<unmatched>"
STATUSES = ("waiting", "playing", "hand_over", "finished", "abandoned", "cancelled")
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Counter(
    "domino_http_requests",
    "HTTP requests answered, by method, route template and status code.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "domino_http_request_duration_seconds",
    "Time from the request's arrival to the end of its response, by method and route template.",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
MOVE_SECONDS = Histogram(
    "domino_move_duration_seconds",
    "Server time of one accepted move (lock, apply, computer replies, commit), by transport.",
    ["transport"],
    buckets=LATENCY_BUCKETS,
)
WRITE_PATHS = Counter(
    "domino_write_paths",
    "Saved steps (move, start, next_hand, join, other) by how they were saved: `statement` (only "
    "the match changed) or `transaction` (seats, the match's end, an idempotency key too).",
    ["action", "path"],
)
WRITE_CONFLICTS = Counter(
    "domino_write_conflicts",
    "Steps computed again because another writer moved the match first (the guarded save, or "
    "the snapshot read after the row, found a newer row).",
    ["action"],
)
ANNOUNCEMENTS_DROPPED = Counter(
    "domino_announcements_dropped",
    "Announcements dropped because this process's queue of unsent ones was full (the catch-up "
    "delivers their events later).",
)
OPEN_SOCKETS = Gauge("domino_open_sockets", "WebSocket connections open in this process.")
RATE_LIMIT_FALLBACK = Gauge(
    "domino_rate_limit_fallback",
    "1 while the shared rate-limit storage (Redis) is unreachable and this process counts "
    "budgets in its own memory, else 0.",
)
CONNECTIONS_CLOSED = Counter(
    "domino_connections_closed",
    "Connections the server closed before a request or a WebSocket frame was complete: "
    "`head_timeout`, `body_timeout`, `frame_timeout`, `head_too_large`, or `per_address` (one "
    "address held too many).",
    ["reason"],
)
SWEEP_PASSES = Counter("domino_sweeper_passes", "Sweeper passes completed.")
SWEEP_FORFEITS = Counter(
    "domino_sweeper_forfeits", "Seats forfeited by the sweeper (turn clock or away)."
)
SWEEP_ABANDONED = Counter("domino_sweeper_abandoned", "Matches the sweeper abandoned or cancelled.")
SWEEP_ERRORS = Counter(
    "domino_sweeper_errors", "Matches whose handling failed in a sweeper pass (retried later)."
)
SWEEP_SECONDS = Histogram(
    "domino_sweeper_pass_duration_seconds", "Duration of one sweeper pass.", buckets=LATENCY_BUCKETS
)


# ---------------------------------------------------------------- what other modules call


def socket_opened() -> None:
    """A WebSocket was accepted (call once per accepted socket)."""
    OPEN_SOCKETS.inc()


def socket_closed() -> None:
    """An accepted WebSocket ended, however it ended (call once, e.g. in a `finally`)."""
    OPEN_SOCKETS.dec()


def rate_limit_fallback(active: bool) -> None:
    """Budgets went per process (the shared storage is down), or back to shared."""
    RATE_LIMIT_FALLBACK.set(1 if active else 0)


def connection_closed(reason: str) -> None:
    """The transport closed a slow, oversized or surplus connection (web/transport.py)."""
    CONNECTIONS_CLOSED.labels(reason).inc()


def observe_move(seconds: float, transport: str = "ws") -> None:
    """One accepted move took `seconds` on the server (HTTP moves are timed by the middleware)."""
    MOVE_SECONDS.labels(transport).observe(seconds)


def count_write_path(action: str, path: str) -> None:
    WRITE_PATHS.labels(action, path).inc()


def count_write_conflict(action: str) -> None:
    WRITE_CONFLICTS.labels(action).inc()


def count_announcement_dropped() -> None:
    ANNOUNCEMENTS_DROPPED.inc()


def sweep_pass(n_forfeits: int = 0, *, abandoned: int = 0, seconds: float | None = None) -> None:
    """One sweeper pass finished: how many seats it forfeited and matches it abandoned."""
    SWEEP_PASSES.inc()
    if n_forfeits:
        SWEEP_FORFEITS.inc(n_forfeits)
    if abandoned:
        SWEEP_ABANDONED.inc(abandoned)
    if seconds is not None:
        SWEEP_SECONDS.observe(seconds)


def sweep_failed() -> None:
    """A sweeper pass raised (it is retried on the next interval)."""
    SWEEP_ERRORS.inc()


# (method, route, status) -> that request's counter and histogram: `labels()` builds and looks
# up its key under a lock on every call; the children never change once made. As many entries
# as the children prometheus-client keeps itself (routes are templates, statuses a few).
_request_series: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Called by the middleware once per HTTP response."""
    key = (method, route, status)
    series = _request_series.get(key)
    if series is None:
        series = REQUESTS.labels(method, route, str(status)), REQUEST_SECONDS.labels(method, route)
        _request_series[key] = series
    series[0].inc()
    series[1].observe(seconds)


def serve_standalone(port: int, addr: str = "0.0.0.0") -> None:
    """Expose this process's metrics on their own port (for `domino-api worker`)."""
    from prometheus_client import start_http_server

    start_http_server(port, addr)


# ---------------------------------------------------------------- matches by status


class MatchCensus(Collector):
    """`domino_matches{status}`: counted in PostgreSQL when scraped, reused for `max_age_s`.

    `collect()` is synchronous, so `GET /metrics` awaits `refresh()` first; a scrape storm or a
    slow database costs at most one bounded query per `max_age_s` per process.
    """

    def __init__(self, max_age_s: float = 2.0) -> None:
        self.max_age_s = max_age_s
        self.counts: dict[str, int] = {}
        self.refreshed_at = float("-inf")
        self._lock = asyncio.Lock()

    async def refresh(self, maker: async_sessionmaker[AsyncSession]) -> None:
        if time.monotonic() - self.refreshed_at < self.max_age_s:
            return
        async with self._lock:
            if time.monotonic() - self.refreshed_at < self.max_age_s:
                return
            try:
                self.counts = await count_matches_by_status(maker)
            except Exception:  # a scrape must answer; the old counts stay until the next one
                log.warning("matches by status: query failed", exc_info=True)
                return
            self.refreshed_at = time.monotonic()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "domino_matches", "Matches by status, counted at scrape time.", labels=["status"]
        )
        for status in sorted(set(STATUSES) | set(self.counts)):
            family.add_metric([status], self.counts.get(status, 0))
        yield family


async def count_matches_by_status(maker: async_sessionmaker[AsyncSession]) -> dict[str, int]:
    # The one query metrics make (store/match_reads.py): indexed and time-boxed.
    async with transaction(maker) as session:
        return await match_reads.count_by_status(session)


CENSUS = MatchCensus()
REGISTRY.register(CENSUS)


# ---------------------------------------------------------------- the route

router = APIRouter()


@router.get(
    "/metrics",
    summary="Prometheus metrics of this process",
    tags=["operators"],
    response_class=Response,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
async def metrics(request: Request) -> Response:
    """This process's counters and histograms in Prometheus text (requests by route and status,
    moves, sockets, matches by status); no token needed, keep it off the public network."""
    maker = getattr(request.app.state, "sessionmaker", None)
    if maker is not None:
        await CENSUS.refresh(maker)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
