"""What a tournament shows: its view (entrants, rounds, standings), its events feed, and the
bracket recomputed from the seed and the recorded results (pure code of `pairing` and
`standings`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.errors import TournamentNotFound
from domino_api.store import players_repo, tournaments_repo
from domino_api.store.json_types import JSONObject
from domino_api.store.models import Tournament, TournamentEntrant, TournamentMatch
from domino_api.tournaments import pairing, pairs
from domino_api.tournaments import standings as standings_mod
from domino_api.tournaments.event_types import TournamentEvent, event
from domino_api.tournaments.schemas import RoundMatchOut, RoundOut, StandingOut, TournamentOut

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


async def seeded(session: AsyncSession, tournament: Tournament) -> list[str]:
    """The entrants' player ids in seeded order (index = ``order``)."""
    rows = [
        e for e in await tournaments_repo.entrants(session, tournament.id) if e.order is not None
    ]
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


async def events(
    session: AsyncSession, tournament_id: str, after: int, limit: int
) -> list[TournamentEvent]:
    """The tournament's feed after ``after``, oldest first."""
    if len(tournament_id) > 36:
        raise TournamentNotFound(f"No tournament {tournament_id[:40]!r}.")
    if await tournaments_repo.get(session, tournament_id) is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    rows = await tournaments_repo.events_after(session, tournament_id, after, limit)
    return [event(r.seq, r.type, r.at, r.data) for r in rows]


def match_of(tournament: Tournament) -> JSONObject:
    """Its matches' goal as the host set it: `{"target": 100}` or `{"best_of": 3}`."""
    options = tournament.match_options
    if "target" in options:
        return {"target": options["target"]}
    return {"best_of": options["best_of"]}


async def get_view(session: AsyncSession, tournament_id: str) -> TournamentOut:
    """The tournament view (`enforce_due` first applies what is due to its matches)."""
    if len(tournament_id) > 36:
        raise TournamentNotFound(f"No tournament {tournament_id[:40]!r}.")
    tournament = await tournaments_repo.get(session, tournament_id)
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id!r}.")
    return await build_view(session, tournament)


def _entrants_out(
    entrants: list[TournamentEntrant], mates: dict[str, str], names: dict[str, str]
) -> list[JSONObject]:
    """Each entrant, a pair's partner beside its lead with the lead's order."""
    paired = {*mates, *mates.values()}
    lead_of = {mate: lead for lead, mate in mates.items()}
    seeded_at = {e.player_id: e.order for e in entrants}
    out: list[JSONObject] = [
        {
            "player_id": e.player_id,
            "name": names.get(e.player_id, ""),
            "order": e.order
            if e.order is not None
            else seeded_at.get(lead_of.get(e.player_id, "")),
            "partner": e.partner_id,
            "paired": e.player_id in paired,
        }
        for e in entrants
    ]
    return out


async def build_view(session: AsyncSession, tournament: Tournament) -> TournamentOut:
    entrants = await tournaments_repo.entrants(session, tournament.id)
    names = await players_repo.names(session, [e.player_id for e in entrants])
    mates = await pairs.partners(session, tournament)
    shown = _entrants_out(entrants, mates, names)
    started = tournament.seed is not None
    if started:
        # Seeded order (a partner just after its lead), then entries not seeded.
        shown.sort(key=lambda e: (e["order"] is None, e["order"] or 0, e["player_id"] in mates))
    order = [
        e.player_id for e in sorted(entrants, key=lambda e: e.order or 0) if e.order is not None
    ]
    rows = await tournaments_repo.matches(session, tournament.id)
    progress = await tournaments_repo.match_progress(session, tournament.id)
    options = tournament.match_options
    entrant_names = pairs.pair_names(mates, names)
    view = {
        "clock": options.get("turn_clock") or DEFAULT_CLOCK,
        "id": tournament.id,
        "name": tournament.name,
        "status": tournament.status,
        "format": tournament.format,
        "preset": tournament.preset,
        "match": match_of(tournament),
        "next_opener": options.get("next_opener"),
        "max_entrants": tournament.max_entrants,
        "check_in_s": tournament.check_in_s,
        "seed": tournament.seed.hex() if tournament.seed is not None else None,
        "host": tournament.host_player_id,
        "entrants": shown,
        "rounds": _rounds(tournament, order, rows, progress, entrant_names, mates)
        if started
        else [],
        "standings": _standings(tournament, order, rows, entrant_names, mates) if started else [],
        "champion": tournament.champion_id,
    }
    return msgspec.convert(view, TournamentOut)


