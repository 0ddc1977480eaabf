"""Quick pairing ("Play anyone now"): a seek asks for a game of one preset and options; as
many seekers of the same preset and options as its table seats (two; four for a partnership
preset, docs/RULES.md 14) are seated at a new match in the order they came, the oldest
seeker as its host at seat 0. Two seekers of a partnership preset who name each other as
`partner` are one team, seated together as partners at seats 0 and 2 (lobby/seek_teams.py).

A seek is open while its lease holds: its holder renews it by polling it, or by a lobby socket
that names it (lobby/socket.py); a seek whose lease lapsed is never paired and reads
`expired`; a cancelled one is gone (`404 seek_not_found`). Pairing runs right after a seek is
stored, on a poll and on a socket's renewal: no timer of its own. A pairing reads a
group of candidates, then in the transaction that inserts their match claims every seek of
the group `FOR UPDATE SKIP LOCKED` (store/lobby_repo.py `claim`): if any is taken by another
pairing at that moment, or left, the match is rolled back with the claim and the pairing
reads again, so no seeker is ever seated twice. The claim also holds
what a table's host is held to: two seekers one of whom blocked the other (matches/civil.py)
are never seated together, and the host (the oldest seeker) stays within its numbered tables' cap
(matches/hosting.py). The match is rated when every seeker asked, and it is dealt at once
(the oldest seeker's `Start`), so all land at a table in play. The pairing is stored as a
`seek_paired` event for each seeker, for its own sockets alone, and published after the
commit like any lobby event.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from functools import partial

import asyncpg
import msgspec

from domino_api import engine
from domino_api.engine import table as tables
from domino_api.engine.kinds import Json
from domino_api.engine.rulesets import Options
from domino_api.engine.table.new import NewSeat
from domino_api.errors import PlayerNotFound, RateLimited, SeekNotFound, ValidationFailed
from domino_api.jsontext import load_object
from domino_api.lobby import seek_teams
from domino_api.lobby.events import SeekPaired
from domino_api.lobby.models import SeekCreate, SeekOut, SeekStatus
from domino_api.lobby.tables import Publish, stored
from domino_api.matches import access, creation
from domino_api.matches.hosting import Caps, check_numbered
from domino_api.matches.schemas import MatchOptions, as_overrides
from domino_api.matches.unit import Core, Stage
from domino_api.store import civil_repo, lobby_repo, players_repo
from domino_api.store.db import transaction
from domino_api.store.lobby_repo import SeekRow
from domino_api.store.models import Player

# Preset options as one canonical text: seekers match on it exactly.
_CANONICAL = msgspec.json.Encoder(order="sorted").encode
# Candidates read per pairing pass, and passes before leaving the rest to the sweep.
CANDIDATES = 50
ATTEMPTS = 3


# A seek row's status as shown; a `cancelled` row (kept until the sweep) is shown as gone.
_SHOWN: Mapping[str, SeekStatus] = {"open": "open", "paired": "paired", "expired": "expired"}


class _Taken(Exception):
    """A seek of the pair was claimed by another pairing, or left, meanwhile."""


def _out(row: SeekRow | None, lease_s: float) -> SeekOut:
    status = None if row is None else _SHOWN.get(row.status)
    if row is None or status is None:
        raise SeekNotFound("You have no seek with this id (a cancelled seek is gone).")
    return SeekOut(
        id=row.id,
        status=status,
        ruleset=row.ruleset,
        options=msgspec.json.decode(row.options_key, type=MatchOptions),
        rated=row.rated,
        match=row.match_id,
        seat=row.seat,
        partner=row.partner_id,
        lease_s=lease_s,
    )


def _options_key(options: MatchOptions) -> str:
    """The options as the one canonical text seekers are matched on; `talk: "free"` is what a
    table without `talk` has, so it is left out and the two pair (docs/API.md, Pairing)."""
    given = as_overrides(options)
    if given.get("talk") == "free":
        del given["talk"]
    return _CANONICAL(given).decode()


def _table_options(options_key: str) -> tuple[dict[str, Json], bool, bool]:
    """The preset's overrides, and the table's own `spectators` and talk by etiquette, as a
    new match takes them (matches/access.py)."""
    given, spectators = access.table_options(load_object(options_key))
    given, etiquette = access.take_talk(given)
    return given, spectators, etiquette


def _ruleset(name: str, options_key: str) -> engine.Ruleset:
    given, _, etiquette = _table_options(options_key)
    ruleset = creation.ruleset_for_seats(name, given, seats_for(name, given))
    access.check_talk(etiquette, ruleset)  # etiquette is for partnership tables: else 422
    return ruleset


def seats_for(name: str, given: Options) -> int:
    """Seekers a pairing seats: a partnership preset's four (two teams), else two."""
    return 4 if engine.make_ruleset(name, given).partnership else 2


