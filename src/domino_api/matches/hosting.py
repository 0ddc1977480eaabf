"""How many tables one player, and one address, may hold open (issue 16: one account took every
game number; issue 26: 1,100 addresses took them all with started solo tables and rematches).

Two caps, both checked in the creating transaction under advisory locks (per host, per
address), so two creations at the same moment cannot both pass a count:
- waiting tables per host (`DOMINO_OPEN_TABLES_PER_PLAYER`);
- live *numbered* tables (a table holds a game number only while a remote human can join or
  rejoin it: engine/table/seats.py `needs_number`) per host, per creating address and per its
  network, an IPv4 /24 (`DOMINO_NUMBERED_TABLES_PER_PLAYER`, `..._PER_ADDRESS`,
  `..._PER_NETWORK`; issue 41: 240 addresses of one /24 held 1,871 numbers), rematches
  included: a rematch counts for the host and the address of the table it follows.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
from msgspec.structs import replace

from domino_api.config import Settings
from domino_api.engine.view_types import ViewOut
from domino_api.errors import RateLimited
from domino_api.store import table_caps
from domino_api.web.ratelimit import network_key


@dataclass(frozen=True)
class Caps:
    waiting: int  # waiting tables per host
    numbered: int  # live numbered tables per host
    per_address: int  # live numbered tables per creating address
    per_network: int  # ... per creating address's network (IPv4 /24, IPv6 /64)


def caps_of(settings: Settings) -> Caps:
    return Caps(
        settings.open_tables_per_player,
        settings.numbered_tables_per_player,
        settings.numbered_tables_per_address,
        settings.numbered_tables_per_network,
    )


async def check_open_tables(
    connection: asyncpg.Connection, player_id: str, address: str, numbered: bool, caps: Caps
) -> None:
    """Inside the creating transaction: refuse a host past either cap."""
    await table_caps.lock(connection, f"host:{player_id}")
    count = await table_caps.waiting(connection, player_id)
    if count >= caps.waiting:
        raise RateLimited(
            f"You host {count} waiting tables, the most one player may; start or leave one "
            "before creating another.",
            retry_after=60,
        )
    if numbered:
        await table_caps.lock(connection, network_key(address))
        await check_numbered(connection, player_id, address, caps)


async def check_numbered(
    connection: asyncpg.Connection, player_id: str | None, address: str | None, caps: Caps
) -> None:
    """Refuse one more live numbered table for this host or address (429, retry in a minute)."""
    # One lock per network covers its addresses' counts as well (check_open_tables).
    checks = [
        (table_caps.numbered_by_host, player_id, caps.numbered, "you host"),
        (table_caps.numbered_by_address, address, caps.per_address, "your address holds"),
        (
            table_caps.numbered_by_network,
            None if address is None else network_pattern(address),
            caps.per_network,
            "your network holds",
        ),
    ]
    for count_of, key, cap, who in checks:
        if key is None:
            continue
        count = await count_of(connection, key)
        if count >= cap:
            raise RateLimited(
                f"{who.capitalize()} {count} open tables with a game number, the most allowed;"
                " finish or leave one first (a table against computers only needs no number).",
                retry_after=60,
            )


def network_pattern(address: str) -> str:
    """The LIKE pattern of the creating addresses in `address`'s network: an IPv4 /24 by its
    first three parts; any other key (an IPv6 /64 is one key already) as itself."""
    network = network_key(address).removeprefix("net:")
    if network.endswith("/24") and "." in network:
        return network.rsplit(".", 1)[0] + ".%"
    return address.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def rematch_room(connection: asyncpg.Connection, match_id: str, caps: Caps) -> bool:
    """Whether the host and address of `match_id` may hold one more numbered table (read
    before the rematch's step; a rematch is at most one per finished match)."""
    owners = await table_caps.owners(connection, match_id)
    if owners is None:
        return True
    try:
        await check_numbered(connection, owners[0], owners[1], caps)
    except RateLimited:
        return False
    return True


def shown_to(view: ViewOut) -> ViewOut:
    """The view as its caller may see it: the game number only to the table's own seats.

    A game number is the key to a table's seats (join by number and name), and public chains
    led to live ones (a leaderboard's finished match -> its rematch -> that table's view)."""
    if view.you is None and view.code is not None:
        return replace(view, code=None)
    return view
