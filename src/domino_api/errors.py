"""Domain errors carrying their HTTP status and stable code; one handler renders them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar


class ServiceError(Exception):
    """Base of every expected failure; `code` is from the closed list in the API contract."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"
    title: ClassVar[str] = "Bad request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


def _error(name: str, status: int, code: str, title: str) -> type[ServiceError]:
    return type(name, (ServiceError,), {"status": status, "code": code, "title": title})


BadRequest = _error("BadRequest", 400, "bad_request", "Malformed request")
Unauthenticated = _error("Unauthenticated", 401, "unauthenticated", "Authentication required")
MatchNotFound = _error("MatchNotFound", 404, "match_not_found", "Match not found")
TournamentNotFound = _error(
    "TournamentNotFound", 404, "tournament_not_found", "Tournament not found"
)
PlayerNotFound = _error("PlayerNotFound", 404, "player_not_found", "Player not found")
EntrantLimitReached = _error("EntrantLimitReached", 409, "entrant_limit", "Too many entrants")
# The host's plan forbids the size: the same body from a Club host is accepted (so not 422).
EntrantLimitTooHigh = _error(
    "EntrantLimitTooHigh", 403, "entrant_limit", "Entrant limit above the host's plan"
)
NotEnoughEntrants = _error(
    "NotEnoughEntrants", 409, "not_enough_entrants", "Not enough entrants to start"
)
TournamentStarted = _error(
    "TournamentStarted", 409, "tournament_started", "The tournament has started"
)
ValidationFailed = _error("ValidationFailed", 422, "validation_error", "Invalid input")
UnknownTileBack = _error("UnknownTileBack", 422, "unknown_tile_back", "Unknown tile back")
OptionNotAllowed = _error(
    "OptionNotAllowed", 422, "option_not_allowed", "Option not allowed for this table"
)
IdempotencyKeyReused = _error(
    "IdempotencyKeyReused", 422, "idempotency_key_reused", "Idempotency key reused"
)
# A civil table (matches/civil.py).
OwnSeat = _error("OwnSeat", 409, "own_seat", "A seat of your own")
Blocked = _error("Blocked", 403, "blocked", "Blocked by the host")
MessageNotFound = _error("MessageNotFound", 404, "message_not_found", "No such message")
MatchBusy = _error("MatchBusy", 503, "match_busy", "The match is busy")
ServiceBusy = _error("ServiceBusy", 503, "service_busy", "The service is busy")
RateLimited = _error("RateLimited", 429, "rate_limited", "Too many requests")


# PostgreSQL refusing connections: too_many_connections, cannot_connect_now (starting up or
# shutting down).
REFUSED_SQLSTATES = frozenset({"53300", "57P03"})
BUSY_RETRY_AFTER_S = 2


def unavailable(exc: BaseException) -> ServiceError | None:
    """A 503 `service_busy` (with Retry-After) when `exc` means the database gave no connection:
    PostgreSQL refused it, nothing listens, or the process's pool had none free in time
    (SQLAlchemy's `pool_timeout`, store/db.py); None for any other failure."""
    for cause in _causes(exc):
        if getattr(cause, "sqlstate", None) in REFUSED_SQLSTATES or _pool_timeout(cause):
            return ServiceBusy(
                "The database has no connection free; try again shortly.",
                retry_after=BUSY_RETRY_AFTER_S,
            )
    return None


def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        cause = pending.pop()
        if cause is None or id(cause) in seen:
            continue
        seen.add(id(cause))
        yield cause
        pending += [cause.__cause__, cause.__context__, getattr(cause, "orig", None)]


def _pool_timeout(cause: BaseException) -> bool:
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    return isinstance(cause, PoolTimeout | ConnectionRefusedError)


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    """An RFC 9457 problem document with our `code` member."""
    return {
        "type": f"https://domino-api.dev/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


# The engine's refusals carry only their stable code (engine/errors.py); the API layer gives
# them their HTTP status here, once: a refused move is a conflict, bad match options are 422.
ENGINE_STATUS: dict[str, int] = {
    "not_your_turn": 409,
    "illegal_move": 409,
    "stale_seq": 409,
    "match_over": 409,
    "match_not_started": 409,
    "match_in_progress": 409,
    "hand_in_progress": 409,
    "seat_forfeited": 409,
    "ledger_sealed": 409,
    "engine_error": 409,
    "seats_empty": 409,
    "seat_in_use": 409,
    "seat_unavailable": 409,
    "match_full": 409,
    "talk_off": 409,
    "not_seated": 403,
    "not_host": 403,
    "not_your_seat": 403,
    "seat_not_found": 404,
    "code_not_found": 404,
    "bad_cut": 422,
    "bad_options": 422,
    "unknown_ruleset": 422,
}


def engine_status(code: str) -> int:
    """The HTTP status of an engine refusal's code."""
    return ENGINE_STATUS[code]
