"""The rating update (ratings/model.py) and which finishes are rated (ratings/rules.py), pure."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from msgspec.structs import replace

from domino_api import engine
from domino_api.engine import table as tables
from domino_api.engine.table.new import NewSeat
from domino_api.errors import OptionNotAllowed
from domino_api.matches.rated import at_creation
from domino_api.ratings import weights
from domino_api.ratings.computers import COMPUTERS, computer_rating
from domino_api.ratings.model import MU, SIGMA, Entrant, Rating, places, rate
from domino_api.ratings.rules import outcome

NEW = Rating()


def test_the_winner_rises_the_loser_falls_and_both_grow_surer() -> None:
    winner, loser = rate([Entrant(NEW, 1), Entrant(NEW, 2)])
    assert winner.mu > MU > loser.mu
    assert winner.sigma < SIGMA and loser.sigma < SIGMA
    assert (winner.games, loser.games) == (1, 1)


def test_deviation_shrinks_match_after_match() -> None:
    a, b = NEW, NEW
    deviations = []
    for game in range(6):
        first = game % 2 + 1
        a, b = rate([Entrant(a, first), Entrant(b, 3 - first)])
        deviations.append(a.sigma)
    assert deviations == sorted(deviations, reverse=True) and len(set(deviations)) == 6
    assert a.games == 6


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = Rating(1800, 100), Rating(1200, 100)
    expected = rate([Entrant(strong, 1), Entrant(weak, 2)])
    upset = rate([Entrant(strong, 2), Entrant(weak, 1)])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0
    assert upset[0].mu < strong.mu


def test_four_players_move_in_the_order_they_finished() -> None:
    after = rate([Entrant(NEW, place) for place in (3, 1, 4, 2)])
    by_place = sorted(zip((3, 1, 4, 2), after, strict=True))
    mus = [rating.mu for _, rating in by_place]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > MU > mus[-1]


def test_a_tie_moves_equal_ratings_alike() -> None:
    a, b = rate([Entrant(NEW, 1), Entrant(NEW, 1)])
    assert a.mu == pytest.approx(b.mu) == pytest.approx(MU)


def test_a_computer_keeps_its_fixed_rating() -> None:
    planner = computer_rating("all-fives", "planner")
    human, computer = rate([Entrant(NEW, 1), Entrant(planner, 2, fixed=True)])
    assert computer == planner and human.mu > MU


def test_beating_a_stronger_computer_gains_more() -> None:
    plain, planner = computer_rating("classic", "plain"), computer_rating("classic", "planner")
    assert planner.mu > plain.mu
    (over_plain, _), (over_planner, _) = (
        rate([Entrant(NEW, 1), Entrant(c, 2, fixed=True)]) for c in (plain, planner)
    )
    assert over_planner.mu > over_plain.mu


def test_every_preset_has_its_three_computers_measured() -> None:
    assert set(COMPUTERS) == set(engine.PRESETS)
    for measured in COMPUTERS.values():
        assert set(measured) == {"random", "plain", "planner"}
        assert measured["random"][0] == 1000.0  # the anchor
        assert all(sigma >= 25 for _, sigma in measured.values())


def test_places_put_the_winner_first_and_a_forfeit_last() -> None:
    assert places([100, 40], 0) == [1, 2]
    assert places([60, 30, 60, 10], 2) == [2, 3, 1, 4]
    assert places([60, 60, 20], None) == [1, 1, 3]
    assert places([150, 20], 1, losers=[0]) == [2, 1]  # more points, but it forfeited


HUMAN, BOT = NewSeat(type="human", player_id="host"), NewSeat(type="bot", strategy="plain")
OPEN = NewSeat(type="human")


def test_creation_rates_humans_by_default_computers_when_asked_hot_seat_never() -> None:
    assert at_creation(None, [HUMAN, OPEN]) is True
    assert at_creation(False, [HUMAN, OPEN]) is False
    assert at_creation(None, [HUMAN, BOT]) is False
    assert at_creation(True, [HUMAN, BOT]) is True
    assert at_creation(None, [HUMAN, HUMAN]) is False
    assert at_creation(False, [HUMAN, HUMAN]) is False
    with pytest.raises(OptionNotAllowed):
        at_creation(True, [HUMAN, HUMAN, OPEN])


def _finished(
    rated: bool, holders: tuple[str, str], forfeited: int | None = None, moved: bool = True
) -> tables.Table:
    now = datetime(2026, 12, 5, tzinfo=UTC)
    seats = [NewSeat(type="human", player_id=holder) for holder in holders]
    names = {holder: (holder, "moon") for holder in holders}
    rules = engine.make_ruleset("draw-50", {})
    table = tables.new_table("m", rules, b"s" * 32, now, seats, names, rated=rated).table
    state = engine.apply(table.state, None, engine.Start("cut")).state
    if forfeited is not None:
        state = engine.apply(state, None, engine.Forfeit(forfeited, "resign")).state
    else:
        state = replace(state, status="finished", result=_result(state, winner=1))
    seated = tuple(replace(row, moved=moved) for row in table.seats)
    return replace(table, state=state, seats=seated, match=replace(table.match, started_at=now))


def _result(state: engine.MatchState, winner: int) -> engine.MatchResult:
    return engine.MatchResult(
        winner=winner, reason="target", scores=(10, 50), hands_won=(0, 1), forfeited_by=None
    )


def test_outcome_places_a_rated_finish_and_ignores_unrated_and_hot_seat() -> None:
    placed = outcome(_finished(True, ("ana", "bob")))
    assert [(p.player_id, p.place) for p in placed] == [("ana", 2), ("bob", 1)]
    assert outcome(_finished(False, ("ana", "bob"))) == []
    assert outcome(_finished(True, ("ana", "ana"))) == []


def test_a_finish_before_every_holder_moved_is_an_abort_for_ratings() -> None:
    """Issue 48: an alt that joins and resigns before its first move rates nothing."""
    assert outcome(_finished(True, ("ana", "bob"), moved=False)) == []
    one = _finished(True, ("ana", "bob"))
    one = tables.with_seat(one, 1, moved=False)
    assert outcome(one) == []


def test_a_resignation_finishes_last() -> None:
    table = _finished(True, ("ana", "bob"), forfeited=0)
    table = tables.with_seat(table, 0, forfeited=True)
    placed = outcome(table)
    assert [(p.player_id, p.place) for p in placed] == [("ana", 2), ("bob", 1)]


def test_what_a_result_is_worth() -> None:
    """ratings/weights.py: fresh opponents count nothing, the same opponent halves each time,
    and beating a computer rated far below gains ~nothing."""
    assert weights.establishment([0]) == 0 and weights.establishment([10]) == 1
    assert weights.establishment([None, 5]) == 0.75  # a computer counts fully
    assert [weights.repeat_factor(n) for n in range(3)] == [1, 0.5, 0.25]
    assert weights.computer_cap(1500, [1000]) < 2 < weights.computer_cap(1500, [1500]) == 16
    before, after = Rating(1500, 500, 3), Rating(1700, 400, 4)
    assert weights.weighted(before, after, 0.5, None) == Rating(1600, 450, 4)
    assert weights.weighted(before, after, 1, 10).mu == 1510
