"""Tournament operations: each is one transaction (never commits itself).

A tournament's pairings are never stored as a structure of their own: they are recomputed from
the recorded seed (the seeded ``order`` of every entrant) and the decided results in
``tournament_matches`` with the pure code of ``pairing`` and ``standings``. That keeps the stored
rows small and makes the bracket exactly what anyone recomputing it from the seed gets.

Progression runs in ``progress``: at the start, and from ``hooks.on_match_over`` whenever a
tournament match ends (in the transaction that ended it), so newly ready matches open at once.

Every change is also appended to the tournament's event feed (``tournament_events``, read with
``events``) in the same transaction, under the tournament row lock: ``entrant_joined``,
``entrant_left``, ``tournament_started``, ``round_opened``, ``match_opened``, ``match_decided``,
``round_completed``, ``tournament_finished`` and ``tournament_cancelled``.
"""

from __future__ import annotations

import dataclasses
import secrets
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, get_args

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.clock import Clock
from domino_api.errors import (
    EntrantLimitReached,
    EntrantLimitTooHigh,
    NotHost,
    TournamentNotFound,
    TournamentStarted,
    ValidationFailed,
)
from domino_api.matches.table import Table, new_match_row, record
from domino_api.store import matches_repo, players_repo
from domino_api.store.models import (
    Player,
    Seat,
    Tournament,
    TournamentEntrant,
    TournamentMatch,
)
from domino_api.tournaments import pairing, repo
from domino_api.tournaments import standings as standings_mod
from domino_api.tournaments.schemas import TournamentCreate, TournamentEventType

# The feed's event types, as the API documents them (one list: the schema's).
EVENT_TYPES = frozenset(get_args(TournamentEventType))

# Seed 004: free up to 10 players, Club up to 20, corporate without a cap.
PLAN_CAPS: dict[str, int | None] = {"free": 10, "club": 20, "corporate": None}
PLANS = tuple(PLAN_CAPS)
RULESET = "classic"
# What a tournament created before the host could set the clock plays (the classic preset's).
DEFAULT_CLOCK = {"allowance_s": 180, "grace_s": 120}

MATCH_STATUS = {
    "waiting": "check_in",
    "playing": "playing",
    "hand_over": "playing",
    "finished": "finished",
    "abandoned": "cancelled",
    "cancelled": "cancelled",
}


def plan_cap(plan: str) -> int | None:
    return PLAN_CAPS.get(plan, PLAN_CAPS["free"])


async def _emit(
    session: AsyncSession, clock: Clock, tournament: Tournament, type_: str, data: dict[str, Any]
) -> int:
    """Append to the feed; every caller holds the tournament row lock (``repo.lock``)."""
    assert type_ in EVENT_TYPES, type_
    return await repo.add_event(session, tournament.id, type_, clock.now(), data)


# ---------------------------------------------------------------- creation and entrants


async def create(
    session: AsyncSession, clock: Clock, host: Player, body: TournamentCreate, check_in_s: float
) -> dict[str, Any]:
    # The plan is read fresh: operators change it from another process (`plan set`).
    plan = await players_repo.plan_of(session, host.id) or host.plan
    cap = plan_cap(plan)
    if cap is not None and body.max_entrants > cap:
        raise EntrantLimitTooHigh(
            f"max_entrants {body.max_entrants} is above the {plan} plan's cap of {cap}.",
            cap=cap,
        )
    options: dict[str, Any] = (
        {"target": body.match.target}
        if body.match.target is not None
        else {"best_of": body.match.best_of}
    )
    if body.next_opener is not None:
        options["next_opener"] = body.next_opener
    options["turn_clock"] = body.clock.model_dump()  # the host's clock for every match
    try:
        engine.make_ruleset(RULESET, options)
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
    tournament = await repo.lock(session, tournament_id)
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    return tournament


async def enter(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str
) -> dict[str, Any]:
    tournament = await _locked(session, tournament_id)
    if await repo.entrant(session, tournament.id, player.id) is not None:
        return await build_view(session, tournament)
    if tournament.status != "open":
        raise TournamentStarted("The tournament has started; entries are closed.")
    count = len(await repo.entrants(session, tournament.id))
    if count >= tournament.max_entrants:
        raise EntrantLimitReached(
            f"The tournament is full ({tournament.max_entrants} entrants).",
            max_entrants=tournament.max_entrants,
        )
    session.add(
        TournamentEntrant(
            tournament_id=tournament.id,
            player_id=player.id,
            entry_no=await repo.next_entry_no(session, tournament.id),
            order=None,
            entered_at=clock.now(),
        )
    )
    await session.flush()
    await _emit(
        session, clock, tournament, "entrant_joined", {"player_id": player.id, "name": player.name}
    )
    return await build_view(session, tournament)


