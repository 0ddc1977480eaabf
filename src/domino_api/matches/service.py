"""Match operations: each is one transaction through the write path (never commits itself)."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.clock import Clock
from domino_api.errors import (
    CodeNotFound,
    LedgerSealedError,
    MatchFull,
    MatchInProgressError,
    NotHost,
    NotSeated,
    NotYourSeat,
    SeatForfeited,
    SeatInUse,
    SeatsEmpty,
    StaleSeq,
    ValidationFailed,
)
from domino_api.matches import access, timeouts
from domino_api.matches.schemas import MatchCreate, MoveBody, SeatSpec
from domino_api.matches.table import (
    OVER,
    Table,
    apply,
    flush,
    load,
    new_match_row,
    record,
    run_computers,
)
from domino_api.matches.views import build_view, event_for, is_connected
from domino_api.store import matches_repo
from domino_api.store.models import IdempotentAnswer, Player, Seat

SETTING_KEYS = ("target", "draw", "next_opener")


# ---------------------------------------------------------------- helpers


def pick_seat(table: Table, player: Player, seat: int | None, prefer_turn: bool = False) -> int:
    """Which of the caller's seats acts: the named one, else the one on turn, else the lowest."""
    mine = table.seats_of(player.id)
    if not mine:
        raise NotSeated("You hold no seat at this match.")
    if seat is not None:
        if seat not in mine:
            raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
        return seat
    if prefer_turn and table.state.turn in mine:
        return int(table.state.turn)
    return mine[0]


def view_for(table: Table, player: Player, clock: Clock, seat: int | None = None) -> dict[str, Any]:
    mine = table.seats_of(player.id)
    if seat is not None and seat not in mine:
        raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
    chosen = seat if seat is not None else (mine[0] if mine else None)
    return build_view(table, chosen, mine, clock.now())


async def open_table(
    session: AsyncSession, clock: Clock, match_id: str, player: Player | None
) -> Table:
    """Lock the match, apply whatever timeout is due first, then note the caller's presence.

    Timeouts come before the presence mark: a seat that has already been away past its limit
    forfeits even if this request is its return, exactly as the sweeper would have ruled.
    """
    table = await load(session, match_id, for_update=True)
    await timeouts.enforce(session, clock, table)
    if player is not None:
        now = clock.now()
        stale = seats_to_touch(table, player, now)
        if stale:
            await matches_repo.touch_seats(session, table.match.id, stale, now)
            for number in stale:
                table.seats[number].last_seen_at = now
    return table


def seats_to_touch(table: Table, player: Player, now: datetime) -> list[int]:
    """The caller's seats whose presence mark is due for renewal (none once the match is over)."""
    if table.over:
        return []
    mine = table.seats_of(player.id)
    return [n for n in mine if _needs_touch(table.seats[n].last_seen_at, now)]


# Presence marks closer together than this are skipped: a write saved on most requests, at
# the cost of the away clock starting up to this much early.
TOUCH_EVERY = timedelta(seconds=1)


def _needs_touch(last_seen: datetime | None, now: datetime) -> bool:
    return last_seen is None or now - last_seen >= TOUCH_EVERY


