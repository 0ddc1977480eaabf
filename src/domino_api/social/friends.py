"""Friends (docs/API.md, "Friends and challenges"): a request the other accepts.

A player asks another to be friends by adding it (by id or name); the other accepts by adding
it back, and from then on each sees the other in its friends list, online or not
(social/presence.py). Removing a friend ends the friendship for both; removing a request
withdraws it, and removing an incoming one declines it. Between two players one of whom blocked
the other (matches/civil.py) there is no request (`403 blocked`), and a friendship is hidden,
with its presence, for as long as the block lasts.
"""

from __future__ import annotations

import asyncpg

from domino_api.engine.clock_text import iso
from domino_api.errors import Blocked, NameAmbiguous, PlayerNotFound, Yourself
from domino_api.lobby.tables import Publish
from domino_api.matches.unit import Core
from domino_api.social.events import FriendAdded, FriendRequest, PlayerRef, addressed
from domino_api.social.models import FriendAnswer, FriendOut, FriendsOut, Named
from domino_api.store import lobby_repo, social_repo
from domino_api.store.models import Player
from domino_api.store.social_repo import Someone


async def find(connection: asyncpg.Connection, named: Named) -> Someone:
    """The player named by id or by name."""
    if isinstance(named.id, str):
        found = await social_repo.player(connection, named.id)
        if found is None:
            raise PlayerNotFound(f"No player has the id {named.id!r}.")
        return found
    assert isinstance(named.name, str)  # one of the two (Named)
    matches = await social_repo.named(connection, named.name)
    if not matches:
        raise PlayerNotFound(f"No player goes by the name {named.name!r}.")
    if len(matches) > 1:
        raise NameAmbiguous(f"More than one player goes by {named.name!r}: use the player's id.")
    return matches[0]


async def refuse_pair(connection: asyncpg.Connection, player: Player, other: Someone) -> None:
    """What holds between any two players who befriend or challenge: not oneself, no block."""
    if other.id == player.id:
        raise Yourself("That is you.")
    if await social_repo.blocked(connection, player.id, other.id):
        raise Blocked("One of you has blocked the other.")


async def add(core: Core, publish: Publish, player: Player, named: Named) -> FriendAnswer:
    """Ask to be friends, or accept the player's request by asking back."""
    events: list[tuple[str, str]] = []
    async with core.pool.acquire() as connection, connection.transaction():
        other = await find(connection, named)
        await refuse_pair(connection, player, other)
        await social_repo.lock_pair(connection, player.id, other.id)
        added = await social_repo.link(connection, player.id, other.id, core.clock.now())
        mutual = await social_repo.linked(connection, other.id, player.id)
        me, them = (
            PlayerRef(id=player.id, name=player.name),
            PlayerRef(id=other.id, name=other.name),
        )
        if added and mutual:
            online = await social_repo.online(connection, [player.id, other.id])
            events.append(addressed(other.id, FriendAdded(player=me, online=player.id in online)))
            events.append(addressed(player.id, FriendAdded(player=them, online=other.id in online)))
        elif added:
            events.append(addressed(other.id, FriendRequest(player=me)))
        if events:
            await lobby_repo.append_player_events(connection, events)
    if events:
        await publish()
    return FriendAnswer(status="friends" if mutual else "requested", player=them)


async def remove(core: Core, player: Player, other_id: str) -> None:
    """End a friendship, withdraw a request or decline one (nothing to end: done as well)."""
    async with core.pool.acquire() as connection:
        if await social_repo.player(connection, other_id) is None:
            raise PlayerNotFound(f"No player has the id {other_id!r}.")
        await social_repo.unlink(connection, player.id, other_id)


async def listing(core: Core, player: Player) -> FriendsOut:
    async with core.pool.acquire() as connection:
        friends = await social_repo.friends(connection, player.id)
        incoming = await social_repo.requests(connection, player.id, incoming=True)
        outgoing = await social_repo.requests(connection, player.id, incoming=False)
    return FriendsOut(
        friends=tuple(
            FriendOut(id=f.id, name=f.name, online=f.online, since=iso(f.since)) for f in friends
        ),
        incoming=tuple(PlayerRef(id=p.id, name=p.name) for p in incoming),
        outgoing=tuple(PlayerRef(id=p.id, name=p.name) for p in outgoing),
    )
