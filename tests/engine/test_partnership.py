"""Partnership play (docs/RULES.md 14) against the oracle written from that page alone, and the
rules' edges one position at a time."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domino_api.engine import (
    PRESETS,
    BadOptions,
    Event,
    MatchState,
    NextHand,
    Ruleset,
    Start,
    apply,
    legal_actions,
    make_ruleset,
    new_match,
    view,
)
from domino_api.engine.rulesets import ruleset_catalog
from tests.engine import partnership_oracle as oracle
from tests.engine.helpers import position, run

PARTNERSHIP = ("partners-block", "partners-nines", "partners-all-fives")


def check_event(event: Event, book: oracle.TeamBook, state: MatchState) -> None:
    """Keep the oracle's book from one event and check the engine's announcement against it."""
    data = event.data
    if event.type == "scored":
        assert data.cause == "play" or data.points > 0  # type: ignore[union-attr]
        book.scores[oracle.team(data.seat)] += data.points  # type: ignore[union-attr]
        assert data.score == book.scores[oracle.team(data.seat)]  # type: ignore[union-attr]
    elif event.type == "hand_ended":
        check_hand_end(event, book, state.ruleset)
    elif event.type == "match_ended":
        leader = book.leader()
        assert leader is not None and data.reason == "target"  # type: ignore[union-attr]
        assert data.team == leader and oracle.team(data.winner) == leader  # type: ignore[union-attr]
        shown = (list(data.scores), list(data.hands_won))  # type: ignore[union-attr]
        assert shown == book.per_seat()


def check_hand_end(event: Event, book: oracle.TeamBook, rules: Ruleset) -> None:
    data = event.data
    pips = [sum(a + b for a, b in held) for held in data.hands]  # type: ignore[union-attr]
    assert list(data.pips) == pips  # type: ignore[union-attr]
    if data.reason == "domino":  # type: ignore[union-attr]
        winner = data.winner  # type: ignore[union-attr]
        assert winner is not None and not data.hands[winner]  # type: ignore[union-attr]
        expected = oracle.domino(rules.domino_scoring, winner, pips)
        assert (data.points, data.tied) == (expected, False)  # type: ignore[union-attr]
    elif data.reason == "blocked":  # type: ignore[union-attr]
        seat, points = oracle.blocked(rules.block_scoring, pips)
        assert (data.winner, data.points) == (seat, points)  # type: ignore[union-attr]
        assert data.tied == (seat is None)  # type: ignore[union-attr]
    else:  # a play took its team to the target inside the hand (All Fives)
        assert data.reason == "target" and rules.end_mid_hand  # type: ignore[union-attr]
        assert book.leader() == oracle.team(data.winner)  # type: ignore[union-attr]
    # Every hand with a winner, the one a target ends inside too, counts as won (RULES 9).
    if data.winner is not None:  # type: ignore[union-attr]
        book.hands_won[oracle.team(data.winner)] += 1  # type: ignore[union-attr]


def check_hidden(state: MatchState, events: tuple[Event, ...]) -> None:
    """A seat sees its own tiles only, its partner's no more than an opponent's."""
    hand = state.hand
    assert hand is not None
    for seat in range(4):
        assert view(state, seat).you_hand == hand.hands[seat]
        for event in events:
            if event.type == "hand_started":
                mine = msgspec.to_builtins(event.for_seat(seat).data)
                assert [tuple(t) for t in mine["hand"]] == list(hand.dealt[seat])
                assert "hand" not in msgspec.to_builtins(event.for_seat(None).data)


def play_against_oracle(rules: Ruleset, seed: int) -> MatchState:
    rng = random.Random(seed)
    state = new_match(rules, rng.randbytes(32))
    transition = apply(state, None, Start(f"cut-{seed}"))
    book = oracle.TeamBook.starting(rules.target)
    while True:
        state = transition.state
        for event in transition.events:
            check_event(event, book, state)
        if state.hand is not None and state.hand.moves == () and state.status == "playing":
            check_hidden(state, transition.events)
        assert (list(state.scores), list(state.hands_won)) == book.per_seat()
        if state.status == "finished":
            return state
        assert book.leader() is None
        if state.status == "hand_over":
            transition = apply(state, None, NextHand())
        else:
            seat = state.turn
            transition = apply(state, seat, rng.choice(legal_actions(state, seat)))


@pytest.mark.parametrize("name", PARTNERSHIP)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_partnership_matches_keep_the_oracles_team_scores(name: str, seed: int) -> None:
    finished = play_against_oracle(PRESETS[name], seed)
    result = finished.result
    assert result is not None and result.team is not None
    teams = view(finished, None).teams
    assert teams is not None and [t.won for t in teams] == [result.team == 0, result.team == 1]
    assert [t.seats for t in teams] == [(0, 2), (1, 3)]


@pytest.mark.parametrize("target", [100, 150, 200, 500])
def test_each_allowed_target_is_played_to(target: int) -> None:
    rules = make_ruleset("partners-block", {"target": target})
    finished = play_against_oracle(rules, target)
    assert max(finished.scores) >= target > min(finished.scores)


def test_partnership_needs_four_seats() -> None:
    with pytest.raises(BadOptions, match="four seats"):
        Ruleset.from_dict({**msgspec.to_builtins(PRESETS["partners-block"]), "players": 2})
    with pytest.raises(BadOptions, match="fixed by this preset"):
        make_ruleset("partners-nines", {"players": 2})


def test_a_ruleset_written_before_partnership_reads_as_not_partnership() -> None:
    plain = msgspec.to_builtins(PRESETS["draw"])
    assert "partnership" not in plain  # ledgers and snapshots stay as they were written
    assert Ruleset.from_dict(plain) == PRESETS["draw"]
    catalog = {r.name: msgspec.to_builtins(r) for r in ruleset_catalog()}
    assert catalog["draw"]["partnership"] is False and catalog["partners-block"]["partnership"]


BLOCK = PRESETS["partners-block"]


def test_a_domino_scores_every_hand_for_the_team_and_its_partner_alike() -> None:
    # Seat 0 goes out at once; partner seat 2's 12 pips count too under all_pips.
    hands = [[(0, 1)], [(5, 6), (4, 4)], [(6, 6)], [(3, 3), (2, 5)]]
    state = position(BLOCK, hands, scores=[10, 20, 10, 20], hands_won=[1, 1, 1, 1])
    state, events = run(state, ((0, 1), None))
    assert state.scores == (54, 20, 54, 20) and state.hands_won == (2, 1, 2, 1)
    (scored,) = [e for e in events if e.type == "scored"]
    assert (scored.data.seat, scored.data.points, scored.data.score) == (0, 19 + 12 + 13, 54)  # type: ignore[union-attr]


def test_all_fives_partners_score_only_the_opponents_pips_rounded() -> None:
    rules = PRESETS["partners-all-fives"]
    hands = [[(0, 1)], [(5, 6), (4, 4)], [(6, 6)], [(3, 3), (2, 4)]]
    state, _ = run(position(rules, hands), ((0, 1), None))
    assert state.last_hand is not None and state.last_hand.points == 30  # 19 + 12 = 31 -> 30
    assert state.scores == (30, 0, 30, 0)


def test_a_blocked_hand_goes_to_the_team_with_fewer_pips_and_a_tie_to_nobody() -> None:
    # Nothing fits [0,0] but seat 0's lead: three passes and seat 0's own pass block the hand.
    hands = [[(0, 0), (6, 6)], [(5, 5)], [(1, 1), (1, 2)], [(4, 4)]]
    state = position(BLOCK, hands)
    state, _ = run(state, ((0, 0), None), "pass", "pass", "pass", "pass")
    last = state.last_hand
    assert last is not None and last.reason == "blocked"
    # Team 0 holds 12 + 5 = 17 against team 1's 10 + 8 = 18: seat 2 (5 < 12) is named winner.
    assert (last.winner, last.points, state.scores) == (2, 35, (35, 0, 35, 0))
    tied = [[(0, 0), (6, 6)], [(5, 5)], [(1, 1), (2, 3)], [(4, 5)]]  # 12 + 7 against 10 + 9
    state, _ = run(position(BLOCK, tied), ((0, 0), None), "pass", "pass", "pass", "pass")
    last = state.last_hand
    assert last is not None and (last.winner, last.tied, last.points) == (None, True, 0)


def test_the_match_is_won_by_the_team_and_either_partner_is_named() -> None:
    hands = [[(5, 6), (4, 4)], [(0, 1)], [(6, 6)], [(3, 3), (2, 5)]]
    state = position(BLOCK, hands, opener=1, scores=[0, 190, 0, 190])
    state, events = run(state, ((0, 1), None))
    result = state.result
    assert result is not None and (result.winner, result.team) == (1, 1)
    ended = [e for e in events if e.type == "match_ended"]
    assert msgspec.to_builtins(ended[0].data)["team"] == 1
    teams = view(state, 0).teams
    assert teams is not None
    assert (teams[1].score, teams[1].won, teams[0].won) == (190 + 44, True, False)


def test_a_team_both_of_whose_partners_forfeited_never_wins() -> None:
    hands = [[(5, 6), (4, 4)], [(0, 1)], [(6, 6)], [(3, 3), (2, 5)]]
    start = position(BLOCK, hands, opener=1, scores=[0, 190, 0, 190])
    one_left = replace(start, forfeited=(False, True, False, False))
    state, _ = run(one_left, ((0, 1), None))
    assert state.result is not None and (state.result.winner, state.result.team) == (3, 1)
    both_gone = replace(start, forfeited=(False, True, False, True))
    state, _ = run(both_gone, ((0, 1), None))
    assert state.result is not None and (state.result.winner, state.result.team) == (0, 0)