def _effective_options(player: Player, ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """Stored settings fill in options the preset allows; explicit options win (seed 004)."""
    catalog = {entry["name"]: entry for entry in engine.ruleset_catalog()}
    allowed = catalog.get(ruleset, {}).get("overrides", {})
    defaults = {
        k: v for k, v in (player.settings or {}).items() if k in SETTING_KEYS and k in allowed
    }
    return {**defaults, **options}


def _ruleset_for_seats(name: str, options: dict[str, Any], seats: int) -> engine.Ruleset:
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


def _seat_rows(match_id: str, host: Player, specs: list[SeatSpec]) -> list[Seat]:
    rows = []
    for number, spec in enumerate(specs):
        if spec.type == "bot":
            if spec.holder is not None or spec.name is not None:
                raise ValidationFailed(f"seats.{number}: a computer seat has no holder or name.")
            strategy = spec.strategy or "planner"
            rows.append(Seat(match_id=match_id, seat=number, type="bot", strategy=strategy))
            continue
        if spec.strategy is not None:
            raise ValidationFailed(f"seats.{number}: a human seat has no strategy.")
        holder = host.id if number == 0 or spec.holder == "host" else None
        row = Seat(match_id=match_id, seat=number, type="human", player_id=holder, name=spec.name)
        rows.append(row)
    for row in rows:
        row.autopilot = row.forfeited = row.ready = row.rematch = False
        row.connected = False
    return rows


# Game numbers drawn and looked up one by one before all live ones are read: with few tables
# the first draw is free, and reading every live number cost each creation O(live tables).
CODE_DRAWS = 20


async def _free_code(session: AsyncSession) -> str:
    for _ in range(CODE_DRAWS):
        code = f"{secrets.randbelow(10_000):04d}"
        if not await matches_repo.code_is_live(session, code):
            return code
    taken = await matches_repo.live_codes(session)  # crowded: draw among the free ones
    if len(taken) >= 9000:
        raise MatchFull("Every game number is in use; try again later.")
    while True:
        code = f"{secrets.randbelow(10_000):04d}"
        if code not in taken:
            return code


# ---------------------------------------------------------------- creation and seats


async def create_match(
    session: AsyncSession, clock: Clock, host: Player, body: MatchCreate
) -> dict[str, Any]:
    specs = body.seats or [SeatSpec(type="human"), SeatSpec(type="human")]
    if specs[0].type != "human":
        raise ValidationFailed("seats.0: seat 0 is the host's seat and must be human.")
    given, spectators = access.table_options(body.options)
    options = _effective_options(host, body.ruleset, given)
    ruleset = _ruleset_for_seats(body.ruleset, options, len(specs))
    match_id = str(uuid.uuid4())
    seats = _seat_rows(match_id, host, specs)
    solo = all(s.type == "bot" or s.player_id == host.id for s in seats)
    access.refuse_solo_clocks(given, solo)
    table = await _seat_new_table(
        session,
        clock,
        match_id,
        ruleset,
        host.id,
        seats,
        solo,
        {host.id: (host.name, host.tile_back)},
        spectators=spectators,
    )
    return view_for(table, host, clock)


def _joined_data(table: Table, row: Seat) -> dict[str, Any]:
    name = access.seat_name(table, row) if row.type == "human" else None
    if row.type == "bot":
        name = {"plain": "Plain", "planner": "Planner"}.get(row.strategy or "", "Computer")
    return {"seat": row.seat, "name": name, "type": row.type, "strategy": row.strategy}


async def join(
    session: AsyncSession, clock: Clock, player: Player, code: str, name: str | None = None
) -> dict[str, Any]:
    found = await matches_repo.live_by_code(session, code)
    if found is None:
        raise CodeNotFound(f"No open match has the number {code}.")
    table = await open_table(session, clock, found.id, player)
    if table.seats_of(player.id):
        return view_for(table, player, clock)
    now = clock.now()
    wanted = name or player.name
    same_name = [
        s
        for s in table.seats
        if s.type == "human" and s.player_id and access.seat_name(table, s) == wanted
    ]
    for row in same_name:
        if _recently_seen(table, row, now):
            raise SeatInUse(f"Seat {row.seat}'s holder {wanted!r} is still at the table.")
        return await _take_seat(session, clock, table, row, player, name)
    if table.state.status != "waiting":
        raise MatchInProgressError("This match has started; only its players can rejoin.")
    free = [s for s in table.seats if s.type == "human" and s.player_id is None]
    if not free:
        raise MatchFull("Every seat at this table is taken.")
    return await _take_seat(session, clock, table, free[0], player, name)


def _recently_seen(table: Table, row: Seat, now: Any) -> bool:
    lease = timedelta(seconds=30)
    seen = row.last_seen_at is not None and now - row.last_seen_at < lease
    return seen or is_connected(table, row.seat, now)


async def _take_seat(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    row: Seat,
    player: Player,
    name: str | None,
) -> dict[str, Any]:
    now = clock.now()
    row.player_id = player.id
    row.name = name or row.name  # a rejoin without a name keeps the seat's
    row.last_seen_at = now
    row.away_since = None
    table.names[player.id] = player.name
    table.tile_backs[player.id] = player.tile_back
    table.match.solo = False
    await record(session, clock, table, "seat_joined", _joined_data(table, row))
    return view_for(table, player, clock, row.seat)


async def start(
    session: AsyncSession,
    clock: Clock,
    player: Player,
    match_id: str,
    cut: str | None,
    fill_with_bots: bool,
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    return await start_on(session, clock, player, table, cut, fill_with_bots)


async def start_on(
    session: AsyncSession,
    clock: Clock,
    player: Player,
    table: Table,
    cut: str | None,
    fill_with_bots: bool,
) -> dict[str, Any]:
    """The host starts an opened table: empty seats to the computer if asked, then the deal."""
    _require_host(table, player)
    if table.state.status != "waiting":
        raise MatchInProgressError("The match has already started.")
    empty = [s for s in table.seats if s.type == "human" and s.player_id is None]
    if empty and not fill_with_bots:
        raise SeatsEmpty(f"Seats {[s.seat for s in empty]} are empty; or fill_with_bots.")
    for row in empty:
        row.type, row.strategy = "bot", "planner"
        await record(session, clock, table, "seat_joined", _joined_data(table, row))
    table.match.solo = not any(
        s.type == "human" and s.player_id != table.match.host_player_id for s in table.seats
    )
    chosen_cut = cut if cut is not None else secrets.token_hex(8)
    table.match.cut = chosen_cut
    await apply(session, clock, table, None, engine.Start(chosen_cut))
    return view_for(table, player, clock)


def _require_host(table: Table, player: Player) -> None:
    if table.match.host_player_id != player.id:
        raise NotHost("Only the host may do this.")


# ---------------------------------------------------------------- play


async def get_view(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    await access.require_watcher(session, table, player)
    return view_for(table, player, clock, seat)


def _move_action(body: MoveBody) -> Any:
    if body.action == "play":
        if body.tile is None:
            raise ValidationFailed("tile: a play names its tile, e.g. [3, 5].")
        return engine.Play(engine.canonical(body.tile), body.end)
    if body.tile is not None or body.end is not None:
        raise ValidationFailed(f"A {body.action} takes no tile or end.")
    return engine.Draw() if body.action == "draw" else engine.Pass()


async def move(
    session: AsyncSession,
    clock: Clock,
    player: Player,
    match_id: str,
    body: MoveBody,
    idempotency_key: str | None,
) -> tuple[int, dict[str, Any]]:
    table = await open_table(session, clock, match_id, player)
    if idempotency_key is not None:
        earlier = await matches_repo.idempotent_answer(session, player.id, idempotency_key)
        if earlier is not None and earlier.match_id == table.match.id:
            return earlier.status_code, earlier.body
    answer = await play_move(session, clock, player, table, body)
    if idempotency_key is not None:
        matches_repo.add(
            session,
            IdempotentAnswer(
                player_id=player.id,
                key=idempotency_key,
                match_id=table.match.id,
                status_code=200,
                body=answer,
                created_at=clock.now(),
            ),
        )
    return 200, answer


async def play_move(
    session: AsyncSession, clock: Clock, player: Player, table: Table, body: MoveBody
) -> dict[str, Any]:
    """A move on an opened table: the caller's seat acts, the computers reply; the answer."""
    seat = pick_seat(table, player, body.seat, prefer_turn=True)
    action = _move_action(body)
    if table.over:
        raise engine.MatchOver("The match is over.")
    if engine.is_stale(table.state, body.seq):
        raise StaleSeq(
            f"seq {body.seq} is stale; the match is at {table.state.seq}.", seq=table.state.seq
        )
    rows = await apply(session, clock, table, seat, action)
    return {"view": view_for(table, player, clock, seat), "events": _copies(rows, seat)}


def _copies(rows: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [event_for(row, seat) for row in rows]


async def next_hand(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    return await next_hand_on(session, clock, player, table, seat)


async def next_hand_on(
    session: AsyncSession, clock: Clock, player: Player, table: Table, seat: int | None
) -> dict[str, Any]:
    """The next hand of an opened table (a no-op once it has started); the caller's view."""
    chosen = pick_seat(table, player, seat)
    if table.state.status == "hand_over":
        await apply(session, clock, table, None, engine.NextHand())
    elif table.state.status == "waiting":
        raise engine.MatchNotStarted("The match has not started.")
    elif table.over:
        raise engine.MatchOver("The match is over.")
    return view_for(table, player, clock, chosen)


async def set_autopilot(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int, on: bool
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    if not 0 <= seat < len(table.seats):
        raise ValidationFailed(f"seat: there is no seat {seat}.")
    row = table.seats[seat]
    is_host = table.match.host_player_id == player.id
    if on and not is_host:
        raise NotHost("Only the host may hand a seat to the computer.")
    if not on and not is_host and row.player_id != player.id:
        raise NotYourSeat("Only the seat's holder or the host may take it back.")
    if row.type != "human":
        raise ValidationFailed(f"seat: seat {seat} is a computer seat.")
    if table.over:
        raise engine.MatchOver("The match is over.")
    if not on and row.forfeited:
        raise SeatForfeited(f"Seat {seat} has forfeited; it stays with the computer.")
    if row.autopilot != on:
        row.autopilot = on
        await record(
            session, clock, table, "autopilot_on" if on else "autopilot_off", {"seat": seat}
        )
        await run_computers(session, clock, table)
    return view_for(table, player, clock)


async def message(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, text: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    chosen = pick_seat(table, player, seat)
    rows = await record(
        session, clock, table, "message", {"seat": chosen, "name": player.name, "text": text}
    )
    return event_for(rows[0], chosen)


async def resign(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    chosen = pick_seat(table, player, seat)
    if table.over:
        raise engine.MatchOver("The match is over.")
    await forfeit(session, clock, table, chosen, "resign")
    return view_for(table, player, clock, chosen)


async def forfeit(
    session: AsyncSession, clock: Clock, table: Table, seat: int, cause: str
) -> list[dict[str, Any]]:
    """RULES 9: two seats -> the other wins; more -> the computer takes the seat for good."""
    if table.state.status == "waiting":
        if table.match.tournament_id is not None and len(table.seats) == 2:
            # Leaving a tournament match during check-in is a forfeit loss, not a no-show.
            return await forfeit_before_start(session, clock, table, seat)
        return await abandon(session, clock, table, "abandoned")
    if table.seats[seat].forfeited:
        raise SeatForfeited(f"Seat {seat} has already forfeited.")
    rows: list[dict[str, Any]] = []
    table.seats[seat].forfeited = True
    if len(table.seats) > 2 and not table.humans_in_play():
        # The last human seat leaving abandons the match: no winner, no records.
        return rows + await abandon(session, clock, table, "abandoned")
    rows += await apply(session, clock, table, None, engine.Forfeit(seat, cause))
    return rows


async def forfeit_before_start(
    session: AsyncSession, clock: Clock, table: Table, seat: int
) -> list[dict[str, Any]]:
    """Check-in closed with one seat ready: deal (server cut) and forfeit the absent seat, so
    the match has an ordinary result and the ready player advances (seed 004)."""
    cut = secrets.token_hex(8)
    table.match.cut = cut
    rows = await apply(session, clock, table, None, engine.Start(cut))
    table.seats[seat].forfeited = True
    return rows + await apply(session, clock, table, None, engine.Forfeit(seat, "check_in"))


async def abandon(
    session: AsyncSession, clock: Clock, table: Table, reason: str
) -> list[dict[str, Any]]:
    if table.over:
        return []
    return await apply(session, clock, table, None, engine.Abandon(reason))


async def ready(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    chosen = pick_seat(table, player, seat)
    if table.state.status != "waiting":
        raise MatchInProgressError("Check-in is over: the match has started.")
    row = table.seats[chosen]
    if not row.ready:
        row.ready = True
        await record(session, clock, table, "ready", {"seat": chosen})
        await timeouts.start_if_checked_in(session, clock, table)
    return view_for(table, player, clock, chosen)


async def rematch(
    session: AsyncSession, clock: Clock, player: Player, match_id: str, seat: int | None
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    chosen = pick_seat(table, player, seat)
    if not table.over:
        raise MatchInProgressError("A rematch is offered once the match is over.")
    if table.match.rematch_match_id is None:
        for number in table.seats_of(player.id):
            if not table.seats[number].rematch:
                table.seats[number].rematch = True
                await record(session, clock, table, "rematch_offered", {"seat": number})
        humans = [s for s in table.seats if s.type == "human" and s.player_id]
        if all(s.rematch for s in humans):
            new_id = await _create_rematch(session, clock, table)
            table.match.rematch_match_id = new_id
            await record(session, clock, table, "rematch_created", {"match_id": new_id})
    return view_for(table, player, clock, chosen)


async def _create_rematch(session: AsyncSession, clock: Clock, table: Table) -> str:
    match_id = str(uuid.uuid4())
    seats = [
        Seat(
            match_id=match_id,
            seat=row.seat,
            type=row.type,
            strategy=row.strategy,
            player_id=row.player_id,
            autopilot=False,
            forfeited=False,
            ready=False,
            rematch=False,
            connected=False,
        )
        for row in table.seats
    ]
    holders = {pid: (name, table.tile_backs.get(pid, "moon")) for pid, name in table.names.items()}
    await _seat_new_table(
        session,
        clock,
        match_id,
        table.state.ruleset,
        table.match.host_player_id,
        seats,
        table.match.solo,
        holders,
    )
    return match_id


async def _seat_new_table(
    session: AsyncSession,
    clock: Clock,
    match_id: str,
    ruleset: engine.Ruleset,
    host_id: str | None,
    seats: list[Seat],
    solo: bool,
    holders: dict[str, tuple[str, str]],
    spectators: bool = False,
) -> Table:
    """Store a new match (fresh secret, a free game number) with its seats, and announce them."""
    now = clock.now()
    for attempt in range(5):
        match, state = new_match_row(
            match_id,
            ruleset,
            now,
            code=await _free_code(session),
            host_player_id=host_id,
            solo=solo,
            spectators=spectators,
            due_at=now + timedelta(hours=24),
        )
        try:
            async with session.begin_nested():
                matches_repo.add(session, match)
                await session.flush()
            break
        except IntegrityError:  # two creators drew the same free code at once
            if attempt == 4:
                raise
    for row in seats:
        row.last_seen_at = now if row.player_id else None
    matches_repo.add(session, *seats)
    await session.flush()
    table = Table(match=match, seats=seats, state=state)
    table.names = {pid: name for pid, (name, _) in holders.items()}
    table.tile_backs = {pid: back for pid, (_, back) in holders.items()}
    for row in seats:
        if row.player_id or row.type == "bot":
            data = _joined_data(table, row)
            await record(session, clock, table, "seat_joined", data, write=False)
    await flush(session, table)  # every seat's event in one write
    return table


# ---------------------------------------------------------------- reading


async def events(
    session: AsyncSession,
    clock: Clock,
    player: Player,
    match_id: str,
    after: int,
    seat: int | None,
    limit: int = 1000,
) -> list[dict[str, Any]]:
    table = await open_table(session, clock, match_id, player)
    await access.require_watcher(session, table, player)
    mine = table.seats_of(player.id)
    if seat is not None and seat not in mine:
        raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
    viewer = seat if seat is not None else (mine[0] if mine else None)
    rows = await matches_repo.events_after(session, table.match.id, after, limit)
    return [event_for(row, viewer) for row in rows]


async def ledger(
    session: AsyncSession, clock: Clock, player: Player, match_id: str
) -> dict[str, Any]:
    table = await open_table(session, clock, match_id, player)
    if table.state.status not in OVER:
        raise LedgerSealedError("The ledger opens once the match is finished or abandoned.")
    return engine.ledger(table.state, seat_summaries(table), match_id=table.match.id)


def seat_summaries(table: Table) -> list[dict[str, Any]]:
    out = []
    for row in table.seats:
        name = access.seat_name(table, row) if row.type == "human" else None
        if row.type == "bot":
            name = {"plain": "Plain", "planner": "Planner"}.get(row.strategy or "", "Computer")
        out.append(
            {
                "seat": row.seat,
                "name": name,
                "type": row.type,
                "strategy": row.strategy,
                "forfeited": row.forfeited or bool(table.state.forfeited[row.seat]),
            }
        )
    return out


async def announce_tile_back(session: AsyncSession, clock: Clock, player: Player) -> None:
    for match_id in await matches_repo.matches_of_player(session, player.id):
        table = await load(session, match_id, for_update=True)
        for number in table.seats_of(player.id):
            data = {"seat": number, "tile_back": player.tile_back}
            await record(session, clock, table, "tile_back_changed", data)
