"""RULES section 9: points targets, ending mid-hand, best of N, forfeits and abandonment."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domino_api.engine import (
    PRESETS,
    Abandon,
    Forfeit,
    MatchOver,
    NextHand,
    SeatForfeited,
    apply,
)
from domino_api.engine.scoring import match_winner
from domino_api.engine.state import MatchResult
from tests.engine.helpers import events_of, plain, position, ruleset, run

FIVES = PRESETS["all-fives"]
DRAW50 = PRESETS["draw-50"]
CLASSIC = PRESETS["classic"]
NINES = PRESETS["house-nines"]


def test_target_is_checked_when_the_hand_ends() -> None:
    state = position(DRAW50, [[(1, 2)], [(6, 6), (5, 6)]], scores=(30, 45))
    state, events = run(state, ((1, 2), None))
    assert state.status == "finished"
    assert state.result == MatchResult(
        winner=0, reason="target", scores=(53, 45), hands_won=(1, 0), forfeited_by=None
    )
    assert [e.type for e in events] == ["tile_played", "scored", "hand_ended", "match_ended"]
    assert events[-1].data.winner == 0


def test_below_target_the_hand_is_over_and_the_match_goes_on() -> None:
    state = position(DRAW50, [[(1, 2)], [(0, 1)]], scores=(30, 45))
    state, _ = run(state, ((1, 2), None))
    assert state.status == "hand_over" and state.scores == (31, 45)


def test_end_mid_hand_the_match_ends_inside_the_hand() -> None:
    state = position(FIVES, [[(2, 3), (6, 6)], [(4, 4), (1, 1)]], scores=(145, 100))
    state, events = run(state, ((2, 3), None))
    assert state.status == "finished" and state.scores == (150, 100)
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["reason"] == "target" and ended["winner"] == 0 and ended["points"] == 0
    assert ended["tied"] is False and ended["pips"] == (12, 10)
    assert state.result is not None and state.result.reason == "target"


def test_end_mid_hand_adds_no_hand_points_even_on_a_domino() -> None:
    state = position(FIVES, [[(2, 3)], [(4, 4), (1, 1)]], scores=(145, 100))
    state, events = run(state, ((2, 3), None))
    assert state.scores == (150, 100)
    assert events_of(events, "hand_ended")[0].data.reason == "target"
    assert [e.data.cause for e in events_of(events, "scored")] == ["play"]


def test_end_mid_hand_below_target_play_goes_on() -> None:
    state = position(FIVES, [[(2, 3), (6, 6)], [(4, 4), (1, 1)]], scores=(140, 100))
    state, _ = run(state, ((2, 3), None))
    assert state.status == "playing" and state.scores == (145, 100)


BEST_OF_3 = ruleset(CLASSIC, best_of=3)
BEST_OF_2 = ruleset(CLASSIC, best_of=2)


def test_best_of_tied_hand_is_replayed_and_does_not_count() -> None:
    state = position(BEST_OF_3, [[(0, 0), (1, 4)], [(2, 3)]], hands_won=(1, 1))
    state, _ = run(state, ((0, 0), None), "pass", "pass")
    assert state.status == "hand_over" and state.hands_won == (1, 1)
    state = apply(state, None, NextHand()).state
    assert state.hand_number == 2 and state.status == "playing"


def test_best_of_stops_early_once_a_seat_has_a_majority() -> None:
    state = position(BEST_OF_3, [[(1, 2)], [(0, 1)]], hands_won=(1, 0))
    state, _ = run(state, ((1, 2), None))
    assert state.status == "finished"
    assert state.result is not None and state.result.reason == "best_of"
    assert state.result.winner == 0 and state.hands_won == (2, 0)


def test_best_of_even_level_on_hands_higher_points_win() -> None:
    state = position(BEST_OF_2, [[(1, 2)], [(0, 1)]], hands_won=(0, 1), scores=(0, 30))
    state, _ = run(state, ((1, 2), None))
    assert state.hands_won == (1, 1) and state.scores == (1, 30)
    assert state.result is not None and state.result.winner == 1
    assert state.result.reason == "best_of"


def test_best_of_even_level_on_hands_and_points_plays_an_extra_hand() -> None:
    state = position(BEST_OF_2, [[(1, 2)], [(0, 1)]], hands_won=(0, 1), scores=(29, 30))
    state, _ = run(state, ((1, 2), None))
    assert state.hands_won == (1, 1) and state.scores == (30, 30)
    assert state.status == "hand_over"
    state = apply(state, None, NextHand()).state
    assert state.hand_number == 2


def test_best_of_ignores_the_target() -> None:
    state = position(BEST_OF_3, [[(1, 2)], [(6, 6), (5, 6)]], scores=(95, 0))
    state, _ = run(state, ((1, 2), None))
    assert state.scores == (118, 0) and state.status == "hand_over"


def test_match_winner_rules() -> None:
    assert match_winner(BEST_OF_3, (0, 0), (2, 0)) == (0, "best_of")
    assert match_winner(BEST_OF_3, (0, 0), (1, 1)) is None
    assert match_winner(ruleset(CLASSIC, best_of=4), (10, 20), (2, 2)) == (1, "best_of")
    assert match_winner(ruleset(CLASSIC, best_of=4), (20, 20), (2, 2)) is None
    assert match_winner(ruleset(CLASSIC, best_of=4), (20, 20), (3, 2)) == (0, "best_of")
    assert match_winner(ruleset(CLASSIC, best_of=1), (0, 0), (0, 1)) == (1, "best_of")
    assert match_winner(CLASSIC, (99, 100), (0, 0)) == (1, "target")


def test_two_seat_forfeit_ends_hand_and_match() -> None:
    state = position(CLASSIC, [[(1, 2), (3, 3)], [(0, 1)]])
    transition = apply(state, None, Forfeit(seat=0, cause="clock"))
    types = [e.type for e in transition.events]
    assert types == ["forfeit", "hand_ended", "match_ended"]
    ended = plain(transition.events[1].data)
    assert ended["reason"] == "forfeit" and ended["winner"] is None and ended["points"] == 0
    result = transition.state.result
    assert result is not None
    assert (result.winner, result.reason, result.forfeited_by) == (1, "forfeit", 0)
    assert transition.state.status == "finished" and transition.state.forfeited == (True, False)


def test_two_seat_forfeit_between_hands() -> None:
    state = position(CLASSIC, [[(1, 2)], [(0, 1)]])
    state, _ = run(state, ((1, 2), None))
    transition = apply(state, None, Forfeit(seat=1, cause="away"))
    assert [e.type for e in transition.events] == ["forfeit", "match_ended"]
    assert transition.state.result is not None and transition.state.result.winner == 0


def test_larger_match_forfeit_marks_the_seat_and_goes_on() -> None:
    rules = ruleset(NINES, players=3)
    state = position(rules, [[(0, 1), (2, 2)], [(8, 9), (3, 4)], [(7, 7), (5, 6)]])
    transition = apply(state, None, Forfeit(seat=1, cause="resign"))
    assert [e.type for e in transition.events] == ["forfeit"]
    state = transition.state
    assert state.status == "playing" and state.forfeited == (False, True, False)
    with pytest.raises(SeatForfeited):
        apply(state, None, Forfeit(seat=1, cause="resign"))


def test_abandon_in_play() -> None:
    state = position(CLASSIC, [[(1, 2), (3, 3)], [(0, 1)]], scores=(10, 5))
    transition = apply(state, None, Abandon())
    assert [e.type for e in transition.events] == ["hand_ended", "match_ended"]
    assert transition.events[0].data.reason == "abandoned"
    assert transition.state.status == "abandoned"
    assert transition.state.result is not None
    assert transition.state.result == MatchResult(
        winner=None, reason="abandoned", scores=(10, 5), hands_won=(0, 0), forfeited_by=None
    )
    with pytest.raises(MatchOver):
        apply(transition.state, None, Abandon())


def test_cancel_a_waiting_match() -> None:
    from domino_api.engine import new_match

    transition = apply(new_match(CLASSIC, b"k" * 32), None, Abandon(reason="cancelled"))
    assert transition.state.status == "cancelled"
    assert [e.type for e in transition.events] == ["match_ended"]
    assert transition.state.seq == 1


def test_a_forfeited_seat_played_on_to_the_target_never_wins() -> None:
    """Issue 50: house nines, the leader resigned and the computer played its seat on to the
    target; the winner is the best of the seats that did not forfeit, not the forfeited one."""
    hands = [[(9, 9), (8, 9)], [(0, 1), (0, 2)], [(4, 5)]]
    state = position(NINES, hands, opener=2, scores=(0, 29, NINES.target - 1))
    state = replace(state, forfeited=(False, False, True))
    state, events = run(state, ((4, 5), None))  # the computer dominoes for the forfeited seat
    assert state.status == "finished" and state.result is not None
    assert state.scores[2] >= NINES.target  # the forfeited seat reached the target...
    assert state.result.winner == 1  # ...but the best standing seat wins
    assert events_of(events, "match_ended")[0].data.winner == 1


def test_seats_sharing_first_behind_a_forfeited_seat_leave_no_winner() -> None:
    hands = [[(9, 9), (8, 9)], [(0, 1), (0, 2)], [(4, 5)]]
    state = position(NINES, hands, opener=2, scores=(29, 29, NINES.target - 1))
    state = replace(state, forfeited=(False, False, True))
    state, _ = run(state, ((4, 5), None))
    assert state.result is not None and state.result.winner is None
