"""What a player's profile change asks of the tables: hooks installed at start-up.

A new tile back is shown at every live table of the player's, each a step of the write core.
The matches' part registers itself (domino_api/wiring.py installs `announce_tile_back` of
matches/service.py), so players import nothing of matches, which import players.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from domino_api.store.models import Player

# (the process's write core, the player as just committed). The core is typed where the
# hook is written (matches/unit.Core); naming its type here would import matches.
TileBackHook = Callable[[Any, Player], Awaitable[None]]

_TILE_BACK_HOOKS: list[TileBackHook] = []


def on_tile_back_changed(hook: TileBackHook) -> None:
    """Run `hook(core, player)` after a tile-back change commits; once however often it is
    registered (every write core of a process installs it)."""
    if hook not in _TILE_BACK_HOOKS:
        _TILE_BACK_HOOKS.append(hook)


async def tile_back_changed(core: Any, player: Player) -> None:
    for hook in _TILE_BACK_HOOKS:
        await hook(core, player)