async def leave(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str
) -> dict[str, Any]:
    tournament = await _locked(session, tournament_id)
    if tournament.status != "open":
        raise TournamentStarted("The tournament has started; entrants can no longer leave.")
    if await repo.entrant(session, tournament.id, player.id) is not None:
        await repo.remove_entrant(session, tournament.id, player.id)
        await session.flush()
        await _emit(session, clock, tournament, "entrant_left", {"player_id": player.id})
    return await build_view(session, tournament)


async def start(
    session: AsyncSession, clock: Clock, player: Player, tournament_id: str
) -> dict[str, Any]:
    tournament = await _locked(session, tournament_id)
    if tournament.host_player_id != player.id:
        raise NotHost("Only the host may start the tournament.")
    if tournament.status != "open":
        raise TournamentStarted("The tournament has already started.")
    entrants = await repo.entrants(session, tournament.id)
    if len(entrants) < 2:
        raise ValidationFailed(f"A tournament needs at least 2 entrants; it has {len(entrants)}.")
    seed = secrets.token_bytes(32)
    order = pairing.seeded_order(seed, [e.player_id for e in entrants])
    position = {player_id: i for i, player_id in enumerate(order)}
    for row in entrants:
        row.order = position[row.player_id]
    tournament.seed = seed
    tournament.status = "running"
    tournament.started_at = clock.now()
    await session.flush()
    await _emit(
        session, clock, tournament, "tournament_started", {"seed": seed.hex(), "order": order}
    )
    await progress(session, clock, tournament)
    return await build_view(session, tournament)


# ---------------------------------------------------------------- progression


async def seeded(session: AsyncSession, tournament: Tournament) -> list[str]:
    """The entrants' player ids in seeded order (index = ``order``)."""
    rows = [e for e in await repo.entrants(session, tournament.id) if e.order is not None]
    return [e.player_id for e in sorted(rows, key=lambda e: e.order or 0)]


def rebuild_bracket(order: Sequence[str], rows: Sequence[TournamentMatch]) -> pairing.Bracket:
    """The bracket from the seeded order with every recorded result replayed, round by round."""
    bracket = pairing.single_elimination(order)
    for row in sorted(rows, key=lambda r: (r.round, r.index)):
        key = pairing.SlotKey(row.round, row.index)
        if row.winner is not None:
            bracket = pairing.advance(bracket, key, row.winner).bracket
        elif row.reason == "no_show":
            bracket = pairing.cancel(bracket, key)
    return bracket


def records_of(rows: Sequence[TournamentMatch]) -> list[standings_mod.MatchRecord]:
    """Decided matches only: byes and rests are no matches, so they add no win (seed 004)."""
    return [
        standings_mod.MatchRecord(
            players=(row.player_a, row.player_b),
            winner=row.winner,
            hands=(row.hands_a, row.hands_b),
            points=(row.points_a, row.points_b),
        )
        for row in rows
        if row.winner is not None
    ]


async def progress(session: AsyncSession, clock: Clock, tournament: Tournament) -> None:
    """Open every match that has become ready; crown the champion once there is one."""
    if tournament.status != "running":
        return
    order = await seeded(session, tournament)
    rows = await repo.matches(session, tournament.id)
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
                await open_match(session, clock, tournament, slot.key.round, slot.key.index, pair)
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
        await open_match(session, clock, tournament, current + 1, index, pair)


async def _round_opened(
    session: AsyncSession,
    clock: Clock,
    tournament: Tournament,
    round_number: int,
    byes: list[str],
    rests: list[str],
) -> None:
    data = {"round": round_number, "byes": byes, "rests": rests}
    await _emit(session, clock, tournament, "round_opened", data)


async def _finish(
    session: AsyncSession, clock: Clock, tournament: Tournament, champion: str
) -> None:
    tournament.status = "finished"
    tournament.champion_id = champion
    tournament.finished_at = clock.now()
    await _emit(session, clock, tournament, "tournament_finished", {"champion": champion})


async def cancel(session: AsyncSession, clock: Clock, tournament: Tournament) -> None:
    tournament.status = "cancelled"
    tournament.finished_at = clock.now()
    await _emit(session, clock, tournament, "tournament_cancelled", {})


