"""Tournaments of pairs (docs/API.md, "Tournaments"; docs/PARTNERSHIP.md).

A tournament on a partnership preset (engine/partner_presets.py) plays four-seat matches whose
entrants are pairs. Each player enters for themself, naming a `partner`; the pair is whole once
the partner has entered naming them back, so nobody is ever entered by someone else alone.

A whole pair is one entrant of the pure pairing code (tournaments/pairing.py): it goes by its
*lead*, the partner who entered first, whose row carries the seeded `order`; the partner's row
keeps `order` null. A match seats pair A's lead and partner at 0 and 2, pair B's at 1 and 3
(engine/teams.py: seats 0 and 2 against 1 and 3), and `tournament_matches` records the leads.
An entry whose partner never named it back is no entrant: the start seats whole pairs only.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import structs
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.engine.partner_presets import PARTNER_PRESETS
from domino_api.engine.rulesets import Ruleset, TurnClock
from domino_api.engine.table import Table
from domino_api.errors import PartnerRefused, PlayerNotFound
from domino_api.store import players_repo, tournaments_repo
from domino_api.store.json_types import JSONObject
from domino_api.store.models import Player, Tournament, TournamentEntrant
from domino_api.tournaments import event_types as ev


def of_pairs(tournament: Tournament) -> bool:
    return tournament.preset in PARTNER_PRESETS


def ruleset(preset: str, options: JSONObject) -> Ruleset:
    """The ruleset of a tournament's matches. A partnership preset lets a match set only its
    `target` (docs/RULES.md section 3), so the host's turn clock, which every tournament match
    plays, is applied beside the preset's overrides rather than as one of them."""
    if preset not in PARTNER_PRESETS:
        return engine.make_ruleset(preset, options)
    made = engine.make_ruleset(preset, {k: v for k, v in options.items() if k != "turn_clock"})
    clock = options.get("turn_clock")
    if not isinstance(clock, dict):
        return made
    allowance, grace = clock.get("allowance_s"), clock.get("grace_s")
    if not isinstance(allowance, int) or not isinstance(grace, int):
        return made
    return structs.replace(made, turn_clock=TurnClock(allowance, grace))


async def check_entry(
    session: AsyncSession, tournament: Tournament, player: Player, partner: str | None
) -> None:
    """Refuse (409 `partner_refused`: the request is well formed, the tournament's state
    refuses it) a partner on a classic tournament, none on a pairs tournament, oneself, or a
    partner already entered naming someone else; an unknown partner is 404."""
    if not of_pairs(tournament):
        if partner is not None:
            raise PartnerRefused(f"A {tournament.preset} tournament takes no partner.")
        return
    if partner is None:
        raise PartnerRefused(
            f"A {tournament.preset} tournament is of pairs: name your partner (`partner`)."
        )
    if partner == player.id:
        raise PartnerRefused("A player cannot partner themself.")
    if partner not in await players_repo.by_ids(session, [partner]):
        raise PlayerNotFound(f"No player {partner!r} to partner.")
    theirs = await tournaments_repo.entrant(session, tournament.id, partner)
    if theirs is not None and theirs.partner_id != player.id:
        raise PartnerRefused("That player has entered with another partner.")


def check_again(tournament: Tournament, row: TournamentEntrant, partner: str | None) -> None:
    """Entering again changes nothing; naming another partner needs leaving first."""
    if of_pairs(tournament) and partner is not None and partner != row.partner_id:
        raise PartnerRefused("You have entered with another partner; leave first to change.")


def players_per_entrant(preset: str) -> int:
    """A tournament's `max_entrants` counts entrants: players, or in a tournament of pairs
    pairs, each two players against the host plan's cap of players."""
    return 2 if preset in PARTNER_PRESETS else 1


def _second_half(row: TournamentEntrant, by_player: dict[str, TournamentEntrant]) -> bool:
    """The entry completing a pair: its partner entered before, naming it."""
    mate = by_player.get(row.partner_id or "")
    return mate is not None and mate.partner_id == row.player_id and mate.entry_no < row.entry_no


def counted(entrants: Sequence[TournamentEntrant]) -> int:
    """Entrants as `max_entrants` counts them: each player, or each pair once whether whole or
    waiting for the partner to name it back."""
    by_player = {row.player_id: row for row in entrants}
    return sum(1 for row in entrants if not _second_half(row, by_player))


def completes(entrants: Sequence[TournamentEntrant], player_id: str, partner: str | None) -> bool:
    """Entering would complete a pair already counted: the partner entered naming the player."""
    return any(row.player_id == partner and row.partner_id == player_id for row in entrants)


async def joined(
    session: AsyncSession, player: Player, partner: str | None, whole: bool
) -> ev.EntrantJoinedData:
    """The `entrant_joined` of an entry: with the partner named, and the pair once whole."""
    if not whole or partner is None:
        return ev.EntrantJoinedData(player_id=player.id, name=player.name, partner=partner)
    lead = (await players_repo.names(session, [partner])).get(partner, "")
    return ev.EntrantJoinedData(
        player_id=player.id,
        name=player.name,
        partner=partner,
        paired=True,
        pair_name=f"{lead} & {player.name}",
    )


def whole_pairs(entrants: Sequence[TournamentEntrant]) -> list[tuple[str, str]]:
    """(lead, partner) of every whole pair, in the lead's entry order."""
    by_player = {row.player_id: row for row in entrants}
    pairs: list[tuple[str, str]] = []
    for row in entrants:  # entry order: the first of two to enter is the lead
        mate = by_player.get(row.partner_id or "")
        if mate is not None and mate.partner_id == row.player_id and mate.entry_no > row.entry_no:
            pairs.append((row.player_id, mate.player_id))
    return pairs


def field(tournament: Tournament, entrants: list[TournamentEntrant]) -> list[TournamentEntrant]:
    """Who the seeded order takes: every entrant, or the lead of every whole pair."""
    if not of_pairs(tournament):
        return entrants
    leads = {lead for lead, _ in whole_pairs(entrants)}
    return [row for row in entrants if row.player_id in leads]


async def partners(session: AsyncSession, tournament: Tournament) -> dict[str, str]:
    """Each whole pair's lead to its partner (empty for a classic tournament)."""
    if not of_pairs(tournament):
        return {}
    return dict(whole_pairs(await tournaments_repo.entrants(session, tournament.id)))


async def seats(session: AsyncSession, tournament: Tournament, pair: tuple[str, str]) -> list[str]:
    """The players of a match in seat order: the two entrants, or pair A at 0 and 2 and pair B
    at 1 and 3."""
    mates = await partners(session, tournament)
    if not mates:
        return list(pair)
    a, b = pair
    return [a, b, mates[a], mates[b]]


def pair_names(mates: dict[str, str], names: dict[str, str]) -> dict[str, str]:
    """`names` with each lead named by both players ("Ann & Bob")."""
    named = dict(names)
    for lead, mate in mates.items():
        named[lead] = f"{names.get(lead, '')} & {names.get(mate, '')}"
    return named


def left_last(table: Table) -> int | None:
    """The seat whose leaving abandoned a four-seat match, when every player has left: the seat
    the table marks forfeited and the engine's state does not (the table abandoned the match
    instead of forfeiting it). The other pair had both left before it, so its pair wins."""
    result = table.state.result
    if len(table.seats) < 4 or result is None or result.reason != "abandoned":
        return None
    for row in table.seats:
        if row.forfeited and not table.state.forfeited[row.seat]:
            return row.seat
    return None
