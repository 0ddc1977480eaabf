"""Tournament operations: each is one transaction (never commits itself).

A tournament's pairings are never stored as a structure of their own: they are recomputed from
the recorded seed (the seeded ``order`` of every entrant) and the decided results in
``tournament_matches`` with the pure code of ``pairing`` and ``standings``. That keeps the stored
rows small and makes the bracket exactly what anyone recomputing it from the seed gets.

Progression runs in ``progress``: at the start, and whenever a tournament match ends (the
match-end hook, tournaments/hooks.py, in the transaction that ended it), so newly ready
matches open at once.

Every change is also appended to the tournament's event feed (``tournament_events``, read with
``events``) in the same transaction, under the tournament row lock: ``entrant_joined``,
``entrant_left``, ``tournament_started``, ``round_opened``, ``match_opened``, ``match_decided``,
``round_completed``, ``tournament_finished`` and ``tournament_cancelled``.
"""

from __future__ import annotations

import functools
import secrets
import uuid
from datetime import timedelta

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.clock import Clock
from domino_api.engine.errors import NotHost
from domino_api.engine.table.new import NewSeat, new_table
from domino_api.errors import (
    EntrantLimitReached,
    EntrantLimitTooHigh,
    NotEnoughEntrants,
    TournamentNotFound,
    TournamentStarted,
    ValidationFailed,
)
from domino_api.matches.unit import Core, Stage
from domino_api.matches.writes import Insert
from domino_api.store import players_repo, tournaments_repo
from domino_api.store.db import (
    ANNOUNCER,
    after_commit,
)
from domino_api.store.json_types import JSONObject
from domino_api.store.models import (
    Player,
    Tournament,
    TournamentEntrant,
    TournamentMatch,
)
from domino_api.tournaments import event_types as ev
from domino_api.tournaments import pairing, pairs
from domino_api.tournaments import standings as standings_mod
from domino_api.tournaments.schemas import TournamentCreate, TournamentOut
from domino_api.tournaments.views import build_view, rebuild_bracket, records_of, seeded

# Seed 004: free up to 10 players, Club up to 20, corporate without a cap.
PLAN_CAPS: dict[str, int | None] = {"free": 10, "club": 20, "corporate": None}
PLANS = tuple(PLAN_CAPS)


def plan_cap(plan: str) -> int | None:
    return PLAN_CAPS.get(plan, PLAN_CAPS["free"])


async def emit(
    session: AsyncSession, clock: Clock, tournament: Tournament, data: ev.TournamentData
) -> int:
    """Append to the feed; each caller holds the tournament row lock (`tournaments_repo.lock`).
    The data's type (tournaments/event_types.py) names the event."""
    stored: JSONObject = msgspec.to_builtins(data)
    seq = await tournaments_repo.add_event(
        session, tournament.id, ev.EVENT_TYPE[type(data)], clock.now(), stored
    )
    _announce_after_commit(session, tournament.id, seq)
    return seq


def _announce_after_commit(session: AsyncSession, tournament_id: str, seq: int) -> None:
    """The feed's new seq goes out through the process's announcer once the unit of work has
    committed, as a match's does; without an announcer (an operator's command) nobody listens."""
    announcer = session.info.get(ANNOUNCER)
    if announcer is not None:
        after_commit(session, functools.partial(announcer.announce_tournament, tournament_id, seq))


# ---------------------------------------------------------------- creation and entrants


async def create(
    session: AsyncSession, clock: Clock, host: Player, body: TournamentCreate, check_in_s: float
) -> TournamentOut:
    # The plan is read fresh: operators change it from another process (`plan set`).
    plan = await players_repo.plan_of(session, host.id) or host.plan
    cap = plan_cap(plan)
    per = pairs.players_per_entrant(body.preset)  # a tournament of pairs counts pairs
    if cap is not None and body.max_entrants * per > cap:
        of_pairs = f" pairs ({body.max_entrants * per} players)" if per > 1 else ""
        raise EntrantLimitTooHigh(
            f"max_entrants {body.max_entrants}{of_pairs} is above the {plan} plan's cap of"
            f" {cap} players.",
            cap=cap // per,
        )
    options: JSONObject = msgspec.to_builtins(body.match)
    if body.next_opener is not None:
        options["next_opener"] = body.next_opener
    options["turn_clock"] = msgspec.to_builtins(body.clock)  # the host's clock for every match
    try:
        pairs.ruleset(body.preset, options)
    except engine.BadOptions as exc:
        raise ValidationFailed(str(exc)) from None
    now = clock.now()
    tournament = Tournament(
        id=str(uuid.uuid4()),
        name=body.name,
        format=body.format,
        status="open",
        host_player_id=host.id,
        match_options=options,
        preset=body.preset,
        max_entrants=body.max_entrants,
        check_in_s=int(check_in_s),
        seed=None,
        current_round=0,
        champion_id=None,
        created_at=now,
    )
    session.add(tournament)
    await session.flush()
    return await build_view(session, tournament)


