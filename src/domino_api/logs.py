"""Logs: JSON (one object per line) or text, with request and match ids, never secrets."""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from domino_api.config import Settings

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
match_id: ContextVar[str | None] = ContextVar("match_id", default=None)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, var in (("request_id", request_id), ("match_id", match_id)):
            value = var.get()
            if value:
                entry[key] = value
        for key in ACCESS_FIELDS:
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


ACCESS_FIELDS = ("method", "path", "status", "duration_ms", "client")


class TextFormatter(logging.Formatter):
    """One readable line; an access line carries its method, path, status and duration (the
    fields JsonFormatter puts in members), not just its message, "request"."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        access = {key: getattr(record, key, None) for key in ACCESS_FIELDS}
        if access["method"] is not None:
            line += " {method} {path} {status} {duration_ms}ms".format(**access)
            if access["client"]:
                line += f" client={access['client']}"
        ids = ((key, var.get()) for key, var in (("request_id", request_id), ("match", match_id)))
        return line + "".join(f" {key}={value}" for key, value in ids if value)


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_json else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level.upper())
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).setLevel(logging.WARNING)
