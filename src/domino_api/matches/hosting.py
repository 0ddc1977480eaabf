"""How many waiting tables one player may host at once (issue 16: one account took every game
number). Checked in the creating transaction, under a per-host advisory lock, so two creations
at the same moment cannot both pass the count."""

from __future__ import annotations

from typing import Any

import asyncpg

from domino_api.errors import RateLimited

_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 16))"
_WAITING = "SELECT count(*) FROM matches WHERE host_player_id = $1 AND status = 'waiting'"


async def check_open_tables(connection: asyncpg.Connection, player_id: str, cap: int) -> None:
    """Inside the creating transaction: refuse a host who already has `cap` waiting tables."""
    await connection.execute(_LOCK, f"host:{player_id}")
    count = int(await connection.fetchval(_WAITING, player_id) or 0)
    if count >= cap:
        raise RateLimited(
            f"You host {count} waiting tables, the most one player may; start or leave one "
            "before creating another.",
            retry_after=60,
        )


def shown_to(view: dict[str, Any]) -> dict[str, Any]:
    """The view as its caller may see it: the game number only to the table's own seats.

    A game number is the key to a table's seats (join by number and name), and public chains
    led to live ones (a leaderboard's finished match -> its rematch -> that table's view)."""
    if view.get("you") is None and view.get("code") is not None:
        return {**view, "code": None}
    return view
