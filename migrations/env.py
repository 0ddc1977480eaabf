"""Alembic environment: runs migrations over asyncpg with the URL the app resolved."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from domino_api.store import (
    account_models,  # noqa: F401  (its tables join Base.metadata)
    civil_models,  # noqa: F401  (its tables join Base.metadata)
    lobby_models,  # noqa: F401  (its tables join Base.metadata)
    push_models,  # noqa: F401  (its tables join Base.metadata)
    social_models,  # noqa: F401  (its tables join Base.metadata)
)
from domino_api.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_sync(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


async def run_async() -> None:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        await connection.run_sync(run_sync)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(run_async())
