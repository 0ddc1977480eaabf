"""Partnership scoring as docs/RULES.md section 14 states it, written from that page alone.

None of the engine's scoring or team code is used: a hand's points and winner are worked out
from the pips each seat holds at its end, and the match's team scores are kept by adding up
what the events announce, team by team.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def team(seat: int) -> int:
    """RULES 14: seats 0 and 2 are one team, seats 1 and 3 the other."""
    return 0 if seat in (0, 2) else 1


def nearest_five(n: int) -> int:
    """RULES 8: 0-2 -> 0, 3-7 -> 5, 8-12 -> 10."""
    low = n - n % 5
    return low + 5 if n % 5 >= 3 else low


def team_totals(pips: Sequence[int]) -> list[int]:
    totals = [0, 0]
    for seat, count in enumerate(pips):
        totals[team(seat)] += count
    return totals


def domino(domino_scoring: str, winner: int, pips: Sequence[int]) -> int:
    """What the team of `winner`, who emptied its hand, scores."""
    if domino_scoring == "all_pips":
        return sum(pips)
    theirs = team_totals(pips)[1 - team(winner)]
    return nearest_five(theirs) if domino_scoring == "opponents_pips_round5" else theirs


def blocked(block_scoring: str, pips: Sequence[int]) -> tuple[int | None, int]:
    """(winning seat, points) of a blocked hand: the team holding fewer pips wins; equal teams
    tie; the seat named is the winning team's partner holding fewer pips, seat order breaking a
    tie between partners."""
    totals = team_totals(pips)
    if totals[0] == totals[1]:
        return None, 0
    winners = 0 if totals[0] < totals[1] else 1
    mates = [seat for seat in range(4) if team(seat) == winners]
    seat = mates[0] if pips[mates[0]] <= pips[mates[1]] else mates[1]
    own, theirs = totals[winners], totals[1 - winners]
    points = {
        "lowest_takes_all": own + theirs,
        "lowest_takes_others": theirs,
        "lowest_takes_others_round5": nearest_five(theirs),
    }[block_scoring]
    return seat, points


@dataclass
class TeamBook:
    """Both teams' scores and hands won, kept from the events alone."""

    target: int
    scores: list[int]
    hands_won: list[int]

    @classmethod
    def starting(cls, target: int) -> TeamBook:
        return cls(target, [0, 0], [0, 0])

    def per_seat(self) -> tuple[list[int], list[int]]:
        """What the match's per-seat scores and hands won must be: each seat's team's."""
        return [self.scores[team(s)] for s in range(4)], [self.hands_won[team(s)] for s in range(4)]

    def leader(self) -> int | None:
        """The team at or past the target, if any (only one team scores at a time)."""
        reached = [t for t in (0, 1) if self.scores[t] >= self.target]
        assert len(reached) <= 1
        return reached[0] if reached else None
