"""create_app(): lifespan (write core, listener, sweep loop), routers, error handlers, probes."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from domino_api.app.documented import DocumentedAPI
from domino_api.bots.computers import Computers
from domino_api.clock import Clock
from domino_api.config import Settings, get_settings
from domino_api.documents import openapi_doc
from domino_api.engine import EngineError
from domino_api.errors import ProblemDoc, ServiceError, database_state, problem, unavailable
from domino_api.jsontext import dump_bytes
from domino_api.matches import pacing
from domino_api.matches.service import announce_tile_back
from domino_api.metrics import router as metrics_router
from domino_api.store.db import resolve_database_url
from domino_api.store.migrate import current_revision, head_revision
from domino_api.web.headers import SecurityHeadersMiddleware
from domino_api.web.inputs import error_summary
from domino_api.web.middleware import BodyLimitMiddleware, ObservabilityMiddleware
from domino_api.web.problem_docs import problem_of, retry_after
from domino_api.web.ratelimit import Limits, SocketCount
from domino_api.web.transport import GUARD_STATE, Guard

log = logging.getLogger(__name__)

PROBLEM = "application/problem+json"
# The service reports through its own metrics (/metrics, Prometheus) and JSON access lines
# (docs/OPERATING.md): FastAPI's OpenTelemetry bridge stays off. On, it looks up the global
# providers on every request, even with none installed.
NO_OPENTELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
# The collector's thresholds while serving (generation 0, 1, 2): see `lifespan`.
GC_THRESHOLDS = (20_000, 20, 20)
# How long /readyz waits for its round trip (a pool checkout and one SELECT) before it calls
# the database unreachable: a balancer's probe times out in a few seconds.
READYZ_DATABASE_TIMEOUT_S = 3.0


def problem_response(
    status: int, body: ProblemDoc, headers: dict[str, str] | None = None
) -> Response:
    return Response(dump_bytes(body), status_code=status, media_type=PROBLEM, headers=headers)


def allowed_methods(request: Request) -> str:
    """Every method of the path's routes. Starlette's 405 names only the first route that matched
    the path, so a path with PUT and DELETE routes answered `Allow: PUT`. Where a literal path and
    a template both match (`/v1/matches/join`, `/v1/matches/{match_id}`), the literal one is the
    path: the routes with the fewest parameters count."""
    by_params: dict[int, set[str]] = {}
    for route in request.app.router.routes:  # one flat list (app/routes.py)
        match, _ = route.matches(request.scope)
        methods = getattr(route, "methods", None)
        if match != Match.NONE and methods:
            by_params.setdefault(len(getattr(route, "param_convertors", {})), set()).update(methods)
    return ", ".join(sorted(by_params[min(by_params)])) if by_params else ""


def install_error_handlers(app: FastAPI) -> None:
    async def expected(_: Request, exc: Exception) -> Response:
        body = problem_of(exc)
        return problem_response(body.status, body, retry_after(body))

    app.add_exception_handler(ServiceError, expected)
    app.add_exception_handler(EngineError, expected)

    # FastAPI's pydantic checks of query, path and header parameters; bodies are msgspec
    # Structs, refused by web/struct_bodies.py with the same problems.
    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> Response:
        detail = error_summary(exc.errors())
        return problem_response(422, problem(422, "validation_error", "Invalid input", detail))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = "not_found" if exc.status_code == 404 else "bad_request"
        title = "Not found" if exc.status_code == 404 else "Request refused"
        body = problem(exc.status_code, code, title, str(exc.detail))
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = allowed_methods(request)
        return problem_response(exc.status_code, body, headers or None)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        if unavailable(exc) is not None:
            log.warning("database busy: %s", type(exc).__name__)
        else:
            log.exception("unhandled error", exc_info=exc)
        return await expected(request, exc)


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    database_url: str | None = None,
    start_background: bool = True,
    computers: Computers | None = None,
) -> FastAPI:
    """The app. `computers`: the computers' workers to use (tests share one set across their
    apps); without, the app makes its own and stops them with itself."""
    settings = settings or get_settings()
    clock = clock or Clock()
    # A socket process (docs/OPERATING.md, "Socket processes"): the watch and lobby sockets
    # and the probes only, fed by the announcements of the API processes.
    sockets_only = settings.role == "sockets"

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Guard]]:
        url = database_url
        if url is None:
            url = await asyncio.to_thread(resolve_database_url, settings)
        from domino_api.app.runtime import start_runtime, start_socket_runtime, stop_runtime
        from domino_api.app.wiring import write_core
        from domino_api.jobs.liveness import outages_of
        from domino_api.jobs.witness import witness_of
        from domino_api.lobby.runtime import Lobby
        from domino_api.realtime.lobby_feed import LobbyFeed

        computers: Computers = app.state.computers
        # Presence is witnessed by the processes' presence loops (jobs/witness.py), if running.
        witness = witness_of if start_background else None
        async with write_core(url, settings, clock, outages_of, computers, witness) as (
            core,
            engine,
        ):
            app.state.database_url = url
            app.state.db_engine = engine
            app.state.core = core
            app.state.sessionmaker = core.maker
            app.state.announcer = core.announcer
            app.state.on_tile_back = functools.partial(announce_tile_back, core)
            app.state.lobby = Lobby(core, settings, LobbyFeed(core.pool, settings, url))
            if sockets_only:
                await start_socket_runtime(app)
            else:
                await start_runtime(app, start_background)
            _tune_collector(start_background)
            try:
                # The lifespan's state reaches the server's protocols (web/transport.py).
                yield {GUARD_STATE: app.state.connection_guard}
            finally:
                await stop_runtime(app)

    # Its /openapi.json is the whole contract; /docs and /redoc work with no network.
    app = DocumentedAPI(
        title="domino-api",
        version="1.0.0",
        summary="Dominoes as a service: sealed deals, live tables, bots and tournaments.",
        description=openapi_doc.DESCRIPTION,
        lifespan=lifespan,
        swagger_ui_parameters={"persistAuthorization": True},
        telemetry=NO_OPENTELEMETRY,
        # Starlette answers a path with a slash too many or too few by a redirect built from
        # the request's Host header (`Host: evil.example` went back as the Location): such a
        # path is a 404 problem like any unknown one; `/play` has its own redirect.
        redirect_slashes=False,
    )
    app.state.settings = settings
    from domino_api.web.deps import AuthCache
    from domino_api.web.revocation import Credentials

    app.state.auth_cache = AuthCache(settings.auth_cache_s)
    # The process's open sockets by credential, closed when it is revoked (issue 48).
    app.state.credentials = Credentials()
    app.state.clock = clock
    app.state.limits = Limits(settings)
    app.state.pacer = pacing.Pacer(settings)
    app.state.connection_guard = Guard(settings)
    app.state.computers = computers or Computers.from_settings(settings)
    app.state.own_computers = computers is None
    app.state.socket_count = SocketCount()
    install_error_handlers(app)
    # Added first, so inside the observability middleware: a 413 is logged and counted too.
    app.add_middleware(pacing.PacingMiddleware, pacer=app.state.pacer)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(ObservabilityMiddleware)
    # Outermost: every answer gets them, the 500s the observability middleware renders too.
    app.add_middleware(SecurityHeadersMiddleware)
    _install_probes(app)
    from domino_api.app.routes import add_routes, include_routers, include_socket_routers

    add_routes(app, metrics_router)
    if sockets_only:
        include_socket_routers(app)
        return app
    include_routers(app)
    _mount_play(app)
    return app


def _tune_collector(start_background: bool) -> None:
    if start_background:
        # What is alive now (modules, mappers, routes) lives as long as the process: frozen
        # out of the collector's sight, full collections under load stay short.
        gc.freeze()
        # A request allocates thousands of containers, nearly all freed by refcounting;
        # with the default threshold (700) the collector ran several times per request over
        # every request in flight. Measured: about 12% of the server's CPU per move
        # (bench/capacity.md, "Load", 2026-12-01).
        gc.set_threshold(*GC_THRESHOLDS)


PLAY_DIR = Path(__file__).parents[1] / "play"


def _mount_play(app: FastAPI) -> None:
    """The reference web client (`/play/`): static files in the package, no build step; `/play`
    redirects there by a relative Location (never one taken from the Host header)."""

    @app.get("/play", include_in_schema=False)
    async def play(request: Request) -> RedirectResponse:
        return RedirectResponse(f"{request.scope.get('root_path', '')}/play/", status_code=307)

    app.mount("/play", StaticFiles(directory=PLAY_DIR, html=True), name="play")


def _install_probes(app: FastAPI) -> None:
    @app.get("/healthz", summary="Process alive", tags=["operators"])
    async def healthz() -> dict[str, str]:
        """200 while the process runs: a liveness probe that touches nothing else."""
        return {"status": "ok"}

    @app.get(
        "/readyz",
        summary="Database reachable and schema at the latest migration",
        tags=["operators"],
        responses={
            200: {"description": "Ready, or the database unreachable for now (`status`)"},
            503: {"description": "Broken, or migrations pending: drain this process"},
        },
    )
    async def readyz(request: Request) -> Response:
        """A readiness probe for load balancers and deploys (docs/OPERATING.md, "The
        database goes away"). 200 `ready`: the database answers and its schema is at the
        latest migration. 200 `database_unreachable`: PostgreSQL is away (a restart, a
        failover) or out of connections; every replica sees the same, so none is drained:
        each answers 503 `service_busy` with Retry-After meanwhile and recovers by itself.
        503 `broken` (any other failure of the database round trip) or `migrations_pending`:
        drain it. `rate_limits` says where budgets are counted: `memory` (per process, as
        configured), `shared` (Redis), or `fallback` (per process while Redis is unreachable:
        still ready, budgets still kept)."""
        limits: Limits = request.app.state.limits
        try:
            # Reading the schema's version is the round trip that shows the database answers.
            current = await asyncio.wait_for(
                current_revision(request.app.state.db_engine), READYZ_DATABASE_TIMEOUT_S
            )
        except Exception as exc:  # the probe must answer, whatever the database does
            away = isinstance(exc, TimeoutError) or database_state(exc) is not None
            status, code = ("database_unreachable", 200) if away else ("broken", 503)
            body = {"status": status, "detail": str(exc)[:200] or type(exc).__name__}
            return JSONResponse({**body, "rate_limits": limits.status()}, code)
        head = head_revision(request.app.state.database_url)
        if current != head:
            pending = {"status": "migrations_pending", "current": current, "head": head}
            return JSONResponse({**pending, "rate_limits": limits.status()}, 503)
        ready = {"status": "ready", "revision": current, "rate_limits": limits.status()}
        return JSONResponse(ready)
