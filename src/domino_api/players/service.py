"""Player accounts, profiles and settings (the service layer: never commits)."""

from __future__ import annotations

import uuid

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock
from domino_api.errors import UnknownTileBack
from domino_api.players import tile_backs
from domino_api.players.schemas import PlayerCreated, PlayerOut, PlayerPatch, PlayerSettings
from domino_api.store import accounts_repo, players_repo
from domino_api.store.json_types import JSONObject
from domino_api.store.models import Player
from domino_api.web.tokens import hash_token, new_token

FIRST_DEVICE = "First device"


def profile(player: Player) -> PlayerOut:
    saved = player.settings or {}
    # Every setting is shown, null where none is saved (absent ones would be left out).
    settings = {name: saved.get(name) for name in PlayerSettings.__struct_fields__}
    return msgspec.convert(
        {
            "id": player.id,
            "name": player.name,
            "tile_back": player.tile_back,
            "plan": player.plan,
            "settings": settings,
        },
        PlayerOut,
    )


async def create_player(session: AsyncSession, clock: Clock, name: str) -> PlayerCreated:
    token = new_token()
    player = Player(
        id=str(uuid.uuid4()),
        name=name.strip() or name,
        tile_back=tile_backs.DEFAULT_TILE_BACK,
        plan="free",
        settings={},
        created_at=clock.now(),
    )
    players_repo.add(session, player)
    await session.flush()
    # The token shown once is the first device's session (docs/API.md, "Accounts").
    accounts_repo.issue_token(
        session, player.id, "session", FIRST_DEVICE, hash_token(token), player.created_at
    )
    await session.flush()
    return PlayerCreated(**msgspec.structs.asdict(profile(player)), token=token)


async def update_player(session: AsyncSession, player: Player, patch: PlayerPatch) -> Player:
    """Apply a profile change; returns the fresh row (the caller announces tile-back changes)."""
    fresh = await players_repo.by_id(session, player.id)
    assert fresh is not None  # authenticated a moment ago; players are never deleted
    if patch.tile_back is not None and patch.tile_back not in tile_backs.IDS:
        known = ", ".join(sorted(tile_backs.IDS))
        raise UnknownTileBack(f"Unknown tile back {patch.tile_back!r}; known: {known}.")
    if patch.name is not None:
        fresh.name = patch.name
    if patch.tile_back is not None:
        fresh.tile_back = patch.tile_back
    if patch.settings is not None:
        fresh.settings = merged_settings(fresh.settings, patch.settings.given())
    await session.flush()
    return fresh


def merged_settings(saved: JSONObject | None, given: JSONObject) -> JSONObject:
    """The saved settings with the keys a PATCH names (issue 41: setting `target` erased a
    saved `draw`); a key given as null is cleared."""
    merged = {**(saved or {}), **given}
    return {key: value for key, value in merged.items() if value is not None}