async def _locked(session: AsyncSession, tournament_id: str) -> Tournament:
    if len(tournament_id) > 36:
        raise TournamentNotFound(f"No tournament {tournament_id[:40]!r}.")
    tournament = await tournaments_repo.lock(session, tournament_id)
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    return tournament


async def enter(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str, partner: str | None
) -> TournamentOut:
    """Enter for oneself; in a pairs tournament naming the `partner` (tournaments/pairs.py)."""
    tournament = await _locked(session, tournament_id)
    row = await tournaments_repo.entrant(session, tournament.id, player.id)
    if row is not None:
        pairs.check_again(tournament, row, partner)
        return await build_view(session, tournament)
    if tournament.status != "open":
        raise TournamentStarted("The tournament has started; entries are closed.")
    await pairs.check_entry(session, tournament, player, partner)
    entrants = await tournaments_repo.entrants(session, tournament.id)
    whole = pairs.completes(entrants, player.id, partner)  # the pair is counted already
    if not whole and pairs.counted(entrants) >= tournament.max_entrants:
        unit = "pairs" if pairs.of_pairs(tournament) else "entrants"
        raise EntrantLimitReached(
            f"The tournament is full ({tournament.max_entrants} {unit}).",
            max_entrants=tournament.max_entrants,
        )
    session.add(
        TournamentEntrant(
            tournament_id=tournament.id,
            player_id=player.id,
            entry_no=await tournaments_repo.next_entry_no(session, tournament.id),
            order=None,
            entered_at=clock.now(),
            partner_id=partner,
        )
    )
    await session.flush()
    await emit(session, clock, tournament, await pairs.joined(session, player, partner, whole))
    return await build_view(session, tournament)


async def leave(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str
) -> TournamentOut:
    tournament = await _locked(session, tournament_id)
    if tournament.status != "open":
        raise TournamentStarted("The tournament has started; entrants can no longer leave.")
    if await tournaments_repo.entrant(session, tournament.id, player.id) is not None:
        await tournaments_repo.remove_entrant(session, tournament.id, player.id)
        await session.flush()
        await emit(session, clock, tournament, ev.EntrantLeftData(player_id=player.id))
    return await build_view(session, tournament)


async def start(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str, insert: Insert
) -> TournamentOut:
    tournament = await _locked(session, tournament_id)
    if tournament.host_player_id != player.id:
        raise NotHost("Only the host may start the tournament.")
    if tournament.status != "open":
        raise TournamentStarted("The tournament has already started.")
    entrants = pairs.field(tournament, await tournaments_repo.entrants(session, tournament.id))
    if len(entrants) < 2:
        whole = " whole pairs" if pairs.of_pairs(tournament) else ""
        raise NotEnoughEntrants(
            f"A tournament needs at least 2{whole} entrants; it has {len(entrants)}."
        )
    seed = secrets.token_bytes(32)
    order = pairing.seeded_order(seed, [e.player_id for e in entrants])
    position = {player_id: i for i, player_id in enumerate(order)}
    for row in entrants:
        row.order = position[row.player_id]
    tournament.seed = seed
    tournament.status = "running"
    tournament.started_at = clock.now()
    await session.flush()
    await emit(session, clock, tournament, ev.TournamentStartedData(seed=seed.hex(), order=order))
    await progress(session, clock, tournament, insert)
    return await build_view(session, tournament)


# ---------------------------------------------------------------- progression


async def progress(
    session: AsyncSession, clock: Clock, tournament: Tournament, insert: Insert
) -> None:
    """Open every match that has become ready (each inserted by `insert`: the write driver's,
    matches/writes.py); crown the champion once there is one."""
    if tournament.status != "running":
        return
    order = await seeded(session, tournament)
    rows = await tournaments_repo.matches(session, tournament.id)
    if tournament.format == "single_elimination":
        bracket = rebuild_bracket(order, rows)
        if bracket.champion is not None:
            await _finish(session, clock, tournament, bracket.champion)
            return
        have = {(row.round, row.index) for row in rows}
        opened = {row.round for row in rows}
        for slot in bracket.ready():
            pair = slot.pair
            if pair is not None and (slot.key.round, slot.key.index) not in have:
                if slot.key.round not in opened:
                    # A round opens with its first match (round 1 also shows its byes).
                    opened.add(slot.key.round)
                    byes = list(bracket.byes) if slot.key.round == 1 else []
                    await _round_opened(session, clock, tournament, slot.key.round, byes, [])
                key = slot.key
                await open_match(session, clock, insert, tournament, key.round, key.index, pair)
        tournament.current_round = max(
            [tournament.current_round, *(slot.key.round for slot in bracket.ready())]
        )
        return
    schedule = pairing.round_robin_schedule(order)
    current = tournament.current_round
    in_round = [row for row in rows if row.round == current]
    if current and any(row.winner is None for row in in_round):
        return
    if current >= len(schedule):
        table = standings_mod.standings(order, records_of(rows))
        await _finish(session, clock, tournament, table[0].player_id)
        return
    tournament.current_round = current + 1
    rests = list(schedule[current].rests)
    await _round_opened(session, clock, tournament, current + 1, [], rests)
    for index, pair in enumerate(schedule[current].pairs):
        await open_match(session, clock, insert, tournament, current + 1, index, pair)


