"""How a rated match's seats finished (docs/API.md, "Ratings"); which tables are rated is
decided at their creation (matches/rated.py).

A rated match moves ratings only when it finished after it started and every human seat's
holder made a move of its own (Lichess's abort: a resignation before one's first move, or an
alt that joins and resigns, moves nothing): an abandoned or cancelled match, or one decided
before its start (a tournament's no-show), moves nothing either. A seat that
forfeited (resigned, or lost to the clock or the away rule) finishes last, whatever its score.
"""

from __future__ import annotations

from msgspec import Struct

from domino_api.engine.table import Table
from domino_api.engine.teams import team_of
from domino_api.ratings.model import places


class Placed(Struct, frozen=True):
    """A seat of a rated match as it finished: its holder (None: a computer, then its
    strategy) and its place (1 is best)."""

    seat: int
    place: int
    player_id: str | None = None
    strategy: str | None = None


def team_places(team: int | None, forfeited: list[int]) -> list[int]:
    """Partnership places: both partners of the winning team share first, the other team
    second, and a seat that forfeited last (docs/API.md, "Ratings"): a team's result moves
    both partners' ratings alike."""
    keys = [(seat in forfeited, team_of(seat) != team) for seat in range(4)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def outcome(table: Table) -> list[Placed]:
    """Every seat of a rated match that finished, in seat order; [] when it moves nothing."""
    state, result = table.state, table.state.result
    if not table.match.rated or state.status != "finished" or result is None:
        return []
    holders = [row.player_id for row in table.seats if row.type == "human"]
    if None in holders or len(set(holders)) < len(holders):
        return []  # an open seat, or hot-seat play
    if table.match.started_at is None:
        return []  # decided before its start (an abort, as Lichess calls it)
    if not all(row.moved for row in table.seats if row.type == "human"):
        return []  # a holder never moved: aborted, for ratings
    forfeited = [row.seat for row in table.seats if row.forfeited]
    if state.ruleset.partnership:
        ranks = team_places(result.team, forfeited)
    else:  # Mexican Train's lowest total wins: its totals rank the other way round
        lowest_wins = state.ruleset.layout == "trains"
        ranks = places([-s if lowest_wins else s for s in result.scores], result.winner, forfeited)
    return [
        Placed(row.seat, ranks[row.seat], row.player_id)
        if row.type == "human"
        else Placed(row.seat, ranks[row.seat], strategy=table.strategy_of(row.seat))
        for row in table.seats
    ]
