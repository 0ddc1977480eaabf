"""Standings and the tiebreak chain: wins, head-to-head in the tie group, hands, points, order."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domino_api.tournaments.pairing import round_robin_schedule, seeded_order
from domino_api.tournaments.standings import MatchRecord, Standing, standings


def win(
    winner: str, loser: str, hands: tuple[int, int] = (1, 0), points: tuple[int, int] = (0, 0)
) -> MatchRecord:
    """``winner`` beat ``loser``; ``hands``/``points`` are (winner's, loser's)."""
    return MatchRecord(players=(winner, loser), winner=winner, hands=hands, points=points)


def ranking(order: list[str], records: list[MatchRecord]) -> list[str]:
    return [s.player_id for s in standings(order, records)]


def test_no_matches_ranks_by_order() -> None:
    assert standings(["c", "a", "b"], []) == [
        Standing("c", 1, 0, 0, 0),
        Standing("a", 2, 0, 0, 0),
        Standing("b", 3, 0, 0, 0),
    ]


def test_totals_and_orientation() -> None:
    records = [
        MatchRecord(players=("a", "b"), winner="b", hands=(1, 3), points=(40, 110)),
        MatchRecord(players=("c", "a"), winner="a", hands=(0, 2), points=(10, 100)),
    ]
    table = {s.player_id: s for s in standings(["a", "b", "c"], records)}
    assert table["a"] == Standing("a", 2, 1, 2 - 2 + 0, 100 - 10 - 70)
    assert table["b"] == Standing("b", 1, 1, 2, 70)
    assert table["c"] == Standing("c", 3, 0, -2, -90)


def test_match_wins_come_first() -> None:
    # b has the better hand and point difference but fewer wins.
    records = [win("a", "c"), win("a", "d"), win("b", "c", hands=(9, 0), points=(500, 0))]
    assert ranking(["b", "a", "c", "d"], records) == ["a", "b", "d", "c"]  # d: -1 hands, c: -10


def test_head_to_head_decides_a_two_way_tie_over_hand_diff() -> None:
    # a and b both have 2 wins; b has far better hand and point differences but a beat b.
    records = [
        win("a", "b", hands=(2, 1)),
        win("a", "c", hands=(2, 1)),
        win("b", "c", hands=(5, 0), points=(300, 0)),
        win("b", "d", hands=(5, 0), points=(300, 0)),
    ]
    table = {s.player_id: s for s in standings(["b", "a", "c", "d"], records)}
    assert table["a"].match_wins == table["b"].match_wins == 2
    assert table["b"].hand_diff > table["a"].hand_diff
    assert table["a"].rank == 1
    assert table["b"].rank == 2


def test_head_to_head_counts_only_matches_inside_the_tie_group() -> None:
    # a, b tied on 1 win and never met each other: head-to-head 0-0, hand diff decides,
    # even though a's win came against c (who is not in the tie group).
    records = [win("a", "c", hands=(1, 0)), win("b", "c", hands=(3, 0)), win("c", "d")]
    assert ranking(["a", "b", "c", "d"], records)[:2] == ["b", "a"]


CYCLE = [  # a beats b, b beats c, c beats a: one head-to-head win each
    win("a", "b"),
    win("b", "c"),
    win("c", "a"),
]


def test_three_way_cycle_falls_to_hand_diff() -> None:
    records = [
        MatchRecord(("a", "b"), "a", hands=(2, 1), points=(100, 90)),  # a +1, b -1
        MatchRecord(("b", "c"), "b", hands=(3, 0), points=(100, 0)),  # b +3, c -3
        MatchRecord(("c", "a"), "c", hands=(2, 0), points=(100, 95)),  # c +2, a -2
    ]
    table = standings(["a", "b", "c"], records)
    assert [(s.player_id, s.hand_diff) for s in table] == [("b", 2), ("a", -1), ("c", -1)]
    # a and c tie on hand diff -1 too: point diff (a: +10 - 5 = 5, c: -100 + 5 = -95).
    assert [s.point_diff for s in table] == [90, 5, -95]


def test_three_way_cycle_falls_to_point_diff() -> None:
    records = [
        MatchRecord(("a", "b"), "a", hands=(2, 1), points=(100, 50)),  # a +50, b -50
        MatchRecord(("b", "c"), "b", hands=(2, 1), points=(100, 80)),  # b +20, c -20
        MatchRecord(("c", "a"), "c", hands=(2, 1), points=(100, 60)),  # c +40, a -40
    ]
    table = standings(["a", "b", "c"], records)
    assert {s.hand_diff for s in table} == {0}
    assert [(s.player_id, s.point_diff) for s in table] == [("c", 20), ("a", 10), ("b", -30)]


@pytest.mark.parametrize("order", [["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]])
def test_three_way_cycle_falls_to_seeded_order(order: list[str]) -> None:
    assert ranking(order, CYCLE) == order
    assert [s.rank for s in standings(order, CYCLE)] == [1, 2, 3]


def test_hand_diff_before_point_diff_before_order() -> None:
    # Nobody wins (matches without a result), so wins and head-to-head are all 0.
    records = [
        MatchRecord(("a", "x"), None, hands=(0, 0), points=(90, 0)),  # a: hands 0, points +90
        MatchRecord(("b", "x"), None, hands=(1, 0), points=(0, 50)),  # b: hands +1, points -50
        MatchRecord(("c", "x"), None, hands=(0, 0), points=(0, 0)),  # c: all 0
        MatchRecord(("d", "x"), None, hands=(0, 0), points=(0, 0)),  # d: all 0
    ]
    order = ["x", "d", "c", "a", "b"]
    assert ranking(order, records) == ["b", "a", "d", "c", "x"]
    assert {s.match_wins for s in standings(order, records)} == {0}


def test_head_to_head_is_not_reapplied_inside_a_split_group() -> None:
    # a, b, c, d all finish on 2 wins (x and y lose everything). Within the group:
    # a beat c and d (2), b beat c (1), c beat d (1), d none (0): the group splits into
    # a | {b, c} | d. b beat c, but {b, c} goes straight to hand difference, where c is ahead.
    records = [
        win("a", "c", hands=(2, 0)),
        win("a", "d"),
        win("b", "c", hands=(2, 1)),
        win("c", "d", hands=(3, 0)),
        win("b", "x", hands=(2, 1)),
        win("c", "x", hands=(3, 0)),
        win("d", "x"),
        win("d", "y"),
    ]
    order = ["x", "y", "d", "b", "c", "a"]
    table = {s.player_id: s for s in standings(order, records)}
    assert {table[p].match_wins for p in "abcd"} == {2}
    assert table["c"].hand_diff > table["b"].hand_diff  # c: -2 -1 +3 +3 = 3, b: +1 +1 = 2
    # x and y (0 wins, never met): hand difference, y -1 ahead of x -5.
    assert ranking(order, records) == ["a", "c", "b", "d", "y", "x"]


def test_a_record_without_winner_adds_no_win() -> None:
    records = [MatchRecord(("a", "b"), None, hands=(1, 1), points=(30, 10))]
    table = {s.player_id: s for s in standings(["b", "a"], records)}
    assert table["a"] == Standing("a", 1, 0, 0, 20)
    assert table["b"] == Standing("b", 2, 0, 0, -20)


def test_invalid_input() -> None:
    with pytest.raises(ValueError, match="two different"):
        MatchRecord(("a", "a"), "a", (1, 0), (0, 0))
    with pytest.raises(ValueError, match="did not play"):
        MatchRecord(("a", "b"), "c", (1, 0), (0, 0))
    with pytest.raises(ValueError, match="negative"):
        MatchRecord(("a", "b"), "a", (1, -1), (0, 0))
    with pytest.raises(ValueError, match="not an entrant"):
        standings(["a", "b"], [win("a", "c")])
    with pytest.raises(ValueError, match="unique"):
        standings(["a", "b", "a"], [])


def round_robin_records(order: list[str], rnd: random.Random) -> list[MatchRecord]:
    records = []
    for r in round_robin_schedule(order):
        for a, b in r.pairs:
            winner = rnd.choice((a, b))
            loser_hands = rnd.randrange(3)
            hands = (3, loser_hands) if winner == a else (loser_hands, 3)
            points = (rnd.randrange(150), rnd.randrange(150))
            records.append(MatchRecord((a, b), winner, hands, points))
    return records


@given(
    seed=st.binary(min_size=32, max_size=32),
    n=st.integers(2, 16),
    rnd=st.randoms(use_true_random=False),
)
def test_round_robin_standings_invariants(seed: bytes, n: int, rnd: random.Random) -> None:
    order = seeded_order(seed, [f"p{i}" for i in range(n)])
    records = round_robin_records(order, rnd)
    table = standings(order, records)
    assert [s.rank for s in table] == list(range(1, n + 1))
    assert sorted(s.player_id for s in table) == sorted(order)
    assert sum(s.match_wins for s in table) == n * (n - 1) // 2  # rests add no win
    assert sum(s.hand_diff for s in table) == 0
    assert sum(s.point_diff for s in table) == 0
    assert all(x.match_wins >= y.match_wins for x, y in itertools.pairwise(table))
    shuffled = list(records)
    rnd.shuffle(shuffled)
    assert standings(order, shuffled) == table  # the order of the records does not matter
    for x, y in itertools.pairwise(table):
        if x.match_wins != y.match_wins:
            continue
        group = {s.player_id for s in table if s.match_wins == x.match_wins}
        h2h = {
            p: sum(1 for r in records if r.winner == p and group.issuperset(r.players))
            for p in group
        }
        key_x = (-h2h[x.player_id], -x.hand_diff, -x.point_diff, order.index(x.player_id))
        key_y = (-h2h[y.player_id], -y.hand_diff, -y.point_diff, order.index(y.player_id))
        assert key_x < key_y


def test_elimination_ranks_by_round_reached_not_match_wins() -> None:
    from domino_api.tournaments.pairing import SlotKey, advance, single_elimination
    from domino_api.tournaments.standings import elimination_standings, rounds_reached

    # Five entrants: a, b and c have byes; d plays e in round 1; the winner meets a in round 2.
    order = ["a", "b", "c", "d", "e"]
    bracket = single_elimination(order)
    assert bracket.byes == ("a", "b", "c")
    records = []

    def play(key: SlotKey, winner: str, loser: str, points: tuple[int, int]) -> None:
        nonlocal bracket
        bracket = advance(bracket, key, winner).bracket
        records.append(MatchRecord((winner, loser), winner, (2, 0), points))

    play(SlotKey(1, 3), "d", "e", (100, 99))  # e is out in round 1, narrowly
    play(SlotKey(2, 0), "a", "b", (100, 0))  # b is out in round 2 (after a bye: no win), widely
    play(SlotKey(2, 1), "c", "d", (100, 90))
    play(SlotKey(3, 0), "a", "c", (100, 50))
    reached = rounds_reached(bracket)
    assert reached == {"a": 4, "c": 3, "b": 2, "d": 2, "e": 1}
    ranked = elimination_standings(order, records, reached)
    assert [s.player_id for s in ranked] == ["a", "c", "d", "b", "e"]
    assert [s.rank for s in ranked] == [1, 2, 3, 4, 5]
    assert [s.round_reached for s in ranked] == [4, 3, 2, 2, 1]
    # By match wins alone (round-robin's rule) the first-round loser e would rank above b.
    by_wins = [s.player_id for s in standings(order, records)]
    assert by_wins.index("e") < by_wins.index("b")