async def _round_complete(session: AsyncSession, tournament: Tournament, round_number: int) -> bool:
    """Every pairing of the round decided (byes count as decided; rests are no pairing)."""
    rows = await repo.matches(session, tournament.id)
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
    tournament: Tournament,
    round_number: int,
    index: int,
    pair: tuple[str, str],
) -> str:
    """A `classic` match between the pair, in check-in (API.md, "Tournaments")."""
    ruleset = engine.make_ruleset(RULESET, tournament.match_options)
    now = clock.now()
    deadline = now + timedelta(seconds=tournament.check_in_s)
    match, state = new_match_row(
        str(uuid.uuid4()),
        ruleset,
        now,
        code=None,
        host_player_id=None,
        tournament_id=tournament.id,
        solo=False,
        check_in_deadline=deadline,
        due_at=deadline,
    )
    matches_repo.add(session, match)
    await session.flush()
    seats = [
        Seat(
            match_id=match.id,
            seat=number,
            type="human",
            strategy=None,
            player_id=player_id,
            autopilot=False,
            forfeited=False,
            ready=False,
            rematch=False,
            connected=False,
            last_seen_at=None,
        )
        for number, player_id in enumerate(pair)
    ]
    matches_repo.add(session, *seats)
    session.add(
        TournamentMatch(
            tournament_id=tournament.id,
            round=round_number,
            index=index,
            match_id=match.id,
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
    await _emit(
        session,
        clock,
        tournament,
        "match_opened",
        {
            "round": round_number,
            "index": index,
            "match_id": match.id,
            "players": list(pair),
            "check_in_deadline": deadline.isoformat(),
        },
    )
    players = await players_repo.by_ids(session, list(pair))
    table = Table(match=match, seats=seats, state=state)
    table.names = {pid: p.name for pid, p in players.items()}
    table.tile_backs = {pid: p.tile_back for pid, p in players.items()}
    for row in seats:
        data = {
            "seat": row.seat,
            "name": table.names.get(row.player_id or ""),
            "type": "human",
            "strategy": None,
        }
        await record(session, clock, table, "seat_joined", data)
    return match.id


async def record_result(session: AsyncSession, clock: Clock, table: Table) -> None:
    """A tournament match is over: store its result and move the tournament on."""
    row = await repo.by_match(session, table.match.id)
    if row is None or row.reason is not None:
        return
    tournament = await repo.lock(session, row.tournament_id)
    if tournament is None:
        return
    result = table.state.result
    seat_of = {seat.player_id: seat.seat for seat in table.seats}
    a, b = seat_of[row.player_a], seat_of[row.player_b]
    if result is not None:
        row.hands_a, row.hands_b = result.hands_won[a], result.hands_won[b]
        row.points_a, row.points_b = result.scores[a], result.scores[b]
    row.decided_at = clock.now()
    winner_seat = result.winner if result is not None else None
    if winner_seat is None:
        # Nobody checked in (or the match ended without a result): cancel rather than invent
        # one (seed 004).
        row.reason = "no_show"
        await session.flush()
        await _match_decided(session, clock, tournament, row)
        if tournament.status == "running":
            await cancel(session, clock, tournament)
            await session.flush()
        return
    row.winner = table.seats[winner_seat].player_id
    assert result is not None
    row.reason = "forfeit" if result.reason == "forfeit" else "played"
    await session.flush()
    await _match_decided(session, clock, tournament, row)
    if tournament.status == "running" and await _round_complete(session, tournament, row.round):
        await _emit(session, clock, tournament, "round_completed", {"round": row.round})
    await progress(session, clock, tournament)
    await session.flush()


async def _match_decided(
    session: AsyncSession, clock: Clock, tournament: Tournament, row: TournamentMatch
) -> None:
    data = {
        "round": row.round,
        "index": row.index,
        "match_id": row.match_id,
        "winner": row.winner,
        "reason": row.reason,
    }
    await _emit(session, clock, tournament, "match_decided", data)


# ---------------------------------------------------------------- reading


async def events(
    session: AsyncSession, tournament_id: str, after: int, limit: int
) -> list[dict[str, Any]]:
    """The tournament's feed after ``after``, oldest first."""
    if len(tournament_id) > 36:
        raise TournamentNotFound(f"No tournament {tournament_id[:40]!r}.")
    if await repo.get(session, tournament_id) is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    rows = await repo.events_after(session, tournament_id, after, limit)
    return [{"seq": r.seq, "type": r.type, "at": r.at, "data": r.data} for r in rows]


async def get_view(session: AsyncSession, clock: Clock, tournament_id: str) -> dict[str, Any]:
    """The tournament view; opening it first enforces whatever is due for its matches: every
    check-in past its deadline (seed 004) and any turn-clock timeout, as opening each would."""
    from domino_api.matches import service as matches_service  # late: matches call hooks

    if len(tournament_id) > 36:
        raise TournamentNotFound(f"No tournament {tournament_id[:40]!r}.")
    tournament = await repo.get(session, tournament_id)
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    if tournament.status == "running":
        for match_id in await repo.overdue_matches(session, tournament.id, clock.now()):
            await matches_service.open_table(session, clock, match_id, None)
    return await build_view(session, tournament)


async def build_view(session: AsyncSession, tournament: Tournament) -> dict[str, Any]:
    entrants = await repo.entrants(session, tournament.id)
    names = await repo.names(session, [e.player_id for e in entrants])
    started = tournament.seed is not None
    if started:
        entrants = sorted(entrants, key=lambda e: e.order if e.order is not None else 0)
    order = [e.player_id for e in entrants] if started else []
    rows = await repo.matches(session, tournament.id)
    statuses = await repo.match_statuses(session, tournament.id)
    options = tournament.match_options
    match = (
        {"target": options["target"]} if "target" in options else {"best_of": options["best_of"]}
    )
    return {
        "clock": options.get("turn_clock") or DEFAULT_CLOCK,
        "id": tournament.id,
        "name": tournament.name,
        "status": tournament.status,
        "format": tournament.format,
        "match": match,
        "next_opener": options.get("next_opener"),
        "max_entrants": tournament.max_entrants,
        "seed": tournament.seed.hex() if tournament.seed is not None else None,
        "host": tournament.host_player_id,
        "entrants": [
            {"player_id": e.player_id, "name": names.get(e.player_id, ""), "order": e.order}
            for e in entrants
        ],
        "rounds": _rounds(tournament, order, rows, statuses, names) if started else [],
        "standings": _standings(tournament, order, rows) if started else [],
        "champion": tournament.champion_id,
    }


def _standings(
    tournament: Tournament, order: list[str], rows: list[TournamentMatch]
) -> list[dict[str, Any]]:
    """Round-robin by wins and tiebreaks; single elimination by the round reached."""
    records = records_of(rows)
    if tournament.format == "single_elimination":
        reached = standings_mod.rounds_reached(rebuild_bracket(order, rows))
        ranked = standings_mod.elimination_standings(order, records, reached)
    else:
        ranked = standings_mod.standings(order, records)
    return [dataclasses.asdict(standing) for standing in ranked]


def _match_out(
    row: TournamentMatch, statuses: dict[str, str], names: dict[str, str], rounds: int | None
) -> dict[str, Any]:
    """A bracket slot's match; `rounds` (single elimination) says where its winner goes."""
    status = MATCH_STATUS.get(statuses.get(row.match_id, "waiting"), "check_in")
    following = None
    if rounds is not None and row.round < rounds:
        following = {"round": row.round + 1, "index": row.index // 2, "side": row.index % 2}
    return {
        "id": row.match_id,
        "round": row.round,
        "index": row.index,
        "next": following,
        "players": [row.player_a, row.player_b],
        "names": [names.get(row.player_a, ""), names.get(row.player_b, "")],
        "status": status,
        "winner": row.winner,
        "reason": row.reason,
        "points": [row.points_a, row.points_b],
        "hands_won": [row.hands_a, row.hands_b],
    }


def _rounds(
    tournament: Tournament,
    order: list[str],
    rows: list[TournamentMatch],
    statuses: dict[str, str],
    names: dict[str, str],
) -> list[dict[str, Any]]:
    by_round: dict[int, list[TournamentMatch]] = {}
    for row in rows:
        by_round.setdefault(row.round, []).append(row)
    out: list[dict[str, Any]] = []
    if tournament.format == "single_elimination":
        bracket = rebuild_bracket(order, rows)
        for number, slots in enumerate(bracket.rounds, start=1):
            byes = list(bracket.byes) if number == 1 else []
            matches = by_round.get(number, [])
            if not matches and not byes:
                continue
            done = all(
                s.status in (pairing.SlotStatus.BYE, pairing.SlotStatus.DECIDED) for s in slots
            )
            out.append(
                {
                    "number": number,
                    "status": "complete" if done else "open",
                    "matches": [
                        _match_out(row, statuses, names, len(bracket.rounds)) for row in matches
                    ],
                    "byes": byes,
                    "rests": [],
                }
            )
        return out
    schedule = pairing.round_robin_schedule(order)
    for number in range(1, min(tournament.current_round, len(schedule)) + 1):
        matches = by_round.get(number, [])
        done = bool(matches) and all(row.winner is not None for row in matches)
        out.append(
            {
                "number": number,
                "status": "complete" if done else "open",
                "matches": [_match_out(row, statuses, names, None) for row in matches],
                "byes": [],
                "rests": list(schedule[number - 1].rests),
            }
        )
    return out
