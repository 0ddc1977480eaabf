"""RULES section 9: who opens each hand, and with what."""

from __future__ import annotations

from domino_api.engine import PRESETS, NextHand, Start, apply, deal, legal_actions, new_match
from domino_api.engine.openers import heaviest_tile, highest_double
from tests.engine.helpers import SECRET, events_of, position, ruleset, run, wire

FIVES = PRESETS["all-fives"]
CLASSIC = PRESETS["classic"]
DRAW = PRESETS["draw"]


def test_opener_tiebreak_0_6_beats_1_5() -> None:
    hands = (((1, 5), (0, 2)), ((0, 6), (1, 2)))
    assert heaviest_tile(hands) == (1, (0, 6))


def test_heaviest_tile_prefers_the_higher_count() -> None:
    assert heaviest_tile((((2, 5),), ((1, 6), (0, 6)))) == (1, (1, 6))


def test_highest_double_wins_over_heavier_tiles() -> None:
    assert highest_double((((5, 6), (1, 1)), ((2, 2), (4, 6)))) == (1, (2, 2))
    assert highest_double((((5, 6),), ((4, 6),))) is None


def _cut_without_doubles() -> str:
    for n in range(5000):
        cut = f"r{n}"
        if highest_double(deal(SECRET, cut, 1, 0, 6, 2, 7).hands) is None:
            return cut
    raise AssertionError("no such cut")


def test_highest_double_else_reshuffle_deals_again() -> None:
    cut = _cut_without_doubles()
    transition = apply(new_match(FIVES, SECRET), None, Start(cut))
    started = wire(events_of(list(transition.events), "hand_started")[0].data)
    assert started["attempt"] >= 1
    hand = transition.state.hand
    assert hand is not None
    expected = deal(SECRET, cut, 1, hand.attempt, 6, 2, 7)
    assert hand.dealt == expected.hands and hand.stock == expected.stock
    seat, double = highest_double(hand.dealt) or (None, None)
    assert hand.opener == seat == started["opener"]
    assert [(o.tile, o.end) for o in legal_actions(transition.state, seat)] == [(double, None)]


def test_highest_double_else_heaviest_forces_the_tile() -> None:
    cut = _cut_without_doubles()
    state = apply(new_match(CLASSIC, SECRET), None, Start(cut)).state
    assert state.hand is not None and state.hand.attempt == 0
    seat, tile = heaviest_tile(state.hand.dealt)
    assert state.turn == seat
    assert [(o.tile, o.end) for o in legal_actions(state, seat)] == [(tile, None)]


def test_seat_zero_any_opens_hand_one_with_any_tile() -> None:
    state = apply(new_match(DRAW, SECRET), None, Start("x")).state
    assert state.turn == 0 and state.hand is not None
    assert len(legal_actions(state, 0)) == 7


def test_winner_any_the_winner_opens_next_hand_with_any_tile() -> None:
    state = position(CLASSIC, [[(0, 0), (5, 6)], [(0, 1)]], stock=[(3, 3)])
    state, _ = run(state, ((0, 0), None), ((0, 1), "left"))
    assert state.status == "hand_over" and state.last_hand is not None
    assert state.last_hand.winner == 1
    state = apply(state, None, NextHand()).state
    assert state.hand_number == 2 and state.turn == 1
    assert len(legal_actions(state, 1)) == 7


def test_winner_any_after_a_tie_the_seat_after_the_opener_opens() -> None:
    rules = ruleset(CLASSIC, draw="one")
    state = position(rules, [[(2, 3)], [(0, 0), (1, 4)]], opener=1)
    state, _ = run(state, ((0, 0), None), "pass", "pass")
    assert state.last_hand is not None and state.last_hand.tied
    state = apply(state, None, NextHand()).state
    assert state.turn == 0


def test_lock_reshuffle_after_a_domino_the_winner_opens_any() -> None:
    state = position(FIVES, [[(1, 2)], [(2, 4), (3, 4)]])
    state, _ = run(state, ((1, 2), None))
    state = apply(state, None, NextHand()).state
    assert state.turn == 0 and len(legal_actions(state, 0)) == 7


def test_lock_reshuffle_after_a_block_the_highest_double_opens() -> None:
    state = position(FIVES, [[(0, 0), (5, 6)], [(6, 6), (4, 5)]])
    state, _ = run(state, ((0, 0), None), "pass", "pass")
    state = apply(state, None, NextHand()).state
    hand = state.hand
    assert hand is not None
    seat, double = highest_double(hand.dealt) or (None, None)
    assert state.turn == seat
    assert [(o.tile, o.end) for o in legal_actions(state, seat)] == [(double, None)]


def test_alternate_any_rotates_whoever_wins() -> None:
    state = position(DRAW, [[(1, 2)], [(2, 4), (3, 4)]], opener=0)
    state, _ = run(state, ((1, 2), None))
    state = apply(state, None, NextHand()).state
    assert state.turn == 1 and len(legal_actions(state, 1)) == 7


def test_hands_are_numbered_across_the_match_and_dealt_by_number() -> None:
    state = position(DRAW, [[(1, 2)], [(2, 4), (3, 4)]])
    state, _ = run(state, ((1, 2), None))
    transition = apply(state, None, NextHand())
    started = transition.events[0]
    assert started.type == "hand_started" and started.data.hand_number == 2
    hand = transition.state.hand
    assert hand is not None and hand.dealt == deal(SECRET, "test", 2, 0, 6, 2, 7).hands
