"""Domain errors carrying their HTTP status and stable code; one handler renders them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Literal

from msgspec import UNSET, Struct, UnsetType

from domino_api.engine.errors import Extra


class ServiceError(Exception):
    """Base of every expected failure; `code` is from the closed list in the API contract."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"
    title: ClassVar[str] = "Bad request"

    def __init__(
        self,
        detail: str,
        *,
        retry_after: int | None = None,
        cap: int | None = None,
        max_entrants: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = Extra(retry_after=retry_after, cap=cap, max_entrants=max_entrants)


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
PartnerRefused = _error("PartnerRefused", 409, "partner_refused", "Not this partner here")
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
# A match's `options` refused by their type or bounds (web/struct_bodies.py), as when the preset
# refuses them (engine/errors.py's BadOptions).
BadOptionsInput = _error("BadOptionsInput", 422, "bad_options", "Invalid input")
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
# Accounts (accounts/).
PasskeyRejected = _error("PasskeyRejected", 403, "passkey_rejected", "The passkey did not verify")
CeremonyNotFound = _error("CeremonyNotFound", 404, "ceremony_not_found", "No such passkey ceremony")
LinkCodeNotFound = _error("LinkCodeNotFound", 404, "link_code_not_found", "No such link code")
SessionRequired = _error("SessionRequired", 403, "session_required", "Sign in as a device")
PasskeyNotFound = _error("PasskeyNotFound", 404, "passkey_not_found", "Passkey not found")
SessionNotFound = _error("SessionNotFound", 404, "session_not_found", "Session not found")
ApiKeyNotFound = _error("ApiKeyNotFound", 404, "api_key_not_found", "API key not found")
PasskeyRegistered = _error(
    "PasskeyRegistered", 409, "passkey_registered", "Passkey already registered"
)
LastWayIn = _error("LastWayIn", 409, "last_way_in", "The last way in")
# The lobby (lobby/).
SeekNotFound = _error("SeekNotFound", 404, "seek_not_found", "Seek not found")
SubscriptionNotFound = _error(
    "SubscriptionNotFound", 404, "subscription_not_found", "Push subscription not found"
)
TableNotListed = _error("TableNotListed", 404, "table_not_listed", "No such open table")
# Friends and challenges (social/).
Yourself = _error("Yourself", 409, "yourself", "Not with yourself")
NameAmbiguous = _error("NameAmbiguous", 409, "name_ambiguous", "More than one player has this name")
ChallengeNotFound = _error("ChallengeNotFound", 404, "challenge_not_found", "Challenge not found")
NotChallenged = _error("NotChallenged", 403, "not_challenged", "The challenge is another's")
ChallengeAnswered = _error(
    "ChallengeAnswered", 409, "challenge_answered", "The challenge was answered already"
)
ChallengeExpired = _error("ChallengeExpired", 410, "challenge_expired", "The challenge expired")
MatchBusy = _error("MatchBusy", 503, "match_busy", "The match is busy")
ServiceBusy = _error("ServiceBusy", 503, "service_busy", "The service is busy")
RateLimited = _error("RateLimited", 429, "rate_limited", "Too many requests")


# PostgreSQL refusing connections: too_many_connections, cannot_connect_now (starting up or
# shutting down).
REFUSED_SQLSTATES = frozenset({"53300", "57P03"})
# PostgreSQL gone or going: admin_shutdown (a fast restart ends every session), crash_shutdown,
# and read_only_sql_transaction (a write reached a standby: a failover under way). Class 08,
# connection exceptions, counts too (`_lost`).
LOST_SQLSTATES = frozenset({"57P01", "57P02", "25006"})
# asyncpg's refusal of a statement while its protocol consumes an error (`_lost`).
ERROR_CONSUME = "another operation (2) is in progress"
BUSY_RETRY_AFTER_S = 2
DatabaseState = Literal["busy", "unreachable"]


def unavailable(exc: BaseException) -> ServiceError | None:
    """A 503 `service_busy` (with Retry-After) when `exc` means the database gave no
    connection (`database_state`); None for any other failure. The one place where a
    database that is away becomes an answer: REST and the socket both ask here
    (web/problem_docs.py)."""
    state = database_state(exc)
    if state is None:
        return None
    detail = {
        "busy": "The database has no connection free; try again shortly.",
        "unreachable": "The database is unreachable for a moment; try again shortly.",
    }[state]
    return ServiceBusy(detail, retry_after=BUSY_RETRY_AFTER_S)


def database_state(exc: BaseException) -> DatabaseState | None:
    """`busy` when the database or the process's pool had no connection free in time
    (SQLAlchemy's `pool_timeout`, store/db.py; PostgreSQL's connection limit), `unreachable`
    when no server answers, or the one that did closed the connection or is going away (a
    restart, a failover), None for any other failure (a bug: the 500 it is)."""
    for cause in _causes(exc):
        if getattr(cause, "sqlstate", None) in REFUSED_SQLSTATES or _pool_timeout(cause):
            return "busy"
        if _lost(cause):
            return "unreachable"
    return None


def _lost(cause: BaseException) -> bool:
    import asyncpg
    from asyncpg.exceptions import TargetServerAttributeNotMatched
    from sqlalchemy.exc import DBAPIError

    sqlstate = str(getattr(cause, "sqlstate", "") or "")
    return (
        sqlstate.startswith("08")
        or sqlstate in LOST_SQLSTATES
        # No server of a multi-host URL takes writes (`target_session_attrs=read-write`
        # while a standby is being promoted).
        or isinstance(cause, ConnectionError | TargetServerAttributeNotMatched)
        # asyncpg's word for a connection its server closed (SQLAlchemy's `is_disconnect`
        # reads it so too).
        or (isinstance(cause, asyncpg.InterfaceError) and "connection is closed" in str(cause))
        # A statement sent between PostgreSQL's FATAL on an idle session (a shutdown) and the
        # socket's end: asyncpg's protocol is consuming that error (its state 2), so the
        # connection is done for, though not yet `is_closed` (the pool drops it once it is).
        or (isinstance(cause, asyncpg.InternalClientError) and ERROR_CONSUME in str(cause))
        or (isinstance(cause, DBAPIError) and cause.connection_invalidated)
    )


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

    return isinstance(cause, PoolTimeout)


class ProblemDoc(Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document with our `code` member (web/problems.py `Problem`) and the
    members its cause adds (`Extra`); a member its cause does not say is left out."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    seq: int | UnsetType = UNSET
    retry_after: int | UnsetType = UNSET
    cap: int | UnsetType = UNSET
    max_entrants: int | UnsetType = UNSET


def _said(value: int | None) -> int | UnsetType:
    return UNSET if value is None else value


def problem(status: int, code: str, title: str, detail: str, extra: Extra = Extra()) -> ProblemDoc:
    """An RFC 9457 problem document with our `code` member, and what `extra` says."""
    return ProblemDoc(
        type=f"https://domino-api.dev/problems/{code}",
        title=title,
        status=status,
        detail=detail,
        code=code,
        seq=_said(extra.seq),
        retry_after=_said(extra.retry_after),
        cap=_said(extra.cap),
        max_entrants=_said(extra.max_entrants),
    )


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
    "talk_etiquette": 409,
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
