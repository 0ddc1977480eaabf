"""Structured JSON logs: one object per line, with request and match ids, never secrets."""

from __future__ import annotations

import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

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


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        for key, var in (("request_id", request_id), ("match_id", match_id)):
            value = var.get()
            if value:
                entry[key] = value
        for key in ("method", "path", "status", "duration_ms", "client"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, default=str)


class PlainFormatter(logging.Formatter):
    """The plain-text lines (DOMINO_LOG_JSON=false), redacted like the JSON ones."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if settings.log_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(PlainFormatter("%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).setLevel(logging.WARNING)
