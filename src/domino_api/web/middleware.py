"""Pure ASGI middleware: a request id in and out, one JSON access-log line, request metrics.

The access line carries method, path (never the query string, where a careless client may put a
token), status, duration_ms, the client address, the request id, and the match id when the path
names one. Headers are never logged.

It sits inside Starlette's ServerErrorMiddleware, so an unexpected exception reaches it first:
it renders the app's own 500 handler itself, so that even that answer carries the request id
and is counted and logged with status 500.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domino_api import metrics
from domino_api.errors import problem
from domino_api.jsontext import dump_bytes
from domino_api.logs import match_id, request_id

access_log = logging.getLogger("domino_api.access")
log = logging.getLogger(__name__)

REQUEST_ID_HEADER = b"x-request-id"
# An incoming id is kept only when it is short and plain, so nobody can inject into log lines.
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
MATCH_IN_PATH = re.compile(r"^/v1/matches/([0-9A-Fa-f-]{36})(?:/|$)")
MOVES_ROUTE = "/v1/matches/{match_id}/moves"


async def _no_such_path(scope: Scope, receive: Receive, send: Send) -> None:
    # No id holds a NUL character, and PostgreSQL would refuse one as a query parameter.
    body = problem(404, "not_found", "Not found", "No resource has a NUL character in its path.")
    response = Response(dump_bytes(body), status_code=404, media_type="application/problem+json")
    await response(scope, receive, send)


# How a NUL character can reach a query string: percent-encoded, or raw (an ASGI server may
# pass its bytes on). A cheap look for these comes first; only then is the query parsed.
NUL_IN_QUERY = re.compile(rb"%00|\x00")


def nul_query_parameter(scope: Scope) -> str | None:
    """The name of the first query parameter holding a NUL character in its name or value, as
    Starlette reads the query string, or None. PostgreSQL stores no NUL in text: one reaching
    a query parameter of SQL was a 500 (a tournament entry's `?partner=`), so no parameter of
    any route may carry one."""
    query: bytes = scope.get("query_string", b"")
    if not NUL_IN_QUERY.search(query):
        return None
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if "\x00" in name or "\x00" in value:
            return name.replace("\x00", "\\u0000")[:64]  # a name, not an echo of any size
    return None


async def _nul_in_query(scope: Scope, receive: Receive, send: Send, name: str) -> None:
    detail = f"query.{name}: text may not contain the NUL character (\\u0000)"
    body = problem(422, "validation_error", "Invalid input", detail)
    response = Response(dump_bytes(body), status_code=422, media_type="application/problem+json")
    await response(scope, receive, send)


async def _refuse_socket(receive: Receive, send: Send) -> None:
    """A socket whose query holds a NUL is refused as the sockets refuse bad input: accepted,
    then closed 4422 (4000 + the status) with the problem's code (browsers cannot read a
    refused handshake)."""
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 4422, "reason": "validation_error"})


def incoming_request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            candidate: str = value.decode("latin-1")
            if SAFE_REQUEST_ID.fullmatch(candidate):
                return candidate
            break
    return secrets.token_hex(16)  # 32 hex digits, as a uuid4's (without its object: 4x faster)


def route_template(scope: Scope) -> str:
    """The matched route's template (`/v1/matches/{match_id}`), never the raw path."""
    # FastAPI records the route as included (with every prefix) here; Starlette sets "route".
    context = (scope.get("fastapi") or {}).get("effective_route_context")
    path = getattr(context, "path_format", None) or getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else metrics.UNMATCHED


class ObservabilityMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = incoming_request_id(scope)
        found = MATCH_IN_PATH.match(scope.get("path", ""))
        rid_token = request_id.set(rid)
        mid_token = match_id.set(found.group(1).lower() if found else None)
        try:
            if scope["type"] == "http":
                await self._http(scope, receive, send, rid)
            elif nul_query_parameter(scope) is not None:
                await _refuse_socket(receive, send)
            else:
                await self.app(scope, receive, send)
        finally:
            request_id.reset(rid_token)
            match_id.reset(mid_token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        started = time.perf_counter()
        status = 500
        response_started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                response_started = True
                status = message["status"]
                headers = [h for h in message.get("headers", ()) if h[0] != REQUEST_ID_HEADER]
                headers.append((REQUEST_ID_HEADER, rid.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            if "\x00" in scope.get("path", ""):
                await _no_such_path(scope, receive, send_with_id)
            elif (name := nul_query_parameter(scope)) is not None:
                await _nul_in_query(scope, receive, send_with_id, name)
            else:
                await self.app(scope, receive, send_with_id)
        except Exception as exc:
            if response_started:
                raise
            await self._render_unexpected(scope, receive, send_with_id, exc)
        finally:
            seconds = time.perf_counter() - started
            self._record(scope, status, seconds)

    @staticmethod
    async def _render_unexpected(
        scope: Scope, receive: Receive, send: Send, exc: Exception
    ) -> None:
        app: object = scope.get("app")
        handler = getattr(app, "exception_handlers", {}).get(Exception)
        if handler is None:
            raise exc
        response = await handler(Request(scope, receive), exc)
        await response(scope, receive, send)

    @staticmethod
    def _record(scope: Scope, status: int, seconds: float) -> None:
        method = scope.get("method", "GET")
        route = route_template(scope)
        metrics.observe_request(method, route, status, seconds)
        if route == MOVES_ROUTE and method == "POST" and status == 200:
            metrics.observe_move(seconds, "http")
        client = scope.get("client")
        access_log.info(
            "request",
            extra={
                "method": method,
                "path": scope.get("path", ""),
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "client": client[0] if client else None,
            },
        )


class BodyLimitMiddleware:
    """Refuse a request body above `max_bytes` with a 413 problem, before any of it is parsed.

    A declared Content-Length above the limit is refused unread; a chunked body is read up to
    the limit and then refused. A body within the limit is handed on as read (at most
    `max_bytes` held per request).
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"A request body may hold at most {self.max_bytes} bytes."
        body = problem(413, "payload_too_large", "Request body too large", detail)
        response = Response(dump_bytes(body), 413, media_type="application/problem+json")
        await response(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
