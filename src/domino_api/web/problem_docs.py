"""The one way an exception becomes a problem document, for REST and the socket alike.

app/api.py's exception handlers answer with it, and realtime/frames.py puts it in an error frame
(and realtime/socket.py in its close code), so a refusal reads the same over either transport.
It needs the service's errors (errors.py) and the engine's, so it cannot sit in web/problems.py,
which errors.py imports; nothing it imports imports it back.
"""

from __future__ import annotations

from msgspec import UNSET

from domino_api.engine import EngineError
from domino_api.errors import ProblemDoc, ServiceError, engine_status, problem, unavailable


def problem_of(exc: Exception) -> ProblemDoc:
    """The problem document for an expected failure (ServiceError or EngineError), for the
    database out of connections (503 service_busy), or else the 500 `internal_error`, which says
    nothing of the failure."""
    if isinstance(exc, ServiceError):
        return problem(exc.status, exc.code, exc.title, exc.detail, exc.extra)
    if isinstance(exc, EngineError):
        status = engine_status(exc.code)
        return problem(status, exc.code, exc.title, exc.message, exc.extra)
    if (busy := unavailable(exc)) is not None:
        return problem_of(busy)
    return problem(500, "internal_error", "Internal error", "Something went wrong on our side.")


def retry_after(body: ProblemDoc) -> dict[str, str] | None:
    """The `Retry-After` header a problem asks for (its `retry_after` member), if any."""
    return None if body.retry_after is UNSET else {"Retry-After": str(body.retry_after)}
