"""Planner: hidden-information discipline, determinism, sampling, match sense and speed."""

from __future__ import annotations

import random

from msgspec.structs import replace

from domino_api.bots.knowledge import known_voids, lacks
from domino_api.bots.planner import PlannerStrategy, sample_world
from domino_api.engine import PRESETS, Play, SeatView, seat_view
from tests.bots.test_plain import ALL_FIVES_ANY, BLOCKING_HANDS, FILLER_STOCK, blocking_position
from tests.engine.helpers import position, run

# Clock-free settings: the sample cap and work budget alone bound the search.
EXACT = PlannerStrategy(max_samples=60, work_budget=50_000)


def test_seat_view_holds_no_hidden_tiles() -> None:
    names = set(SeatView.__struct_fields__)
    assert names == {
        "ruleset", "seat", "status", "hand_number", "hand", "board", "ends_total", "counts",
        "stock", "scores", "hands_won", "turn", "must_cover", "legal", "history", "unseen",
    }  # fmt: skip
    # `stock` is a count, `counts` are numbers, history entries hide drawn faces.
    view = seat_view(blocking_position(), 0)
    assert isinstance(view.stock, int)
    assert all(isinstance(c, int) for c in view.counts)
    assert all(e.tile is None for e in view.history if e.kind != "play")


def twin_deals() -> tuple[SeatView, SeatView]:
    """Two hidden deals that differ only in which unseen tiles the opponent and stock hold."""
    mine, theirs = BLOCKING_HANDS
    # [4,5] and [6,6] trade places between the opponent's hand and the stock.
    swapped = [(6, 6) if t == (4, 5) else t for t in theirs]
    states = [blocking_position(), blocking_position([mine, swapped])]
    assert states[0].hand is not None and states[1].hand is not None
    assert states[0].hand.hands[1] != states[1].hand.hands[1]
    return seat_view(states[0], 0), seat_view(states[1], 0)


def test_same_view_same_decision_whatever_the_hidden_deal() -> None:
    first, second = twin_deals()
    assert first == second
    assert EXACT.choose(first, random.Random(11)) == EXACT.choose(second, random.Random(11))


def test_decisions_are_deterministic_for_a_seed() -> None:
    view = seat_view(blocking_position(), 0)
    decisions = {EXACT.choose(view, random.Random(5)) for _ in range(3)}
    assert len(decisions) == 1
    action, reason = decisions.pop()
    assert isinstance(action, Play)
    assert reason.startswith("planner: wins ") and reason.endswith(" samples")


def test_sampled_deals_respect_counts_and_known_voids() -> None:
    view = seat_view(blocking_position(), 0)
    voids = known_voids(view)
    assert voids[1] == frozenset({2, 3})
    rng = random.Random(3)
    for _ in range(200):
        world = sample_world(view, voids, rng)
        assert world.hands[0] == view.hand
        assert len(world.hands[1]) == view.counts[1]
        assert len(world.stock) == view.stock
        assert sorted(world.hands[1] + world.stock) == sorted(view.unseen)
        assert all(lacks(tile, voids[1]) for tile in world.hands[1])


def test_takes_the_points_that_win_the_match() -> None:
    rules = replace(ALL_FIVES_ANY, target=150)
    state = position(
        rules,
        [
            [(3, 6), (0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)],
            [(3, 4), (2, 6), (4, 5), (0, 5), (1, 5), (5, 5), (0, 6)],
        ],
        stock=FILLER_STOCK,
        scores=[0, 140],
    )
    state, _ = run(state, ((3, 6), None))
    action, reason = EXACT.choose(seat_view(state, 1), random.Random(1))
    # [3,4] scores 10 and reaches 150 at once; any other play gives seat 0 a turn.
    assert action == Play((3, 4), "left")
    assert reason.startswith("planner: scores 10, wins 100%")


def test_stops_at_its_budgets_and_reads_no_clock() -> None:
    """The search ends at its sample cap (here 4), however long each deal took: a busy machine
    makes the Planner slower, never weaker, and the same view and seed give the same choice."""
    planner = PlannerStrategy(max_samples=4)
    rules = replace(PRESETS["house-nines"], players=4)
    state = position(
        rules,
        [
            [(9, 9), (1, 9), (2, 9), (3, 9), (1, 4), (2, 5), (3, 6)],
            [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6)],
            [(1, 1), (1, 2), (1, 3), (1, 5), (1, 6), (1, 7), (1, 8)],
            [(2, 2), (2, 3), (2, 4), (2, 6), (2, 7), (2, 8), (3, 3)],
        ],
        stock=[(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (4, 9), (5, 9), (6, 9), (7, 9)],
        opening_tile=(9, 9),
    )
    state, _ = run(state, ((9, 9), None))  # the opening spinner; seat 0 must cover it
    view = seat_view(state, 0)
    assert len({o.tile for o in view.legal}) == 3
    action, reason = planner.choose(view, random.Random(0))
    assert reason.endswith("of 4 samples"), reason
    assert planner.choose(view, random.Random(0)) == (action, reason)
