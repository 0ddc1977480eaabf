"""Quick pairing ("Play anyone now"): a seek asks for a game of one preset and options; two
seekers of the same preset and options are seated at a new two-seat match, the older seeker
as its host at seat 0.

A seek is open while its lease holds: its holder renews it by polling it, or by a lobby socket
that names it (lobby/socket.py); a seek whose lease lapsed is never paired and reads
`expired`. Pairing runs right after a seek is stored, on a poll, and in every process's lobby
sweep (`pair_waiting`). A pairing reads two candidates, then in the transaction that inserts
their match claims both seeks `FOR UPDATE SKIP LOCKED` (store/lobby_repo.py `claim`): if
either is taken by another pairing at that moment, or left, the match is rolled back with the
claim and the pairing reads again, so no seeker is ever seated twice. The pairing is stored as
a `seek_paired` event for each seeker, for its own sockets alone, and published after the
commit like any lobby event.
"""

from __future__ import annotations

import uuid
from functools import partial
from typing import cast

import asyncpg
import msgspec

from domino_api import engine
from domino_api.engine.table.new import NewSeat
from domino_api.errors import SeekNotFound
from domino_api.jsontext import load_object
from domino_api.lobby.events import SeekPaired
from domino_api.lobby.models import SeekCreate, SeekOut, SeekStatus
from domino_api.lobby.tables import Publish, stored
from domino_api.matches import access, creation
from domino_api.matches.schemas import MatchOptions
from domino_api.matches.unit import Core
from domino_api.store import lobby_repo, players_repo
from domino_api.store.db import transaction
from domino_api.store.lobby_repo import SeekRow
from domino_api.store.models import Player

# Preset options as one canonical text: seekers match on it exactly.
_CANONICAL = msgspec.json.Encoder(order="sorted").encode
# Candidates read per pairing pass, and passes before leaving the rest to the sweep.
CANDIDATES = 50
ATTEMPTS = 3


class _Taken(Exception):
    """A seek of the pair was claimed by another pairing, or left, meanwhile."""


def _out(row: SeekRow, lease_s: float) -> SeekOut:
    return SeekOut(
        id=row.id,
        status=cast(SeekStatus, row.status),  # the column holds these alone
        ruleset=row.ruleset,
        options=MatchOptions.model_validate_json(row.options_key),
        match=row.match_id,
        seat=row.seat,
        lease_s=lease_s,
    )


def _ruleset(name: str, options_key: str) -> engine.Ruleset:
    given, _ = access.table_options(load_object(options_key))
    return creation.ruleset_for_seats(name, given, 2)


async def create(
    core: Core, player: Player, body: SeekCreate, lease_s: float, publish: Publish
) -> SeekOut:
    """Store an open seek (cancelling the caller's others) and try to pair it at once."""
    options_key = _CANONICAL(body.options).decode()
    _ruleset(body.ruleset, options_key)  # an unknown preset or options it does not take: 422
    seek_id = str(uuid.uuid4())
    async with core.pool.acquire() as connection:
        row = await lobby_repo.insert_seek(
            connection,
            seek_id,
            player.id,
            body.ruleset,
            options_key,
            lease_s,
            core.clock.now(),
        )
    await pair(core, row.ruleset, row.options_key, publish)
    return await read(core, player, seek_id, lease_s, publish)


async def read(
    core: Core, player: Player, seek_id: str, lease_s: float, publish: Publish
) -> SeekOut:
    """The caller's seek, its lease renewed while it is open (a poll keeps it alive)."""
    async with core.pool.acquire() as connection:
        await lobby_repo.renew(connection, [seek_id], player.id, lease_s)
        row = await lobby_repo.seek_of(connection, seek_id, player.id)
    if row is None:
        raise SeekNotFound("You have no seek with this id.")
    if row.status == "open" and await pair(core, row.ruleset, row.options_key, publish):
        async with core.pool.acquire() as connection:
            row = await lobby_repo.seek_of(connection, seek_id, player.id) or row
    return _out(row, lease_s)


