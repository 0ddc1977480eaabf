"""The planner's playouts: an imagined hand played to its end on the engine's hand reducer.

Every seat follows the rollout policy, a quick Plain: the highest fives score, then a double
only when it can be covered, then the heaviest tile, then the end that keeps the seat's suits.
The rules are the engine's own (`engine.hand.act` over `HandState.legal`): nothing here decides
what is legal, how tiles join the board or what a hand scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from domino_api.engine import LegalAction
from domino_api.engine.hand import act
from domino_api.engine.state import HandState
from domino_api.engine.teams import credit


@dataclass(frozen=True, slots=True)
class Outcome:
    # Points each seat gained in the rest of the hand (a team's, both; trains: -pips held).
    gains: tuple[int, ...]
    winner: int | None  # the hand's winner (None: a tied block)
    moves: int  # actions played: the planner's unit of work


def play_out(hand: HandState, first: LegalAction, scores: tuple[int, ...], target: int) -> Outcome:
    """Play `hand` to its end, its turn seat starting with `first`; `scores` are the match
    scores before the hand goes on (for a win inside the hand). In partnership a seat's points
    are its team's: both partners gain them, as the engine scores them (engine/teams.py)."""
    ruleset = hand.deal.rules.ruleset
    gains = (0,) * len(scores)
    seat = hand.turn
    option = first
    moves = 0
    while seat is not None:
        moves += 1
        needs = target - scores[seat] - gains[seat]
        hand = act(hand, seat, option, 0, None, needs, False)  # False: imagined, not recorded
        if option.points:
            gains = credit(ruleset, gains, seat, option.points)
        result = hand.result
        if result is not None:
            if ruleset.domino_scoring == "own_pips":
                # Mexican Train: each seat's pips count against it (a negative gain).
                return Outcome(tuple(-p for p in result.pips), result.winner, moves)
            if result.winner is not None:
                gains = credit(ruleset, gains, result.winner, result.points)
            return Outcome(gains, result.winner, moves)
        seat = hand.turn
        option = rollout_choice(hand)
    raise AssertionError("a hand in play always has a seat to act")


def rollout_choice(hand: HandState) -> LegalAction:
    """The rollout policy's pick among the turn seat's legal actions: the highest fives score,
    then a double only when it can be covered, then the heaviest tile (doubles first), then
    the end whose new pip the seat holds most of."""
    legal = hand.legal
    if len(legal) == 1:
        return legal[0]
    assert hand.turn is not None
    deal = hand.deal
    held = hand.held[hand.turn]
    suits = deal.suits
    cover = deal.rules.cover_doubles
    ends = hand.board.ends
    best = legal[0]
    best_key = -1
    several = held & (held - 1)  # the seat holds more than the tile it plays
    for option in legal:
        tile = option.tile
        assert tile is not None
        low, high = tile
        # A double is uncoverable when no other tile the seat holds carries its pip.
        uncoverable = cover and low == high and several and (held & suits[low]).bit_count() == 1
        pip = high  # the pip the tile joins (opening the hand: as if its high side)
        for end in ends:
            if end.name == option.end:
                pip = end.pip
                break
        outer = high if low == pip else low
        # One number ordered as the preferences are: points, coverable, weight, suits kept
        # (the seat's tiles carrying the new pip: the tile played counts itself in every option).
        key = (
            (option.points or 0) * 1_000_000
            + (0 if uncoverable else 100_000)
            + (2 * (low + high) + (low == high)) * 100
            + (held & suits[outer]).bit_count()
        )
        if key > best_key:
            best, best_key = option, key
    return best