async def create(
    core: Core, player: Player, body: SeekCreate, lease_s: float, caps: Caps, publish: Publish
) -> SeekOut:
    """Store an open seek (cancelling the caller's others) and try to pair it at once. A
    seeker who holds as many numbered tables as a host may is refused (429) first."""
    options_key = _options_key(body.options)
    ruleset = _ruleset(body.ruleset, options_key)  # unknown, or options it does not take: 422
    if body.partner is not None:
        await _check_partner(core, player, body.partner, ruleset)
    seek_id = str(uuid.uuid4())
    async with core.pool.acquire() as connection:
        await check_numbered(connection, player.id, None, caps)
        row = await lobby_repo.insert_seek(
            connection,
            seek_id,
            player.id,
            body.ruleset,
            options_key,
            body.rated,
            lease_s,
            core.clock.now(),
            body.partner,
        )
    await pair(core, row.ruleset, row.options_key, caps, publish)
    return await read(core, player, seek_id, lease_s, caps, publish)


async def _check_partner(core: Core, player: Player, partner: str, ruleset: engine.Ruleset) -> None:
    """A team seeks a partnership preset, with another player who exists."""
    if not ruleset.partnership:
        raise ValidationFailed("partner: only a partnership preset's seek takes a partner.")
    if partner == player.id:
        raise ValidationFailed("partner: name another player, not yourself.")
    async with transaction(core.maker) as session:
        if not await players_repo.by_ids(session, [partner]):
            raise PlayerNotFound("partner: no player has this id.")


async def read(
    core: Core, player: Player, seek_id: str, lease_s: float, caps: Caps, publish: Publish
) -> SeekOut:
    """The caller's seek, its lease renewed while it is open (a poll keeps it alive)."""
    async with core.pool.acquire() as connection:
        await lobby_repo.renew(connection, [seek_id], player.id, lease_s)
        row = await lobby_repo.seek_of(connection, seek_id, player.id)
    found, key = _out(row, lease_s), row.options_key if row is not None else ""
    if found.status == "open" and await pair(core, found.ruleset, key, caps, publish):
        async with core.pool.acquire() as connection:
            row = await lobby_repo.seek_of(connection, seek_id, player.id) or row
    return _out(row, lease_s)


async def cancel(core: Core, player: Player, seek_id: str) -> None:
    """Leave the queue: the seek is gone; one already paired stays paired (its seat is
    taken). Another's or an unknown seek: `404 seek_not_found`."""
    async with core.pool.acquire() as connection:
        row = await lobby_repo.seek_of(connection, seek_id, player.id)
        if row is None or row.status == "cancelled":
            raise SeekNotFound("You have no seek with this id.")
        await lobby_repo.cancel(connection, seek_id, player.id)


async def pair(core: Core, ruleset: str, options_key: str, caps: Caps, publish: Publish) -> int:
    """Seat waiting seekers of one preset and options, a table's worth at a time (two, or
    a partnership's four); returns matches made."""
    made = 0
    for _ in range(ATTEMPTS):
        async with core.pool.acquire() as connection:
            waiting = await lobby_repo.candidates(connection, ruleset, options_key, CANDIDATES)
        groups = await _groups(core, waiting)
        if not groups:
            return made
        try:
            for group in groups:
                await _seat(core, group, caps)
                made += 1
        except _Taken:
            continue
        finally:
            if made:
                await publish()
        return made
    return made


