"""Logs: JSON (one object per line) or text, with request and match ids, never secrets."""

from __future__ import annotations

import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

import msgspec
from msgspec import UNSET, UnsetType

from domino_api.config import Settings

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
match_id: ContextVar[str | None] = ContextVar("match_id", default=None)


# What a database error carries of the values it was given: PostgreSQL's DETAIL ("Key (k)=(v)
# already exists", "Failing row contains (...)"), asyncpg's refusal of an argument (which quotes
# it), SQLAlchemy's parameter list (engines here hide it; this is the second belt).
_SECRET_BEARING = (
    (re.compile(r"DETAIL:.*"), "DETAIL: [redacted]"),
    (re.compile(r"(invalid input for query argument \$\d+).*"), r"\1: [redacted]"),
    (re.compile(r"\[parameters: .*\]"), "[parameters redacted]"),
)


def redact(text: str) -> str:
    """`text` without the SQL parameter values database errors quote."""
    for pattern, replacement in _SECRET_BEARING:
        text = pattern.sub(replacement, text)
    return text


ACCESS_FIELDS = ("method", "path", "status", "duration_ms", "client")
# What a line about one match's event carries as members (the sweep's forfeits and ends).
EVENT_FIELDS = ("match_id", "seat", "cause", "outcome")


class LogEntry(msgspec.Struct, kw_only=True, gc=False):
    """One JSON log line. A member left UNSET is left out; a record's own field (`extra=`) is
    written as the record holds it, None as null."""

    ts: str
    level: str
    logger: str
    msg: str
    request_id: str | UnsetType = UNSET
    match_id: str | UnsetType | None = UNSET
    # An access line's (web/middleware.py).
    method: str | UnsetType = UNSET
    path: str | UnsetType = UNSET
    status: int | UnsetType = UNSET
    duration_ms: float | UnsetType = UNSET
    client: str | UnsetType | None = UNSET
    # A line about one match's event (the sweep's forfeits and ends: jobs/sweeper.py).
    seat: int | UnsetType | None = UNSET
    cause: str | UnsetType = UNSET
    outcome: str | UnsetType = UNSET
    exc: str | UnsetType = UNSET


# A member of an unforeseen type is written as its text, not refused: a log line never fails.
_entries = msgspec.json.Encoder(enc_hook=str)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = LogEntry(
            ts=datetime.fromtimestamp(record.created, UTC).isoformat(),
            level=record.levelname.lower(),
            logger=record.name,
            msg=redact(record.getMessage()),
        )
        for key, var in (("request_id", request_id), ("match_id", match_id)):
            value = var.get()
            if value:
                setattr(entry, key, value)
        for key in ACCESS_FIELDS + EVENT_FIELDS:
            if hasattr(record, key):
                setattr(entry, key, getattr(record, key))
        if record.exc_info:
            entry.exc = redact(self.formatException(record.exc_info))
        return _entries.encode(entry).decode()


class TextFormatter(logging.Formatter):
    """One readable line; an access line carries its method, path, status and duration (the
    fields JsonFormatter puts in members), not just its message, "request"."""

    def __init__(self, fmt: str = "%(asctime)s %(levelname)s %(name)s: %(message)s") -> None:
        super().__init__(fmt)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        access = {key: getattr(record, key, None) for key in ACCESS_FIELDS}
        if access["method"] is not None:
            line += " {method} {path} {status} {duration_ms}ms".format(**access)
            if access["client"]:
                line += f" client={access['client']}"
        ids = ((key, var.get()) for key, var in (("request_id", request_id), ("match", match_id)))
        # Redacted like the JSON lines (no token or secret ever reaches a log).
        return redact(line + "".join(f" {key}={value}" for key, value in ids if value))


class ClientFaults(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 as an error with a traceback. It is
    the client's fault, answered by closing the socket 1007: a warning without a traceback, so
    that a client cannot fill the error log (and page an operator) by sending such frames."""

    MESSAGES = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.MESSAGES:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
            # Let through as the error it was: written only where warnings are.
            return logging.getLogger(record.name).isEnabledFor(logging.WARNING)
        return True


class WithoutQueries(logging.Filter):
    """uvicorn logs each WebSocket opening with its path and query string, where a careless
    client may put its token (`?token=...`): the query is cut, as the access line leaves it out."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        opening = isinstance(record.msg, str) and record.msg.startswith('%s - "WebSocket %s"')
        if opening and isinstance(args, tuple) and len(args) >= 2:
            record.args = (args[0], str(args[1]).partition("?")[0], *args[2:])
        return True


def configure_logging(settings: Settings) -> None:
    # Neither formatter writes where a call came from nor its thread or process, so no record
    # looks them up (the logging HOWTO's "Optimization"): an access line is written for every
    # request, and these lookups were a sixth of its cost.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_json else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    uvicorn_errors = logging.getLogger("uvicorn.error")
    for kind in (ClientFaults, WithoutQueries):
        if not any(isinstance(known, kind) for known in uvicorn_errors.filters):
            uvicorn_errors.addFilter(kind())