async def _round_opened(
    session: AsyncSession,
    clock: Clock,
    tournament: Tournament,
    round_number: int,
    byes: list[str],
    rests: list[str],
) -> None:
    data = ev.RoundOpenedData(round=round_number, byes=byes, rests=rests)
    await emit(session, clock, tournament, data)


async def _finish(
    session: AsyncSession, clock: Clock, tournament: Tournament, champion: str
) -> None:
    tournament.status = "finished"
    tournament.champion_id = champion
    tournament.finished_at = clock.now()
    await emit(session, clock, tournament, ev.TournamentFinishedData(champion=champion))


async def cancel(session: AsyncSession, clock: Clock, tournament: Tournament) -> None:
    tournament.status = "cancelled"
    tournament.finished_at = clock.now()
    await emit(session, clock, tournament, ev.TournamentCancelledData())


async def round_complete(session: AsyncSession, tournament: Tournament, round_number: int) -> bool:
    """Every pairing of the round decided (byes count as decided; rests are no pairing)."""
    rows = await tournaments_repo.matches(session, tournament.id)
    if tournament.format == "single_elimination":
        bracket = rebuild_bracket(await seeded(session, tournament), rows)
        slots = bracket.rounds[round_number - 1]
        done = (pairing.SlotStatus.BYE, pairing.SlotStatus.DECIDED)
        return all(slot.status in done for slot in slots)
    in_round = [row for row in rows if row.round == round_number]
    return bool(in_round) and all(row.winner is not None for row in in_round)


async def open_match(
    session: AsyncSession,
    clock: Clock,
    insert: Insert,
    tournament: Tournament,
    round_number: int,
    index: int,
    pair: tuple[str, str],
) -> str:
    """A match of the tournament's preset between the pair (two players, or two pairs seated
    0 and 2 against 1 and 3: tournaments/pairs.py), in check-in (docs/API.md, "Tournaments")."""
    ruleset = pairs.ruleset(tournament.preset, tournament.match_options)
    now = clock.now()
    deadline = now + timedelta(seconds=tournament.check_in_s)
    seated = await pairs.seats(session, tournament, pair)
    players = await players_repo.by_ids(session, seated)
    holders = {pid: (p.name, p.tile_back) for pid, p in players.items()}
    new = new_table(
        str(uuid.uuid4()),
        ruleset,
        secrets.token_bytes(32),
        now,
        [NewSeat(type="human", player_id=player_id, seen=False) for player_id in seated],
        holders,
        tournament_id=tournament.id,
        check_in_deadline=deadline,
        rated=True,  # as Lichess's tournaments: a no-show moves nothing (ratings/rules.py)
    )
    match_id = new.table.match.id
    await insert(new, now)
    session.add(
        TournamentMatch(
            tournament_id=tournament.id,
            round=round_number,
            index=index,
            match_id=match_id,
            player_a=pair[0],
            player_b=pair[1],
            winner=None,
            reason=None,
            hands_a=0,
            hands_b=0,
            points_a=0,
            points_b=0,
        )
    )
    await session.flush()
    opened = ev.MatchOpenedData(
        round=round_number,
        index=index,
        match_id=match_id,
        players=list(pair),
        check_in_deadline=deadline.isoformat(),
    )
    await emit(session, clock, tournament, opened)
    return match_id


async def enforce_due(core: Core, tournament_id: str) -> None:
    """Opening a tournament first enforces whatever is due for its matches: every check-in
    past its deadline (seed 004) and any turn-clock timeout, as opening each would (each a
    step of the write core, committed before the view is read)."""
    if len(tournament_id) > 36:
        return  # get_view answers not found
    # A read of its own that commits nothing, like the write core's own reads, and is closed
    # before the steps: no connection is held while the write core takes others.
    async with core.maker() as session:
        tournament = await tournaments_repo.get(session, tournament_id)
        if tournament is None or tournament.status != "running":
            return
        due = await tournaments_repo.overdue_matches(session, tournament.id, core.clock.now())
    for match_id in due:
        await core.run(match_id, _nothing, fresh=True)


def _nothing(stage: Stage) -> None:
    """A step that only applies what is due (the write core does that first)."""