async def _groups(core: Core, waiting: list[SeekRow]) -> list[list[SeekRow]]:
    """Oldest first, a table's worth at a time (in seat order), never a player twice at one
    table nor two players one of whom blocked the other (a block holds in pairing as at a
    table's door); a team of two (lobby/seek_teams.py) is seated whole or not at all."""
    if not waiting:
        return []
    first = waiting[0]
    size = _ruleset(first.ruleset, first.options_key).players
    async with transaction(core.maker) as session:
        apart = await civil_repo.blocked_pairs(session, [seek.player_id for seek in waiting])
    groups: list[list[SeekRow]] = []
    left = seek_teams.units(waiting, partial(_apart, apart))
    order = list(left)
    while sum(map(len, left)) >= size:
        group = [left.pop(0)]
        for unit in list(left):
            seated = [seek for sat in group for seek in sat]
            room = len(seated) + len(unit) <= size
            if room and all(_fits(apart, seek, sat) for seek in unit for sat in seated):
                group.append(unit)
                left.remove(unit)
        if sum(map(len, group)) == size:
            groups.append(seek_teams.seating(group))
        else:  # the oldest cannot be seated now; the ones passed over wait with the rest
            left.extend(group[1:])
            left.sort(key=order.index)
    return groups


def _fits(blocked: set[tuple[str, str]], one: SeekRow, other: SeekRow) -> bool:
    return one.player_id != other.player_id and not _apart(blocked, one, other)


def _apart(blocked: set[tuple[str, str]], one: SeekRow, other: SeekRow) -> bool:
    return (one.player_id, other.player_id) in blocked or (
        other.player_id,
        one.player_id,
    ) in blocked


async def _seat(core: Core, group: list[SeekRow], caps: Caps) -> None:
    """A new match for the group, inserted only if every seek is claimed in its transaction,
    then dealt at once by its host (the oldest seeker)."""
    older = group[0]
    async with transaction(core.maker) as session:
        players = await players_repo.by_ids(session, [s.player_id for s in group])
    if len(players) < len(group):
        raise _Taken  # a player gone meanwhile
    ruleset = _ruleset(older.ruleset, older.options_key)
    _, spectators, etiquette = _table_options(older.options_key)
    seats = [NewSeat(type="human", player_id=s.player_id) for s in group]
    holders = {p.id: (p.name, p.tile_back) for p in players.values()}
    match_id = str(uuid.uuid4())
    claim = partial(_claim, seeks=group, match_id=match_id, caps=caps)
    await creation.insert(
        core,
        ruleset,
        seats,
        holders,
        older.player_id,
        "",  # a pairing has no host address: the caps on numbered tables are not asked
        solo=False,
        spectators=spectators,
        rated=all(seek.rated for seek in group),
        talk_etiquette=etiquette,
        before=claim,
        match_id=match_id,
    )
    start = tables.Start(older.player_id, secrets.token_hex(8))

    def deal(stage: Stage) -> None:
        stage.do(start)

    await core.run(match_id, deal, action="start")


async def _claim(
    connection: asyncpg.Connection,
    _host: str,
    numbered: bool,
    *,
    seeks: list[SeekRow],
    match_id: str,
    caps: Caps,
) -> None:
    if numbered:
        try:  # the host's cap on numbered tables, as for a table it creates
            await check_numbered(connection, seeks[0].player_id, None, caps)
        except RateLimited:
            raise _Taken from None
    ids = [seek.id for seek in seeks]
    if sorted(await lobby_repo.claim(connection, ids)) != sorted(ids):
        raise _Taken
    seats = [(seek.id, seat) for seat, seek in enumerate(seeks)]
    await lobby_repo.mark_paired(connection, match_id, seats)
    events = [
        stored(SeekPaired(ruleset=seek.ruleset, seek=seek.id, match=match_id, seat=seat), seek.id)
        for seat, seek in enumerate(seeks)
    ]
    await lobby_repo.append_events(connection, events)


async def hold(
    core: Core, player: Player, seek_ids: list[str], lease_s: float, caps: Caps, publish: Publish
) -> None:
    """A lobby socket's renewal of the seeks it holds, and a pairing of the open ones."""
    async with core.pool.acquire() as connection:
        await lobby_repo.renew(connection, seek_ids, player.id, lease_s)
        rows = [await lobby_repo.seek_of(connection, seek_id, player.id) for seek_id in seek_ids]
    for row in rows:
        if row is not None and row.status == "open":
            await pair(core, row.ruleset, row.options_key, caps, publish)
