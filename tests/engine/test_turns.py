"""RULES sections 5 and 6: whose turn, drawing, passing, blocking and covering doubles."""

from __future__ import annotations

import pytest

from domino_api.engine import PRESETS, Draw, IllegalMove, Pass, apply, legal_actions
from tests.engine.helpers import events_of, plain, position, ruleset, run, wire

DRAW = PRESETS["draw"]
BLOCK = PRESETS["block"]
CLASSIC = PRESETS["classic"]
NINES = PRESETS["house-nines"]


def kinds(state: object, seat: int) -> list[str]:
    return [o.action for o in legal_actions(state, seat)]  # type: ignore[arg-type]


def test_turn_passes_to_the_next_seat() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 3), (5, 5)]], stock=[(4, 4)])
    state, events = run(state, ((1, 2), None))
    assert state.turn == 1
    turn = events_of(events, "turn")[0]
    assert plain(turn.data) == {"seat": 1, "deadline": None, "must_cover": None}
    assert wire(turn.private[1])["legal"] == [
        {"action": "play", "tile": [2, 3], "end": "right", "points": 0}
    ]


def test_draw_until_playable_then_must_play_the_drawn_tile() -> None:
    stock = [(4, 4), (5, 6), (2, 6), (3, 3)]
    state = position(DRAW, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=stock)
    state, _ = run(state, ((1, 2), None))
    assert kinds(state, 1) == ["draw"]
    state, events = run(state, "draw", "draw")
    assert state.turn == 1 and kinds(state, 1) == ["draw"]
    assert not events_of(events, "turn")  # a draw keeps the turn (and its deadline)
    state, _ = run(state, "draw")
    legal = legal_actions(state, 1)
    assert [(o.tile, o.end) for o in legal] == [((2, 6), "right")]
    with pytest.raises(IllegalMove, match="playable"):
        apply(state, 1, Draw())


def test_draw_one_that_fits_must_be_played() -> None:
    rules = ruleset(CLASSIC, draw="one")
    state = position(rules, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[(2, 6), (3, 3)])
    state, _ = run(state, ((1, 2), None), "draw")
    assert state.turn == 1 and kinds(state, 1) == ["play"]


def test_draw_one_that_does_not_fit_passes_the_turn_without_a_pass() -> None:
    rules = ruleset(CLASSIC, draw="one")
    state = position(rules, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[(3, 3), (2, 6)])
    state, events = run(state, ((1, 2), None), "draw")
    assert state.turn == 0
    assert not events_of(events, "passed")
    assert state.hand is not None and state.hand.hands[1] == ((5, 5), (4, 5), (3, 3))
    assert [m.action for m in state.hand.moves] == ["play", "draw"]


def test_with_the_stock_empty_a_seat_passes() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[])
    state, _ = run(state, ((1, 2), None))
    assert kinds(state, 1) == ["pass"]


def test_pass_is_refused_while_the_seat_may_draw() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[(3, 3)])
    state, _ = run(state, ((1, 2), None))
    with pytest.raises(IllegalMove, match="draw from the stock"):
        apply(state, 1, Pass())


def test_pass_and_draw_are_refused_while_holding_a_playable_tile() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 5), (4, 5)]], stock=[(3, 3)])
    state, _ = run(state, ((1, 2), None))
    with pytest.raises(IllegalMove, match=r"playable tile \(\[2, 5\] on right\)"):
        apply(state, 1, Pass())
    with pytest.raises(IllegalMove, match="playable"):
        apply(state, 1, Draw())


def test_block_never_draws_and_two_passes_block_the_hand() -> None:
    state = position(BLOCK, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[(2, 6), (3, 3)])
    state, _ = run(state, ((1, 2), None))
    assert kinds(state, 1) == ["pass"]
    with pytest.raises(IllegalMove, match="no drawing"):
        apply(state, 1, Draw())
    state, events = run(state, "pass")
    assert state.status == "playing" and state.turn == 0
    state, events = run(state, "pass")
    assert state.status == "hand_over"
    assert events_of(events, "hand_ended")[0].data.reason == "blocked"


def test_a_play_between_passes_resets_the_count() -> None:
    state = position(BLOCK, [[(1, 2), (2, 2), (6, 6)], [(5, 5), (4, 5)]])
    state, _ = run(state, ((1, 2), None), "pass", ((2, 2), "right"), "pass")
    assert state.status == "playing" and state.turn == 0


def test_cover_doubles_opening_double_plays_again_and_must_be_covered() -> None:
    rules = ruleset(NINES, players=2)
    state = position(
        rules,
        [[(9, 9), (5, 9), (1, 1)], [(8, 9), (2, 3)]],
        stock=[(4, 4), (0, 9)],
        opening_tile=(9, 9),
    )
    state, events = run(state, ((9, 9), None))
    assert state.turn == 0
    turn = plain(events_of(events, "turn")[0].data)
    assert turn["must_cover"] == {"tile": (9, 9), "ends": ("left", "right", "up", "down")}
    assert {o.end for o in legal_actions(state, 0)} == {"left", "right", "up", "down"}
    state, events = run(state, ((5, 9), "up"))  # a spinner is covered on any of its sides
    assert state.turn == 1 and events_of(events, "turn")[0].data.must_cover is None


def test_until_covered_only_plays_onto_the_double_are_legal() -> None:
    rules = ruleset(NINES, players=2)
    state = position(
        rules,
        [[(2, 3), (3, 3), (0, 1)], [(2, 5), (1, 2)]],
        stock=[(4, 4), (3, 9), (7, 8)],
    )
    state, _ = run(state, ((2, 3), None), ((2, 5), "left"), ((3, 3), "right"))
    assert state.turn == 0 and kinds(state, 0) == ["draw"]  # [0,1] cannot cover [3,3]
    state, _ = run(state, "draw")  # [4,4] does not cover: the next seat must cover or draw
    assert state.turn == 1 and kinds(state, 1) == ["draw"]
    state, _ = run(state, "draw")  # [3,9] covers: it must be played now
    assert [(o.tile, o.end) for o in legal_actions(state, 1)] == [((3, 9), "right")]


def test_emptying_the_hand_with_a_double_ends_the_hand_at_once() -> None:
    rules = ruleset(NINES, players=2)
    state = position(rules, [[(2, 3), (3, 3)], [(2, 5), (1, 2), (7, 7)]])
    state, events = run(state, ((2, 3), None), ((2, 5), "left"), ((3, 3), "right"))
    assert state.status == "hand_over"
    assert events_of(events, "hand_ended")[0].data.reason == "domino"