def _standings(
    tournament: Tournament,
    order: list[str],
    rows: list[TournamentMatch],
    names: dict[str, str],
    mates: dict[str, str],
) -> list[StandingOut]:
    """Round-robin by wins and tiebreaks; single elimination by the round reached."""
    records = records_of(rows)
    if tournament.format == "single_elimination":
        reached = standings_mod.rounds_reached(rebuild_bracket(order, rows))
        ranked = standings_mod.elimination_standings(order, records, reached)
    else:
        ranked = standings_mod.standings(order, records)
    return [
        msgspec.convert(
            dataclasses.asdict(standing)
            | {"name": names.get(standing.player_id, ""), "partner": mates.get(standing.player_id)},
            StandingOut,
        )
        for standing in ranked
    ]


def _live(
    row: TournamentMatch, table: tournaments_repo.MatchProgress | None
) -> dict[str, list[int]] | None:
    """The score of a match in play, in slot order (before check-in ends and once decided: None,
    the decided totals being in `points` and `hands_won`)."""
    if table is None or row.reason is not None or table.status not in ("playing", "hand_over"):
        return None
    players = (row.player_a, row.player_b)
    return {
        "points": [table.scores.get(p, 0) for p in players],
        "hands_won": [table.hands_won.get(p, 0) for p in players],
    }


def _match_out(
    row: TournamentMatch,
    progress: dict[str, tournaments_repo.MatchProgress],
    names: dict[str, str],
    rounds: int | None,
    mates: dict[str, str],
) -> RoundMatchOut:
    """A bracket slot's match; `rounds` (single elimination) says where its winner goes."""
    table = progress.get(row.match_id)
    status = MATCH_STATUS.get(table.status if table else "waiting", "check_in")
    if row.winner is not None:
        status = "finished"  # decided: a pairs match both pairs left is abandoned, yet won
    following = None
    if rounds is not None and row.round < rounds:
        following = {"round": row.round + 1, "index": row.index // 2, "side": row.index % 2}
    match = {
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
        "live": _live(row, table),
        "teams": [[p, mates[p]] for p in (row.player_a, row.player_b)] if mates else None,
    }
    return msgspec.convert(match, RoundMatchOut)


def _rounds(
    tournament: Tournament,
    order: list[str],
    rows: list[TournamentMatch],
    progress: dict[str, tournaments_repo.MatchProgress],
    names: dict[str, str],
    mates: dict[str, str],
) -> list[RoundOut]:
    by_round: dict[int, list[TournamentMatch]] = {}
    for row in rows:
        by_round.setdefault(row.round, []).append(row)
    out: list[RoundOut] = []
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
                RoundOut(
                    number=number,
                    status="complete" if done else "open",
                    matches=[
                        _match_out(row, progress, names, len(bracket.rounds), mates)
                        for row in matches
                    ],
                    byes=byes,
                    rests=[],
                )
            )
        return out
    schedule = pairing.round_robin_schedule(order)
    for number in range(1, min(tournament.current_round, len(schedule)) + 1):
        matches = by_round.get(number, [])
        done = bool(matches) and all(row.winner is not None for row in matches)
        out.append(
            RoundOut(
                number=number,
                status="complete" if done else "open",
                matches=[_match_out(row, progress, names, None, mates) for row in matches],
                byes=[],
                rests=list(schedule[number - 1].rests),
            )
        )
    return out
