"""Annotated dependencies that keep routes short: the database, the clock, the caller."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import Clock
from domino_api.config import Settings
from domino_api.errors import Unauthenticated
from domino_api.players.auth import hash_token, parse_bearer
from domino_api.store import players_repo
from domino_api.store.db import transaction
from domino_api.store.models import Player


def get_sessionmaker(request: Request) -> async_sessionmaker[AsyncSession]:
    maker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    return maker


def get_clock(request: Request) -> Clock:
    clock: Clock = request.app.state.clock
    return clock


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_current_player(
    request: Request, maker: Annotated[async_sessionmaker[AsyncSession], Depends(get_sessionmaker)]
) -> Player:
    token = parse_bearer(request.headers.get("authorization"))
    if token is None:
        raise Unauthenticated("Send 'Authorization: Bearer <token>' (from POST /v1/players).")
    async with transaction(maker) as session:
        player = await players_repo.by_token_hash(session, hash_token(token))
    if player is None:
        raise Unauthenticated("The token is not valid.")
    return player


Db = Annotated[async_sessionmaker[AsyncSession], Depends(get_sessionmaker)]
ClockDep = Annotated[Clock, Depends(get_clock)]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
CurrentPlayer = Annotated[Player, Depends(get_current_player)]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"
