"""RULES section 4 and 7: the layout, open ends and fives scoring, worked examples first."""

from __future__ import annotations

import random

from domino_api.engine import PRESETS, MatchState, Start, apply, new_match, view
from domino_api.engine.layout import EMPTY_BOARD, place, play_points, total_after
from tests.engine.helpers import events_of, plain, position, run

FIVES = PRESETS["all-fives"]
NINES = PRESETS["house-nines"]


def ends(state: MatchState) -> dict[str, int]:
    return {e.end: e.pips for e in view(state, 0).board.ends}


def test_fives_first_tile_2_3_scores_5() -> None:
    state = position(FIVES, [[(2, 3), (0, 1)], [(4, 4), (1, 1)]])
    state, events = run(state, ((2, 3), None))
    played = plain(events_of(events, "tile_played")[0].data)
    assert played["points"] == 5 and played["ends_total"] == 5
    assert [e.data.points for e in events_of(events, "scored")] == [5]
    assert state.scores == (5, 0)


def test_first_double_6_6_alone_counts_12() -> None:
    state = position(FIVES, [[(6, 6), (0, 1)], [(4, 4), (1, 1)]])
    state, events = run(state, ((6, 6), None))
    assert events[0].data.ends_total == 12 and events[0].data.points == 0
    assert events[0].data.spinner is True


def test_spinner_6_6_6_3_is_15() -> None:
    state = position(FIVES, [[(6, 6), (0, 1)], [(3, 6), (1, 1)]])
    state, events = run(state, ((6, 6), None), ((3, 6), "right"))
    played = plain(events_of(events, "tile_played")[-1].data)
    assert played["ends_total"] == 15 and played["points"] == 15 and played["outer"] == 3
    assert state.scores == (0, 15)
    assert ends(state) == {"left": 6, "right": 3}  # arms stay shut until both sides are filled


def test_2_6_6_6_6_3_is_5() -> None:
    state = position(FIVES, [[(2, 6), (3, 6), (0, 0)], [(6, 6), (1, 1)]])
    state, events = run(state, ((2, 6), None), ((6, 6), "right"))
    assert events_of(events, "tile_played")[-1].data.ends_total == 2 + 12
    assert events_of(events, "tile_played")[-1].data.spinner is True
    state, events = run(state, ((3, 6), "right"))
    assert events[0].data.ends_total == 5 and events[0].data.points == 5
    assert ends(state) == {"left": 2, "right": 3, "up": 6, "down": 6}


def test_double_lying_across_at_an_end_counts_both_halves() -> None:
    state = position(FIVES, [[(6, 6), (4, 4), (0, 0)], [(4, 6), (1, 1)]])
    state, events = run(state, ((6, 6), None), ((4, 6), "right"), ((4, 4), "right"))
    # the spinner's empty left side counts 12, the [4,4] lying across counts 8
    last = plain(events_of(events, "tile_played")[-1].data)
    assert last["ends_total"] == 20 and last["points"] == 20
    assert last["spinner"] is False


def test_spinner_counts_zero_once_both_main_sides_hold_tiles() -> None:
    state = position(FIVES, [[(6, 6), (1, 6), (0, 0)], [(3, 6), (5, 6), (2, 2)]])
    state, events = run(state, ((6, 6), None), ((3, 6), "right"), ((1, 6), "left"))
    assert events_of(events, "tile_played")[-1].data.ends_total == 1 + 3  # empty arms: 0
    state, events = run(state, ((5, 6), "up"))
    assert events[0].data.ends_total == 1 + 3 + 5


def test_only_the_first_double_is_a_spinner() -> None:
    state = position(FIVES, [[(2, 6), (2, 2), (0, 0)], [(6, 6), (3, 6), (1, 1)]])
    state, events = run(state, ((2, 6), None), ((6, 6), "right"), ((2, 2), "left"))
    assert [e.data.spinner for e in events_of(events, "tile_played")] == [False, True, False]
    assert "up" not in ends(state)


def test_totals_of_35_and_more_score() -> None:
    seat0 = [(3, 3), (3, 5), (5, 5), (4, 4), (1, 5), (0, 0)]
    seat1 = [(3, 6), (6, 6), (3, 4), (1, 3), (0, 2)]
    state = position(FIVES, [seat0, seat1])
    steps = [
        ((3, 3), None),
        ((3, 6), "right"),
        ((3, 5), "left"),
        ((6, 6), "right"),
        ((5, 5), "left"),
        ((3, 4), "up"),
        ((4, 4), "up"),
        ((1, 3), "down"),
        ((1, 5), "down"),
    ]
    state, events = run(state, *steps)
    last = plain(events_of(events, "tile_played")[-1].data)
    assert last["ends_total"] == 10 + 12 + 8 + 5 == 35
    assert last["points"] == 35


def test_house_nines_opening_double_opens_four_sides_at_once() -> None:
    board = place(EMPTY_BOARD, (5, 5), None, "spinner_opening_double")
    assert [e.name for e in board.ends] == ["left", "right", "up", "down"]
    assert board.total == 10
    board = place(board, (2, 5), "up", "spinner_opening_double")
    assert board.total == 10 + 2  # both main sides still empty: the spinner counts once
    board = place(board, (5, 7), "left", "spinner_opening_double")
    board = place(board, (5, 9), "right", "spinner_opening_double")
    assert board.total == 2 + 7 + 9  # down is an empty arm: 0


def test_non_double_opener_lies_a_left_b_right() -> None:
    board = place(EMPTY_BOARD, (2, 5), None, "line")
    assert board.pips() == {"left": 2, "right": 5}
    assert place(EMPTY_BOARD, (2, 5), None, "line") == board


def test_line_double_opener_counts_once_alone_and_across_later() -> None:
    board = place(EMPTY_BOARD, (6, 6), None, "line")
    assert board.total == 12
    assert place(board, (3, 6), "right", "line").total == 12 + 3


def test_fives_points_only_positive_multiples_of_five() -> None:
    totals = (0, 4, 5, 12, 30, 35, 40)
    assert [play_points("fives", n) for n in totals] == [0, 0, 5, 0, 30, 35, 40]


def test_legal_plays_show_what_they_would_score() -> None:
    state = position(FIVES, [[(6, 6), (0, 1)], [(3, 6), (1, 6), (2, 2)]])
    state, _ = run(state, ((6, 6), None))
    legal = {(*o.tile, o.end): o.points for o in view(state, 1).legal if o.tile is not None}
    assert legal == {(3, 6, "left"): 15, (3, 6, "right"): 15, (1, 6, "left"): 0, (1, 6, "right"): 0}


def test_total_after_is_the_placed_boards_total() -> None:
    """layout.total_after (how every candidate's fives points are weighed) agrees with place."""
    compared = 0
    for preset in ("all-fives", "house-nines", "draw"):
        rules = PRESETS[preset]
        rng = random.Random(preset)
        for index in range(20):
            state = apply(new_match(rules, rng.randbytes(32)), None, Start(str(index))).state
            while state.status == "playing" and state.hand is not None:
                board = state.hand.board
                for option in state.hand.legal:
                    if option.tile is not None:
                        placed = place(board, option.tile, option.end, rules.layout).total
                        joined = next((e for e in board.ends if e.name == option.end), None)
                        assert total_after(board, option.tile, joined, rules.layout) == placed
                        compared += 1
                state = apply(state, state.turn, rng.choice(state.hand.legal)).state
    assert compared > 1000
