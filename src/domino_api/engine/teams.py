"""Partnership play (docs/RULES.md section 14): four seats in two teams, seats 0 and 2 against
1 and 3, partners sitting opposite each other.

A team shares one score: every point either partner scores is credited to both seats, so each
seat's `scores` entry is its team's score, and `hands_won` likewise. That keeps every rule that
reads a seat's score (the target, a mid-hand target, a computer player's view) right for teams
without a second bookkeeping beside it. What differs is what a hand's end is worth: the pips
counted are a team's (both partners' hands together), here.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

from domino_api.engine.rulesets import Ruleset

TEAMS = 2


class TeamCount(Struct, frozen=True, kw_only=True, gc=False):
    """A team's public standing: its seats (partners sit opposite), its shared score and hands
    won; `won` once the match is over and this team won it."""

    team: int
    seats: tuple[int, ...]
    score: int
    hands_won: int
    won: bool


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % TEAMS


def team_seats(team: int, players: int) -> tuple[int, ...]:
    return tuple(range(team, players, TEAMS))


def credit(ruleset: Ruleset, values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    """`values` (one per seat) after `seat` gains `amount`; in partnership its partner gains
    it too, the team's one score."""
    changed = list(values)
    mates = team_seats(team_of(seat), len(values)) if ruleset.partnership else (seat,)
    for mate in mates:
        changed[mate] += amount
    return tuple(changed)


def team_pips(pips: Sequence[int]) -> tuple[int, int]:
    """Each team's pips left: both partners' hands together."""
    return (pips[0] + pips[2], pips[1] + pips[3])


def others_pips(ruleset: Ruleset, winner: int, pips: Sequence[int]) -> int:
    """The pips a seat's domino counts: every other seat's, or in partnership the other team's
    (both opponents' hands)."""
    if ruleset.partnership:
        return team_pips(pips)[1 - team_of(winner)]
    return sum(pips) - pips[winner]


def blocked_leader(pips: Sequence[int]) -> tuple[int | None, int, int]:
    """(winner, own, theirs) of a blocked partnership hand: the team holding fewer pips (both
    hands together) wins, `own` its count and `theirs` the other team's; equal counts tie the
    hand (winner None). The winning seat named is the partner holding fewer pips (the earlier
    seat when they hold the same): it leads the next hand under `winner_any`."""
    counts = team_pips(pips)
    if counts[0] == counts[1]:
        return None, counts[0], counts[1]
    team = 0 if counts[0] < counts[1] else 1
    winner = min(team_seats(team, len(pips)), key=lambda seat: (pips[seat], seat))
    return winner, counts[team], counts[1 - team]


def winning_team(ruleset: Ruleset, winner: int | None) -> int | None:
    """The team of the match's winning seat, in partnership; None otherwise."""
    return team_of(winner) if ruleset.partnership and winner is not None else None


def opponents(ruleset: Ruleset, seat: int) -> tuple[int, ...]:
    """The seats playing against `seat`: the other team in partnership, else every other."""
    if ruleset.partnership:
        return team_seats(1 - team_of(seat), ruleset.players)
    return tuple(other for other in range(ruleset.players) if other != seat)


def won_by(ruleset: Ruleset, winner: int | None, seat: int) -> bool:
    """`seat` won the match: it is the winner, or in partnership the winner's partner."""
    if winner is None:
        return False
    return team_of(winner) == team_of(seat) if ruleset.partnership else winner == seat


def team_counts(
    ruleset: Ruleset, scores: Sequence[int], hands_won: Sequence[int], winner: int | None
) -> tuple[TeamCount, ...] | None:
    """Both teams' standing for a view, or None when the match is not played in partnership."""
    if not ruleset.partnership:
        return None
    return tuple(
        TeamCount(
            team=team,
            seats=team_seats(team, ruleset.players),
            score=scores[team],
            hands_won=hands_won[team],
            won=winner is not None and team_of(winner) == team,
        )
        for team in range(TEAMS)
    )


def standing_winner(leaders: Sequence[int]) -> int | None:
    """The match's winner among `leaders` (seats sharing the best standing, none forfeited):
    partners share their score, so leaders of one team are one winner, the earlier seat."""
    teams = {team_of(seat) for seat in leaders}
    return min(leaders) if len(teams) == 1 and leaders else None
