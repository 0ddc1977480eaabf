"""Fixtures for the recovery job: the app's session factory and tables built over REST."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker


@pytest.fixture
def maker(app: Any) -> async_sessionmaker[AsyncSession]:
    return app.state.sessionmaker  # type: ignore[no-any-return]


@pytest.fixture
def core(app: Any) -> Any:
    """The app's write core (matches/unit.py): what the sweeper runs on."""
    return app.state.core
