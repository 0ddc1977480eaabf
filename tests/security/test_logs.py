"""Attack 10: a database error's log line carries no SQL parameter (the 500s logged an
idempotency answer and part of a snapshot). Provoked on the real server, read as logged."""

from __future__ import annotations

import io
import json
import logging

import asyncpg
import pytest
from sqlalchemy import text

from domino_api.config import Settings
from domino_api.logs import JsonFormatter, TextFormatter
from domino_api.store.db import make_engine, to_plain_url

SECRET = "answer-7f3a9c-secret"


def _logged(formatter: logging.Formatter, exc: BaseException) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("domino_api.app.api")
    logger.addHandler(handler)
    try:
        logger.error("unhandled error %s", exc, exc_info=exc)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


@pytest.mark.parametrize("formatter", [JsonFormatter(), TextFormatter("%(message)s")])
async def test_orm_errors_log_no_parameters(clean_db: str, formatter: logging.Formatter) -> None:
    engine = make_engine(clean_db, Settings(database_url=clean_db))
    try:
        async with engine.connect() as connection:
            await connection.execute(text("CREATE TEMP TABLE answers (key text PRIMARY KEY)"))
            insert = text("INSERT INTO answers VALUES (:key)")
            await connection.execute(insert, {"key": SECRET})
            with pytest.raises(Exception) as caught:
                await connection.execute(insert, {"key": SECRET})
    finally:
        await engine.dispose()
    line = _logged(formatter, caught.value)
    assert "duplicate key" in line and "INSERT INTO answers" in line  # the error is there
    assert SECRET not in line


async def test_driver_errors_log_no_parameters(clean_db: str) -> None:
    connection = await asyncpg.connect(to_plain_url(clean_db))
    try:
        await connection.execute("CREATE TEMP TABLE answers (key text PRIMARY KEY, n int)")
        await connection.execute("INSERT INTO answers VALUES ($1, 1)", SECRET)
        with pytest.raises(asyncpg.UniqueViolationError) as duplicate:
            await connection.execute("INSERT INTO answers VALUES ($1, 1)", SECRET)
        with pytest.raises(asyncpg.DataError) as wrong_type:
            await connection.execute("INSERT INTO answers VALUES ('k', $1)", SECRET)
    finally:
        await connection.close()
    for exc in (duplicate.value, wrong_type.value):
        assert SECRET in str(exc)  # what the driver says, unredacted
        entry = json.loads(_logged(JsonFormatter(), exc))
        assert SECRET not in json.dumps(entry), entry
