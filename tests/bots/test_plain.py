"""Plain's choices on hand-made positions."""

from __future__ import annotations

import random

from domino_api.bots.plain import PlainStrategy
from domino_api.engine import PRESETS, Action, Draw, MatchState, Play, Tile, full_set, seat_view
from tests.engine.helpers import position, ruleset, run

PLAIN = PlainStrategy()
ALL_FIVES_ANY = ruleset(
    PRESETS["all-fives"], first_opener="seat_zero_any", next_opener="alternate_any"
)
FILLER_STOCK = [(0, 4), (1, 4), (2, 4), (2, 5), (3, 5)]


def decide(state: MatchState, seat: int) -> tuple[Action, str]:
    return PLAIN.choose(seat_view(state, seat), random.Random(0))


def test_a_score_beats_a_heavier_tile() -> None:
    state = position(
        ALL_FIVES_ANY,
        [
            [(6, 6), (0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)],
            [(3, 6), (5, 6), (4, 6), (0, 3), (1, 3), (2, 3), (3, 3)],
        ],
        stock=FILLER_STOCK,
    )
    state, _ = run(state, ((6, 6), None))  # the spinner alone: 12, no score
    action, reason = decide(state, 1)
    # [3,6] makes 12 + 3 = 15; the heavier [5,6] and [4,6] make 17 and 16.
    assert isinstance(action, Play) and action.tile == (3, 6)
    assert reason == "scores 15"


def test_fifteen_beats_ten_and_five() -> None:
    state = position(
        ALL_FIVES_ANY,
        [
            [(3, 6), (0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)],
            [(3, 4), (2, 6), (6, 6), (4, 5), (0, 5), (1, 5), (5, 5)],
        ],
        stock=FILLER_STOCK,
    )
    state, _ = run(state, ((3, 6), None))  # ends 3 and 6: 9
    view = seat_view(state, 1)
    points = {(o.tile, o.end): o.points for o in view.legal}
    assert points[((3, 4), "left")] == 10 and points[((2, 6), "right")] == 5
    action, reason = PLAIN.choose(view, random.Random(0))
    assert action == Play((6, 6), "right")
    assert reason == "scores 15"


def test_house_nines_plays_a_double_it_can_cover() -> None:
    rules = ruleset(PRESETS["house-nines"], players=2)
    state = position(
        rules,
        [
            [(5, 7), (0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (6, 6)],
            [(7, 7), (5, 5), (1, 5), (0, 1), (2, 3), (0, 2), (1, 3)],
        ],
        stock=[(8, 8), (9, 9), (0, 9), (1, 9)],
        opening_tile=(5, 7),
    )
    state, _ = run(state, ((5, 7), None))  # a line: 5 at left, 7 at right
    action, reason = decide(state, 1)
    # [7,7] is heavier but nothing else holds a 7; [5,5] can be covered by [1,5].
    assert action == Play((5, 5), "left")
    assert reason == "plays [5,5] and can cover it"


BLOCKING_HANDS = [
    [(2, 3), (2, 6), (5, 6), (0, 1), (1, 5), (4, 6), (1, 6)],
    [(4, 4), (4, 5), (1, 1), (0, 4), (1, 4), (5, 5), (0, 5)],
]


def full_stock(hands: list[list[Tile]], first: list[Tile]) -> list[Tile]:
    """`first` on top of the stock, then the rest of the double-six set."""
    dealt = {t for held in hands for t in held} | set(first)
    return first + [t for t in full_set(6) if t not in dealt]


def blocking_position(hands: list[list[Tile]] = BLOCKING_HANDS) -> MatchState:
    state = position(PRESETS["draw"], hands, stock=full_stock(hands, [(0, 0), (3, 6)]))
    state, _ = run(state, ((2, 3), None))
    action, reason = decide(state, 1)
    assert action == Draw() and reason == "draws: nothing fits 2 or 3"
    # Seat 1 draws [0,0] (no fit), then [3,6] and plays it: it has shown it lacks 2 and 3.
    state, _ = run(state, "draw", "draw", ((3, 6), "right"))
    return state


def test_leaves_the_opponent_short() -> None:
    state = blocking_position()
    action, reason = decide(state, 0)
    # Ends 2 and 6. [2,6] on the right leaves 2 and 2 open; heavier [5,6] would open a 5.
    assert action == Play((2, 6), "right")
    assert reason == "blocks 2s: opponent drew on 2"


def test_opens_with_the_heaviest_tile() -> None:
    state = position(
        PRESETS["draw"],
        [
            [(1, 2), (5, 6), (6, 6), (0, 0), (3, 4), (2, 2), (0, 5)],
            [(4, 4), (4, 5), (1, 1), (0, 4), (1, 4), (5, 5), (0, 1)],
        ],
        stock=FILLER_STOCK,
    )
    action, reason = decide(state, 0)
    assert action == Play((6, 6), None)
    assert reason == "opens with [6,6]"


def test_decisions_are_quick() -> None:
    """A Plain decision is a few dozen Python calls and never a search: it plays no imagined
    move (bench/bots.py times it: about 0.03 ms at the median)."""
    import sys
    from types import FrameType

    view = seat_view(blocking_position(), 0)
    called: list[str] = []

    def record(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            called.append(f"{frame.f_globals.get('__name__')}.{frame.f_code.co_name}")

    sys.setprofile(record)
    try:
        PLAIN.choose(view, random.Random(0))
    finally:
        sys.setprofile(None)
    assert 0 < len(called) < 200, len(called)  # 56 when written
    searching = ("domino_api.engine.hand.", "domino_api.bots.rollout.", "domino_api.bots.planner.")
    assert not [name for name in called if name.startswith(searching)]
