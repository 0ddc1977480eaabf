"""Who is online, for friends: a player is online while a socket of theirs is open, a lobby
socket or a table's (docs/ARCHITECTURE.md, "Presence").

Each player's online lease is a row of `player_presence`, kept as a seat's socket lease is
(matches/presence.py): every presence pass of a process (realtime/lifecycle.py) renews the
leases of the players whose sockets it holds, then records that it looked (jobs/witness.py),
then expires what ran out, as far as the service could see (`Witness.socket_held`: a lease
that ran out holds until every live process has looked since, so an outage never shows a
present player gone, and a player whose socket moved to another process stays online). A
lobby socket's player comes online at once (`arrive`); when a process holds no socket of a
player any more its lease ends at once (`left`), unless another process renews it first.

A player who comes online or goes offline is told to its friends, each a `friend_online` or
`friend_offline` on their lobby sockets (social/events.py), stored in the transaction that
changed `online` and published after its commit: the friends list (`online`) and the events
never disagree.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import asyncpg

from domino_api.errors import database_state
from domino_api.lobby.tables import Publish
from domino_api.matches.unit import Core
from domino_api.social.events import FriendOffline, FriendOnline, PlayerRef, addressed
from domino_api.store import lobby_repo, social_repo

log = logging.getLogger(__name__)


class Online:
    """This process's players online: those of its lobby sockets (`lobby`) and of its table
    sockets (`tables`), renewed and expired by its presence pass."""

    def __init__(
        self,
        core: Core,
        publish: Publish,
        lobby: Callable[[], set[str]],
        tables: Callable[[], Iterable[str]],
        lease_s: float,
    ) -> None:
        self.core = core
        self.publish = publish
        self.lobby = lobby
        self.tables = tables
        self.lease_s = lease_s

    def here(self) -> set[str]:
        return self.lobby() | set(self.tables())

    async def hold(self, lease_s: float) -> None:
        """The presence pass: renew every lease this process holds."""
        await self._renew(sorted(self.here()), lease_s)

    async def arrive(self, player_id: str) -> None:
        """A lobby socket opened: its player is online now (with the database away, from the
        next presence pass that reaches it)."""
        with _unless_away("arrival"):
            await self._renew([player_id], self.lease_s)

    async def left(self, player_id: str) -> None:
        """A lobby socket closed: if no other socket of the player is here, its lease ends
        (with the database away, it runs out by itself)."""
        if player_id in self.here():
            return
        with _unless_away("departure"):
            async with self.core.pool.acquire() as connection:
                await social_repo.release(connection, [player_id], self.core.clock.now())

    async def expire(self) -> None:
        """The presence pass, after it was recorded: players whose lease ran out, as far as
        the service could see, are offline; their friends are told."""
        witness = await self.core.witness()
        now = self.core.clock.now()
        async with self.core.pool.acquire() as connection, connection.transaction():
            ran_out = await social_repo.ran_out(connection, now)
            gone = [p for p, until in ran_out if not witness.socket_held(until, now)]
            if not gone:
                return
            await social_repo.mark_offline(connection, gone)
            await _tell_friends(connection, gone, online=False)
        await self.publish()

    async def _renew(self, player_ids: list[str], lease_s: float) -> None:
        if not player_ids:
            return
        until = self.core.clock.now() + timedelta(seconds=lease_s)
        async with self.core.pool.acquire() as connection, connection.transaction():
            came = await social_repo.hold(connection, player_ids, until)
            if not came:
                return
            await _tell_friends(connection, came, online=True)
        await self.publish()


@contextmanager
def _unless_away(doing: str) -> Iterator[None]:
    """A socket's own presence write, skipped while the database is away (a bug still raises)."""
    try:
        yield
    except Exception as exc:
        if database_state(exc) is None:
            raise
        log.warning("a player's %s was not recorded: the database is away", doing)


async def _tell_friends(
    connection: asyncpg.Connection, player_ids: list[str], online: bool
) -> None:
    friends = await social_repo.friends_of(connection, player_ids)
    names = await social_repo.names(connection, player_ids)
    rows: list[tuple[str, str]] = []
    for player_id in player_ids:
        ref = PlayerRef(id=player_id, name=names.get(player_id, ""))
        event = FriendOnline(player=ref) if online else FriendOffline(player=ref)
        rows += [addressed(friend, event) for friend in friends.get(player_id, [])]
    if rows:
        await lobby_repo.append_player_events(connection, rows)
