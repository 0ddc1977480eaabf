"""Hand scoring (RULES section 8) and the end of a match (section 9)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from domino_api.engine import teams
from domino_api.engine.kinds import MatchReason
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.tiles import Tile


def round5(n: int) -> int:
    """Round to the nearest 5, halves up: 0-2 -> 0, 3-7 -> 5, 11 -> 10, 21 -> 20."""
    return 5 * ((n + 2) // 5)


def hand_pips(hands: Sequence[Sequence[Tile]]) -> tuple[int, ...]:
    # Each seat's tiles flattened to their pips and summed, all in C (every hand's end).
    return tuple(map(sum, map(_flatten, hands)))


_flatten = chain.from_iterable


def domino_points(ruleset: Ruleset, winner: int, pips: Sequence[int]) -> int:
    if ruleset.domino_scoring == "one_point":
        return 1
    if ruleset.domino_scoring == "own_pips":
        return 0  # Mexican Train: every seat counts its own pips (engine/trains/rounds.py)
    if ruleset.domino_scoring == "all_pips":  # every hand left, a partner's too (RULES 14)
        return sum(pips)
    others = teams.others_pips(ruleset, winner, pips)
    return round5(others) if ruleset.domino_scoring == "opponents_pips_round5" else others


def blocked_outcome(ruleset: Ruleset, pips: Sequence[int]) -> tuple[int | None, int]:
    """(winner, points) of a blocked hand; winner None when the lowest total is shared, or when
    a blocked hand scores for nobody (`nobody`: Fives and Threes)."""
    if ruleset.block_scoring == "nobody":
        return None, 0
    if ruleset.partnership:
        return _team_blocked(ruleset, pips)
    lowest = min(pips)
    holders = [seat for seat, total in enumerate(pips) if total == lowest]
    if len(holders) > 1:
        return None, 0
    winner = holders[0]
    if ruleset.block_scoring == "own_pips":
        return winner, 0  # the lowest hand wins it; every seat counts its own pips
    others = sum(pips) - lowest
    if ruleset.block_scoring == "lowest_takes_all":
        return winner, sum(pips)
    if ruleset.block_scoring == "lowest_takes_others":
        return winner, others
    if ruleset.block_scoring == "lowest_takes_others_round5":
        return winner, round5(others)
    # lowest_takes_difference is defined for two seats; with more it sums the differences.
    return winner, others - lowest * (len(pips) - 1)


def _team_blocked(ruleset: Ruleset, pips: Sequence[int]) -> tuple[int | None, int]:
    """A blocked partnership hand: the team with fewer pips takes the other team's (rounded
    to 5, or less its own), or every hand's under `lowest_takes_all`; equal teams tie."""
    winner, own, theirs = teams.blocked_leader(pips)
    if winner is None:
        return None, 0
    scoring = ruleset.block_scoring
    if scoring == "lowest_takes_all":
        return winner, own + theirs
    if scoring == "lowest_takes_others_round5":
        return winner, round5(theirs)
    if scoring == "lowest_takes_difference":
        return winner, theirs - own
    return winner, theirs


def match_winner(
    ruleset: Ruleset, scores: Sequence[int], hands_won: Sequence[int]
) -> tuple[int, MatchReason] | None:
    """(winner, reason) once a hand has ended and the match is decided, else None."""
    if ruleset.best_of is None:
        best = max(scores)
        if best >= ruleset.target:
            return scores.index(best), "target"
        return None
    needed = ruleset.best_of
    top = max(hands_won)
    if 2 * top > needed:
        return hands_won.index(top), "best_of"
    if sum(hands_won) < needed:
        return None
    leaders = [seat for seat, won in enumerate(hands_won) if won == top]
    if len(leaders) == 1:
        return leaders[0], "best_of"
    most = max(scores[seat] for seat in leaders)
    by_points = [seat for seat in leaders if scores[seat] == most]
    if len(by_points) == 1:
        return by_points[0], "best_of"
    return None  # level on hands and points: one more deciding hand