async def cancel(core: Core, player: Player, seek_id: str, lease_s: float) -> SeekOut:
    """Leave the queue; a seek already paired stays paired (its seat is taken)."""
    async with core.pool.acquire() as connection:
        await lobby_repo.cancel(connection, seek_id, player.id)
        row = await lobby_repo.seek_of(connection, seek_id, player.id)
    if row is None:
        raise SeekNotFound("You have no seek with this id.")
    return _out(row, lease_s)


async def pair_waiting(core: Core, publish: Publish) -> int:
    """The sweep's pass: pair whatever waits in every preset and options; returns matches."""
    async with core.pool.acquire() as connection:
        keys = await lobby_repo.waiting_keys(connection)
    made = 0
    for ruleset, options_key in keys:
        made += await pair(core, ruleset, options_key, publish)
    return made


async def pair(core: Core, ruleset: str, options_key: str, publish: Publish) -> int:
    """Seat waiting seekers of one preset and options two by two; returns matches made."""
    made = 0
    for _ in range(ATTEMPTS):
        async with core.pool.acquire() as connection:
            waiting = await lobby_repo.candidates(connection, ruleset, options_key, CANDIDATES)
        pairs = _pairs(waiting)
        if not pairs:
            return made
        try:
            for older, newer in pairs:
                await _seat(core, older, newer)
                made += 1
        except _Taken:
            continue
        finally:
            if made:
                publish()
        return made
    return made


def _pairs(waiting: list[SeekRow]) -> list[tuple[SeekRow, SeekRow]]:
    """Oldest first, two by two, never a player with itself."""
    pairs, single = [], None
    for seek in waiting:
        if single is None:
            single = seek
        elif seek.player_id != single.player_id:
            pairs.append((single, seek))
            single = None
    return pairs


async def _seat(core: Core, older: SeekRow, newer: SeekRow) -> None:
    """A new match for the pair, inserted only if both seeks are claimed in its transaction."""
    async with transaction(core.maker) as session:
        players = await players_repo.by_ids(session, [older.player_id, newer.player_id])
    if len(players) < 2:
        raise _Taken  # a player gone meanwhile
    ruleset = _ruleset(older.ruleset, older.options_key)
    _, spectators = access.table_options(load_object(older.options_key))
    seats = [NewSeat(type="human", player_id=s.player_id) for s in (older, newer)]
    holders = {p.id: (p.name, p.tile_back) for p in players.values()}
    match_id = str(uuid.uuid4())
    claim = partial(_claim, seeks=(older, newer), match_id=match_id)
    await creation.insert(
        core,
        ruleset,
        seats,
        holders,
        older.player_id,
        "",  # a pairing has no host address: the caps on numbered tables are not asked
        solo=False,
        spectators=spectators,
        before=claim,
        match_id=match_id,
    )


async def _claim(
    connection: asyncpg.Connection,
    _host: str,
    numbered: bool,
    *,
    seeks: tuple[SeekRow, SeekRow],
    match_id: str,
) -> None:
    ids = [seek.id for seek in seeks]
    if sorted(await lobby_repo.claim(connection, ids)) != sorted(ids):
        raise _Taken
    seats = [(seek.id, seat) for seat, seek in enumerate(seeks)]
    await lobby_repo.mark_paired(connection, match_id, seats)
    events = [
        stored(SeekPaired(ruleset=seek.ruleset, seek=seek.id, match=match_id, seat=seat), seek.id)
        for seek, seat in zip(seeks, (0, 1), strict=True)
    ]
    await lobby_repo.append_events(connection, events)


async def hold(core: Core, player: Player, seek_ids: list[str], lease_s: float) -> None:
    """A lobby socket's renewal of the seeks it holds."""
    async with core.pool.acquire() as connection:
        await lobby_repo.renew(connection, seek_ids, player.id, lease_s)
