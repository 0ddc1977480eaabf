"""Challenges (docs/API.md, "Friends and challenges"): a player challenges another by id or
name, or makes an invitation link anyone signed in may take, with a preset, its options and
whether it is rated.

The challenged player is told (`challenge_received`) and accepts or declines it; its maker
may cancel it; each answer is told to the other side (`challenge_closed`). A challenge not
answered within `DOMINO_CHALLENGE_TTL_S` (10 minutes) expires: nothing runs at that moment,
every read and answer compares `expires_at` with the clock (it reads `expired`, an answer is
`410 challenge_expired`), and its maker's expired challenges are deleted a day later, when it
makes another.

An acceptance creates the match as quick pairing does (lobby/seeks.py): the new two-seat match
(the challenger at seat 0, its host; the acceptor at seat 1) is inserted only if the challenge
is claimed, still open and unexpired, in its transaction (so two answers never both win), with
each side's `challenge_closed` (its seat); then the challenger's `Start` deals it at once, and
the events are published after the commits. A block between the two (matches/civil.py) refuses
a challenge and its acceptance (`403 blocked`).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta
from functools import partial

import asyncpg
import msgspec

from domino_api import engine
from domino_api.engine import table as tables
from domino_api.engine.clock_text import iso
from domino_api.engine.table.new import NewSeat
from domino_api.errors import (
    ChallengeAnswered,
    ChallengeExpired,
    ChallengeNotFound,
    NotChallenged,
    Yourself,
)
from domino_api.jsontext import load_object
from domino_api.lobby.tables import Publish
from domino_api.matches import access, correspondence, creation
from domino_api.matches.hosting import Caps, check_numbered
from domino_api.matches.schemas import MatchOptions, as_overrides
from domino_api.matches.unit import Core, Stage
from domino_api.social import friends
from domino_api.social.events import (
    ChallengeClosed,
    ChallengeReceived,
    ChallengeShown,
    ChallengeStatus,
    Closed,
    PlayerRef,
    addressed,
)
from domino_api.social.models import ChallengeCreate, ChallengeOut, ChallengesOut
from domino_api.store import lobby_repo, players_repo, social_repo
from domino_api.store.db import transaction
from domino_api.store.models import Player
from domino_api.store.social_repo import ChallengeRow

_CANONICAL = msgspec.json.Encoder(order="sorted").encode
INVITE_PATH = "/play/#invite/"
KEEP_EXPIRED = timedelta(days=1)


def _table(name: str, options_key: str) -> tuple[engine.Ruleset, bool, int | None]:
    """The ruleset of the challenge's match, and its table's own options: `spectators`, and
    `per_move_s` (a correspondence table, matches/correspondence.py)."""
    given, spectators = access.table_options(load_object(options_key))
    given, per_move_s = correspondence.take_per_move(given, solo=False)
    return creation.ruleset_for_seats(name, given, 2), spectators, per_move_s


def _status(row: ChallengeRow, now: datetime) -> ChallengeStatus:
    if row.status == "open" and row.expires_at <= now:
        return "expired"
    status: ChallengeStatus = msgspec.convert(row.status, ChallengeStatus)
    return status


def shown(row: ChallengeRow, now: datetime) -> ChallengeShown:
    challenged = None if row.to_id is None else PlayerRef(id=row.to_id, name=row.to_name or "")
    return ChallengeShown(
        id=row.id,
        challenger=PlayerRef(id=row.from_id, name=row.from_name),
        challenged=challenged,
        ruleset=row.ruleset,
        options=msgspec.json.decode(row.options_key, type=MatchOptions),
        rated=row.rated,
        status=_status(row, now),
        match=row.match_id,
        created_at=iso(row.created_at) or "",
        expires_at=iso(row.expires_at) or "",
    )


def _seat(row: ChallengeRow, player_id: str) -> int | None:
    if row.match_id is None:
        return None
    return {row.from_id: 0, row.taken_by: 1}.get(player_id)


def out(row: ChallengeRow, reader: Player, now: datetime) -> ChallengeOut:
    """The challenge as `reader` is shown it: its seat, and the link if it made it. Its match
    is named only to the players it names or seats (a link's reader learns no match id)."""
    mine = reader.id == row.from_id
    party = reader.id in (row.from_id, row.to_id, row.taken_by)
    seen = msgspec.structs.replace(shown(row, now), match=row.match_id if party else None)
    return ChallengeOut(
        **msgspec.structs.asdict(seen),
        seat=_seat(row, reader.id),
        invite=INVITE_PATH + row.token if mine else None,
    )


async def create(
    core: Core, publish: Publish, player: Player, body: ChallengeCreate, ttl_s: float
) -> ChallengeOut:
    options_key = _CANONICAL(as_overrides(body.options)).decode()
    _table(body.ruleset, options_key)  # an unknown preset or options it does not take: 422
    now = core.clock.now()
    async with core.pool.acquire() as connection, connection.transaction():
        other = None
        if body.to is not None:
            other = await friends.find(connection, body.to.named())
            await friends.refuse_pair(connection, player, other)
        row = ChallengeRow(
            id=str(uuid.uuid4()),
            token=secrets.token_urlsafe(16),
            from_id=player.id,
            from_name=player.name,
            to_id=None if other is None else other.id,
            to_name=None if other is None else other.name,
            ruleset=body.ruleset,
            options_key=options_key,
            rated=body.rated,
            status="open",
            match_id=None,
            taken_by=None,
            created_at=now,
            expires_at=now + timedelta(seconds=ttl_s),
        )
        await social_repo.prune(connection, player.id, now - KEEP_EXPIRED)
        await social_repo.insert_challenge(connection, row)
        if other is not None:
            received = ChallengeReceived(challenge=shown(row, now))
            await lobby_repo.append_player_events(connection, [addressed(other.id, received)])
    if other is not None:
        await publish()
    return out(row, player, now)


async def _row(
    connection: asyncpg.Connection, player: Player, challenge_id: str | None, token: str | None
) -> ChallengeRow:
    """A challenge by id (its maker's, or the named player's) or by its link's token (anyone's)."""
    row = await social_repo.challenge(connection, challenge_id=challenge_id, token=token)
    parties = () if row is None else (row.from_id, row.to_id, row.taken_by)
    if row is None or (token is None and player.id not in parties):
        raise ChallengeNotFound("No challenge of yours has this id, nor invitation this token.")
    return row


async def read(
    core: Core, player: Player, challenge_id: str | None, token: str | None = None
) -> ChallengeOut:
    async with core.pool.acquire() as connection:
        row = await _row(connection, player, challenge_id, token)
    return out(row, player, core.clock.now())


async def listing(core: Core, player: Player) -> ChallengesOut:
    now = core.clock.now()
    async with core.pool.acquire() as connection:
        rows = await social_repo.open_challenges(connection, player.id, now)
    return ChallengesOut(
        incoming=tuple(out(r, player, now) for r in rows if r.from_id != player.id),
        outgoing=tuple(out(r, player, now) for r in rows if r.from_id == player.id),
    )


def _still_open(row: ChallengeRow, now: datetime) -> None:
    status = _status(row, now)
    if status == "expired":
        raise ChallengeExpired("The challenge expired unanswered.")
    if status != "open":
        raise ChallengeAnswered(f"The challenge was {status} already.")


async def _refused(connection: asyncpg.Connection, challenge_id: str, now: datetime) -> None:
    """Why a challenge read open could not be closed: answered or expired meanwhile."""
    again = await social_repo.challenge(connection, challenge_id=challenge_id)
    if again is not None:
        _still_open(again, now)
    raise ChallengeAnswered("The challenge was answered meanwhile.")


async def answer(
    core: Core, publish: Publish, player: Player, challenge_id: str, status: Closed
) -> ChallengeOut:
    """Decline (the challenged player) or cancel (its maker) an open challenge."""
    now = core.clock.now()
    async with core.pool.acquire() as connection, connection.transaction():
        row = await _row(connection, player, challenge_id, None)
        who = row.to_id if status == "declined" else row.from_id
        if player.id != who:
            whom = "the player challenged" if status == "declined" else "its maker"
            raise NotChallenged(
                f"Only {whom} may {'decline' if who == row.to_id else 'cancel'} it."
            )
        _still_open(row, now)
        if not await social_repo.close(connection, row.id, status, now):
            await _refused(connection, row.id, now)
        told = row.from_id if status == "declined" else row.to_id
        if told is not None:
            closed = ChallengeClosed(id=row.id, status=status, match=None, seat=None)
            await lobby_repo.append_player_events(connection, [addressed(told, closed)])
        row = await _row(connection, player, challenge_id, None)
    if told is not None:
        await publish()
    return out(row, player, now)


async def _acceptable(
    connection: asyncpg.Connection,
    player: Player,
    challenge_id: str | None,
    token: str | None,
    now: datetime,
) -> ChallengeRow:
    """The challenge, if the player may take it now (its claim checks it is open again)."""
    row = await _row(connection, player, challenge_id, token)
    if row.from_id == player.id:
        raise Yourself("You made this challenge: another player accepts it.")
    if row.to_id is not None and row.to_id != player.id:
        raise NotChallenged("The challenge names another player.")
    _still_open(row, now)
    challenger = await social_repo.player(connection, row.from_id)
    assert challenger is not None  # a player's challenges go with it (ON DELETE CASCADE)
    await friends.refuse_pair(connection, player, challenger)
    return row


async def accept(
    core: Core,
    publish: Publish,
    caps: Caps,
    player: Player,
    challenge_id: str | None,
    token: str | None = None,
) -> ChallengeOut:
    """Take the challenge's seat: the new match, started; its maker's `challenge_closed`."""
    now = core.clock.now()
    async with core.pool.acquire() as connection:
        row = await _acceptable(connection, player, challenge_id, token, now)
    async with transaction(core.maker) as session:
        players = await players_repo.by_ids(session, [row.from_id, player.id])
    holders = {p.id: (p.name, p.tile_back) for p in players.values()}
    match_id = str(uuid.uuid4())
    seats = [NewSeat(type="human", player_id=p) for p in (row.from_id, player.id)]
    ruleset, spectators, per_move_s = _table(row.ruleset, row.options_key)
    claim = partial(_claim, row=row, taker=player.id, match_id=match_id, caps=caps, now=now)
    await creation.insert(
        core,
        ruleset,
        seats,
        holders,
        row.from_id,
        "",  # an acceptance has no host address: the address caps are not asked
        solo=False,
        spectators=spectators,
        rated=row.rated,
        per_move_s=per_move_s,
        before=claim,
        match_id=match_id,
    )
    start = tables.Start(row.from_id, secrets.token_hex(8))

    def deal(stage: Stage) -> None:
        stage.do(start)

    await core.run(match_id, deal, action="start")
    await publish()
    return await read(core, player, row.id)


async def _claim(
    connection: asyncpg.Connection,
    _host: str,
    numbered: bool,
    *,
    row: ChallengeRow,
    taker: str,
    match_id: str,
    caps: Caps,
    now: datetime,
) -> None:
    """In the new match's transaction: the challenge, still open, becomes `accepted`, and
    both sides are told their seats (else the match is rolled back with the refusal)."""
    if numbered:  # the challenger's cap on numbered tables, as for a table it creates
        await check_numbered(connection, row.from_id, None, caps)
    if not await social_repo.close(
        connection, row.id, "accepted", now, match_id=match_id, taken_by=taker
    ):
        await _refused(connection, row.id, now)
    events = [
        addressed(seated, ChallengeClosed(id=row.id, status="accepted", match=match_id, seat=seat))
        for seat, seated in enumerate((row.from_id, taker))
    ]
    await lobby_repo.append_player_events(connection, events)
