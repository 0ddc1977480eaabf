"""New tables and their seats: creating a match, joining one by its number, rematches.

A new match is built in memory (`table.new_table`: a fresh secret, the seats and their
`seat_joined` events) and inserted in one transaction with a free game number; joins and
rematches are steps of the write core like any other.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg

from domino_api import engine
from domino_api.engine import EngineError
from domino_api.engine import table as tables
from domino_api.engine.errors import MatchFull
from domino_api.engine.event_types import SeatJoinedData
from domino_api.engine.rulesets import Options
from domino_api.engine.table import Stepped, Table
from domino_api.engine.table.new import NewSeat
from domino_api.engine.view_types import ViewOut
from domino_api.errors import Blocked, RateLimited, ServiceError, ValidationFailed
from domino_api.matches import access, claims, correspondence, pacing
from domino_api.matches import rated as rating_rules
from domino_api.matches.hosting import Caps, check_open_tables, rematch_room
from domino_api.matches.schemas import BotSeat, HumanSeat, MatchCreate, as_overrides
from domino_api.matches.service import Reader, view_for
from domino_api.matches.unit import Core, Stage
from domino_api.players import settings
from domino_api.store import civil_repo, match_codes, match_reads
from domino_api.store.db import transaction
from domino_api.store.models import Player
from domino_api.web.ratelimit import Limits

T = TypeVar("T")

# Every refused join answers this long after it arrived (see `join_by_number`).
JOIN_REFUSAL_S = 0.05


def ruleset_for_seats(name: str, options: Options, seats: int) -> engine.Ruleset:
    """The seat list sets `players` where the preset allows 2-4, else must equal it."""
    if "players" in options:
        raise engine.BadOptions("players is set by the seat list, not by options.")
    ruleset = engine.make_ruleset(name, options)
    if seats == ruleset.players:
        return ruleset
    try:
        return engine.make_ruleset(name, {**options, "players": seats})
    except engine.BadOptions:
        raise engine.BadOptions(
            f"{name} is played by {ruleset.players} players; the seat list has {seats}."
        ) from None


def _seat_specs(host: Player, specs: list[HumanSeat | BotSeat]) -> list[NewSeat]:
    rows: list[NewSeat] = []
    for number, spec in enumerate(specs):
        if isinstance(spec, BotSeat):
            rows.append(NewSeat(type="bot", strategy=spec.strategy))
            continue
        holder = host.id if number == 0 or spec.holder == "host" else None
        rows.append(NewSeat(type="human", player_id=holder, name=spec.name))
    return rows


async def create_match(
    core: Core,
    host: Player,
    body: MatchCreate,
    caps: Caps | None = None,
    address: str = "",
    rated: bool | None = None,
) -> ViewOut:
    specs = body.seats or [HumanSeat(), HumanSeat()]
    if not isinstance(specs[0], HumanSeat):
        raise ValidationFailed("seats.0: seat 0 is the host's seat and must be human.")
    given, spectators = access.table_options(as_overrides(body.options))
    seats = _seat_specs(host, specs)
    solo = all(s.type == "bot" or s.player_id == host.id for s in seats)
    access.refuse_solo_clocks(given, solo)
    given, per_move_s = correspondence.take_per_move(given, solo)
    given, talk = access.take_talk(given)
    options = settings.match_options(host.settings, body.ruleset, given)
    ruleset = ruleset_for_seats(body.ruleset, options, len(specs))
    access.check_talk(talk, ruleset)
    holders = {host.id: (host.name, host.tile_back)}
    cap = None if caps is None else _caps_check(address, caps)
    table = await insert(
        core,
        ruleset,
        seats,
        holders,
        host.id,
        address,
        solo=solo,
        spectators=spectators,
        rated=rating_rules.at_creation(rated, seats),
        per_move_s=per_move_s,
        talk_etiquette=talk,
        before=cap,
    )
    return view_for(table, host, core)


def _caps_check(
    address: str, caps: Caps
) -> Callable[[asyncpg.Connection, str, bool], Awaitable[None]]:
    async def check(connection: asyncpg.Connection, player_id: str, numbered: bool) -> None:
        await check_open_tables(connection, player_id, address, numbered, caps)

    return check


async def insert(
    core: Core,
    ruleset: engine.Ruleset,
    seats: list[NewSeat],
    holders: dict[str, tuple[str, str]],
    host_player_id: str,
    host_address: str,
    *,
    solo: bool,
    spectators: bool,
    rated: bool = False,
    per_move_s: int | None = None,
    talk_etiquette: bool = False,
    match_id: str | None = None,
    before: Callable[[asyncpg.Connection, str, bool], Awaitable[None]] | None = None,
) -> Table:
    """Store a new match, with a free game number if a remote human can join it
    (engine/table `needs_number`), and its seats; announce it once committed.

    `before(connection, player_id, numbered)` runs first in the same transaction (the caps;
    a pairing's claim of its seeks, which names the match by the `match_id` it chose)."""
    now = core.clock.now()
    new = tables.new_table(
        match_id or str(uuid.uuid4()),
        ruleset,
        secrets.token_bytes(32),
        now,
        seats,
        holders,
        host_player_id=host_player_id,
        host_address=host_address,
        solo=solo,
        spectators=spectators,
        rated=rated,
        per_move_s=per_move_s,
        talk_etiquette=talk_etiquette,
    )
    numbered = tables.needs_number(new.table)
    async with core.writer.transaction() as tx:
        if before is not None:
            await before(tx.connection, host_player_id, numbered)
        if numbered:
            code = await match_codes.free_code(tx.connection)
            new = Stepped(tables.with_info(new.table, code=code), new.events)
        inserted = await tx.insert(new, now)
    return inserted.table


async def join_by_number(
    core: Core,
    limits: Limits,
    player: Player,
    code: str,
    name: str | None,
    address: str,
) -> ViewOut:
    """`join` under the budgets against guessing (matches/claims.py): refused at once while one
    is spent out; each refusal spends them and answers no sooner than `JOIN_REFUSAL_S` after
    the request came, so timing does not tell an unknown number from a started table."""
    refused: ServiceError | None = None
    try:
        await limits.hit_from("join", address, f"player:{player.id}")
    except RateLimited as exc:
        refused = exc
    match_id, seated = await find(core, code, player)
    if seated:  # its own seat, never a guess: no budget refuses it (issue 48)
        return await join(core, player, code, name, match_id)
    if refused is not None:
        raise refused
    guess = claims.guess_budgets(code, player.id, address)
    await claims.check(limits, guess)
    outcome = claims.Outcome()
    started = time.perf_counter()
    try:
        return await join(core, player, code, name, match_id, outcome)
    except (ServiceError, EngineError):
        await claims.spend(limits, guess, outcome)
        await pacing.until(started + JOIN_REFUSAL_S)
        raise


async def find(core: Core, code: str, player: Player) -> tuple[str | None, bool]:
    """The live match with this number, and whether the caller holds a seat at it (a player
    of the table, whose joins no stranger's guesses may lock out: routes.join)."""
    async with transaction(core.maker) as session:
        match_id, seated = await match_reads.live_by_code(session, code, player.id)
        # A player the host blocked takes no seat there (matches/civil.py); one it holds stays.
        if match_id and not seated and await civil_repo.host_blocked(session, match_id, player.id):
            raise Blocked("The host of this table has blocked you from their tables.")
        return match_id, seated


async def join(
    core: Core,
    player: Player,
    code: str,
    name: str | None = None,
    match_id: str | None = None,
    outcome: claims.Outcome | None = None,
) -> ViewOut:
    """Join by number (`match_id`: the live match `find` found for it): a free seat, or by
    name a seat whose holder has been gone for the presence lease (`core.lease_s`,
    engine/table/seats.py); a started table answers outsiders as unknown."""
    if match_id is None:
        raise tables.unknown_number(code, core.lease_s)
    witness = await core.witness()  # a claim by name counts only time the service could see
    command = tables.Join(
        player.id, player.name, player.tile_back, code, name, core.lease_s, witness
    )

    def step(stage: Stage) -> ViewOut:
        if outcome is not None:
            wanted = name or player.name
            outcome.right_name = bool(tables.same_name(stage.table, player.id, wanted))
        table = stage.do(command)
        return view_for(table, player, core, _joined_seat(stage, player.id))

    return await core.run(match_id, step, player_id=player.id, action="join")


def _joined_seat(stage: Stage, player_id: str) -> int | None:
    """The seat a join just took (None: the caller held one already, and sees its own)."""
    for event in reversed(stage.events):
        data = event.data
        if not isinstance(data, SeatJoinedData) or data.released is True:
            continue
        if stage.table.seats[data.seat].player_id == player_id:
            return data.seat
    return None


async def rematch(
    core: Core, player: Player, match_id: str, seat: int | None, caps: Caps | None = None
) -> ViewOut:
    def read(stage: Stage, chosen: int | None) -> ViewOut:
        return view_for(stage.table, player, core, chosen)

    return await offer_rematch(core, player, match_id, seat, caps, read)


async def offer_rematch(
    core: Core,
    player: Player,
    match_id: str,
    seat: int | None,
    caps: Caps | None,
    read: Reader[T],
) -> T:
    """Offer (or accept) a rematch; `read` answers (the view, or the socket's seq)."""
    async with core.pool.acquire() as connection:
        # Drawn before the step knows whether the new table needs one (a rematch against
        # computers does not): with every number in use, only a table that needs one is refused.
        # Taken meanwhile: the insert redraws.
        code: str | MatchFull
        try:
            code = await match_codes.free_code(connection)
        except MatchFull as full:
            code = full  # raised only if the new table needs a number
        # Counted before the step, not under the caps' locks: at most one rematch per
        # finished match can slip past a cap reached at the same moment.
        room = caps is None or await rematch_room(connection, match_id, caps)

    def step(stage: Stage) -> T:
        chosen = tables.pick_seat(stage.table, player.id, seat)
        table = stage.do(tables.OfferRematch(player.id, seat))
        if tables.rematch_agreed(table):
            new = _rematch_table(core, table, code)
            if new.table.match.code is not None and not room:
                raise RateLimited(
                    "The host or its address holds as many open tables with a game number"
                    " as allowed; finish or leave one, then offer the rematch again.",
                    retry_after=60,
                )
            stage.created.append(new)
            stage.do(tables.RematchCreated(new.table.match.id))
        return read(stage, chosen)

    return await core.run(match_id, step, player_id=player.id)


def _rematch_table(core: Core, table: Table, code: str | MatchFull) -> Stepped:
    seats = [
        NewSeat(type=row.type, strategy=row.strategy, player_id=row.player_id, name=row.name)
        for row in table.seats
    ]
    holders = {pid: (name, table.tile_backs.get(pid, "moon")) for pid, name in table.names.items()}
    new = tables.new_table(
        str(uuid.uuid4()),
        table.state.ruleset,
        secrets.token_bytes(32),
        core.clock.now(),
        seats,
        holders,
        code=code if isinstance(code, str) else None,
        host_player_id=table.match.host_player_id,
        host_address=table.match.host_address,
        solo=table.match.solo,
        spectators=table.match.spectators,
        rated=table.match.rated,
        per_move_s=table.match.per_move_s,
        talk_etiquette=table.match.talk_etiquette,
    )
    if not tables.needs_number(new.table):  # a rematch against computers only: no number
        return Stepped(tables.with_info(new.table, code=None), new.events)
    if isinstance(code, MatchFull):
        raise code
    return new
