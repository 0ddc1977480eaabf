"""The table reducer's rules, one by one (docs/RULES.md sections 9 and 10): the start, moves,
the turn clocks and absence. No database: a table is a value. The seats' rules are in
test_table_joins.py (joins, claims, autopilot) and test_table_presence.py (check-in, presence,
talk, rematches)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from domino_api.engine import (
    PRESETS,
    MatchInProgress,
    legal_actions,
    make_ruleset,
)
from domino_api.engine import table as tables
from domino_api.engine.errors import (
    NotHost,
    NotSeated,
    NotYourSeat,
    SeatForfeited,
    SeatsEmpty,
    StaleSeq,
)
from domino_api.engine.table import (
    Autopilot,
    Chat,
    Connect,
    Lapse,
    Move,
    Resign,
    Seen,
    Staged,
    Start,
    Stepped,
    Table,
    Tick,
)
from tests.engine.helpers import plain, to_action
from tests.engine.table_helpers import (
    ALL_FIVES,
    CLASSIC,
    CODE,
    T0,
    Outage,
    at,
    chooser,
    first_move,
    humans,
    kinds,
    new,
    of_type,
    started,
    three_with_clock,
)

# ---------------------------------------------------------------- the start


def test_only_the_host_starts() -> None:
    table = new()
    with pytest.raises(NotHost) as refused:
        tables.step(table, Start("p1", "cut"), T0)
    assert refused.value.code == "not_host"
    with pytest.raises(NotHost):
        tables.step(table, Start("stranger", "cut"), T0)
    out = tables.step(table, Start("p0", "cut"), at(5))
    assert kinds(out) == ["match_started", "hand_started", "turn"]
    assert out.table.state.status == "playing"
    assert out.table.match.started_at == at(5)
    assert out.table.match.cut == "cut"


def test_a_match_starts_once() -> None:
    table = started(new())
    with pytest.raises(MatchInProgress) as refused:
        tables.step(table, Start("p0", "again"), at(1))
    assert refused.value.code == "match_in_progress"


def test_empty_seats_refuse_the_start_unless_filled_with_computers() -> None:
    table = new(seats=humans("p0", None))
    assert table.match.code == CODE  # a remote human can still join
    with pytest.raises(SeatsEmpty) as refused:
        tables.step(table, Start("p0", "cut"), T0)
    assert refused.value.code == "seats_empty"
    out = tables.step(table, Start("p0", "cut", fill_with_bots=True), T0)
    seat = out.table.seats[1]
    assert (seat.type, seat.strategy, seat.player_id) == ("bot", "planner", None)
    joined = of_type(out, "seat_joined")
    assert [plain(e.data) for e in joined] == [
        {"seat": 1, "name": "Planner", "type": "bot", "strategy": "planner"}
    ]
    assert kinds(out)[0] == "seat_joined" and "match_started" in kinds(out)
    assert out.table.match.solo  # the host against the computer
    assert out.table.match.code is None  # nobody can join any more: the number is freed
    assert out.table.match.turn_deadline is None  # no clock at a solo table


# ---------------------------------------------------------------- moves


def test_a_stale_move_is_refused_with_the_current_seq() -> None:
    table = started(new())
    move = first_move(table)
    played = tables.step(table, move, at(1)).table
    assert played.state.seq > table.state.seq
    again = first_move(played)
    stale = Move(again.by, again.action, table.state.seq, again.seat)
    with pytest.raises(StaleSeq) as refused:
        tables.step(played, stale, at(2))
    assert refused.value.code == "stale_seq"
    assert refused.value.extra.seq == played.state.seq
    future = Move(again.by, again.action, played.state.seq + 1, again.seat)
    with pytest.raises(StaleSeq) as refused:
        tables.step(played, future, at(2))
    assert refused.value.extra.seq == played.state.seq


def test_table_talk_does_not_make_a_move_stale() -> None:
    table = started(new())
    move = first_move(table)
    chatted = tables.step(table, Chat("p1", "good luck"), at(1)).table
    assert chatted.state.seq == table.state.seq + 1
    out = tables.step(chatted, move, at(2))
    assert out.events[0].type == "tile_played"


def test_a_move_for_another_seat_or_by_a_stranger_is_refused() -> None:
    table = started(new())
    move = first_move(table)
    other = 1 - move.seat if move.seat is not None else 0
    mine = table.seats[other].player_id
    assert mine is not None
    with pytest.raises(NotYourSeat) as refused:
        tables.step(table, Move(mine, move.action, move.seq, move.seat), at(1))
    assert refused.value.code == "not_your_seat"
    with pytest.raises(NotSeated) as unseated:
        tables.step(table, Move("stranger", move.action, move.seq), at(1))
    assert unseated.value.code == "not_seated"


# ---------------------------------------------------------------- the turn clock


def test_two_seats_a_passed_deadline_forfeits_and_the_other_seat_wins() -> None:
    table = started(new())
    seat = table.state.turn
    assert seat is not None
    deadline = at(180 + 120)
    assert table.match.turn_deadline == deadline
    assert table.match.due_at == deadline
    assert tables.step(table, Tick(), deadline - timedelta(seconds=1)).events == ()
    out = tables.step(table, Tick(), deadline)
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": seat, "cause": "clock"}
    ended = plain(of_type(out, "match_ended")[0].data)
    assert ended["winner"] == 1 - seat and ended["forfeited_by"] == seat
    assert ended["reason"] == "forfeit"
    after = out.table
    assert after.state.status == "finished"
    assert after.match.finished_at == deadline
    assert after.match.turn_deadline is None and after.match.due_at is None


def test_a_draw_keeps_the_deadline_and_a_new_turn_gets_its_own() -> None:
    table = started(new())
    move = first_move(table)
    out = tables.step(table, move, at(100))
    after = out.table
    if after.state.turn == move.seat:  # a draw: the same turn goes on
        assert after.match.turn_deadline == table.match.turn_deadline
    else:
        assert after.match.turn_deadline == at(100 + 300)
        turn = of_type(out, "turn")[-1]
        assert turn.data.deadline == "2026-03-01T12:06:40Z"


def test_three_seats_a_passed_deadline_hands_the_seat_to_the_computer() -> None:
    table = started(new(three_with_clock(), humans("p0", "p1", "p2")))
    seat = table.state.turn
    assert seat is not None
    deadline = table.match.turn_deadline
    assert deadline == at(300)
    out = tables.step(table, Tick(), deadline, chooser)
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": seat, "cause": "clock"}
    assert not of_type(out, "match_ended")
    after = out.table
    assert after.state.status == "playing"
    assert after.seats[seat].forfeited and after.state.forfeited[seat]
    assert after.is_computer(seat) and seat not in after.humans_in_play()
    # The computer played the seat's turn, and the next human's clock runs from now.
    assert after.state.turn != seat
    assert after.match.turn_deadline == deadline + timedelta(seconds=300)


def test_a_seat_that_resigned_is_the_computers_for_good() -> None:
    """RULES 9: with three seats a resigning seat goes to the computer for good. Until the
    computer's move comes back (a step without a chooser: the service's workers decide), its
    old holder may not play the seat, whose tiles it no longer even sees."""
    table = started(new(make_ruleset("house-nines", {"players": 3}), humans("p0", "p1", "p2")))
    seat = table.state.turn
    assert seat is not None
    holder = table.seats[seat].player_id
    assert holder is not None
    out = tables.step(table, Resign(holder), at(1))
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": seat, "cause": "resign"}
    resigned = out.table
    assert tables.computer_turn(resigned) == seat
    assert tables.viewable_seats(resigned, [seat]) == []
    option = legal_actions(resigned.state, seat)[0]
    with pytest.raises(SeatForfeited):
        tables.step(resigned, Move(holder, to_action(option), resigned.state.seq, seat), at(2))


def test_a_deadline_in_an_outage_moves_instead_of_forfeiting() -> None:
    table = started(new())
    seat = table.state.turn
    assert seat is not None
    restart = at(1000)
    outage = Outage(restart)
    out = tables.step(table, Tick(outage), restart)
    assert outage.asked == [at(300)]  # the deadline that passed is the one asked about
    assert kinds(out) == ["deadline_moved"]
    moved = restart + timedelta(seconds=120)  # the restart plus the clock's grace
    assert plain(out.events[0].data) == {
        "seat": seat,
        "clock": "turn",
        "deadline": "2026-03-01T12:18:40Z",
    }
    after = out.table
    assert after.state.status == "playing" and not after.seats[seat].forfeited
    assert after.match.turn_deadline == moved and after.match.due_at == moved
    # The moved deadline is kept: once it passes too, the seat forfeits.
    assert tables.step(after, Tick(outage), moved - timedelta(seconds=1)).events == ()
    out = tables.step(after, Tick(outage), moved)
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": seat, "cause": "clock"}
    assert out.table.state.status == "finished"


def play_out_the_hand(table: Table, now: datetime) -> Stepped:
    """Both humans play their first legal option until the hand is over."""
    events: tuple[Staged, ...] = ()
    while table.state.status == "playing":
        out = tables.step(table, first_move(table), now)
        table, events = out.table, events + out.events
    return Stepped(table, events)


def test_between_hands_of_a_clocked_match_the_next_hand_starts_by_itself() -> None:
    table = started(new())
    ended = play_out_the_hand(table, at(10))
    after = ended.table
    assert "hand_ended" in kinds(ended)
    if after.over:  # one hand reached the target: nothing more is due
        assert after.match.next_hand_at is None and after.match.due_at is None
        return
    assert after.state.status == "hand_over"
    assert after.match.turn_deadline is None
    assert after.match.next_hand_at == at(10 + tables.NEXT_HAND_DELAY_S)
    assert after.match.due_at == after.match.next_hand_at
    assert tables.step(after, Tick(), at(39)).events == ()
    out = tables.step(after, Tick(), at(40))
    assert kinds(out) == ["hand_started", "turn"]
    assert out.table.state.hand_number == 2
    assert out.table.match.next_hand_at is None
    assert out.table.match.turn_deadline == at(40 + 300)


def test_an_unclocked_match_waits_between_hands_for_a_player() -> None:
    table = started(new(PRESETS["block"]))
    after = play_out_the_hand(table, at(10)).table
    assert after.state.status in ("hand_over", "finished")
    assert after.match.next_hand_at is None


def test_computer_seats_never_time_out() -> None:
    table = started(new(rules=CLASSIC, seats=humans("p0", "p1")))
    out = tables.step(table, Autopilot("p0", 1, True), at(31), chooser)
    after = out.table
    assert after.state.turn == 0 or after.state.status != "playing"
    # The human's deadline runs, the computer's never: nothing is due for seat 1.
    for moment in (at(299), at(10_000)):
        due = tables.next_due(after, moment)
        assert due is None or due.seat != 1


# ---------------------------------------------------------------- away from the table


def test_a_seat_away_for_the_limit_forfeits() -> None:
    table = started(new(ALL_FIVES), T0)
    table = tables.step(table, Seen("p0"), at(100)).table
    assert table.match.due_at == at(180)  # seat 1, last seen at the start
    assert tables.step(table, Tick(), at(179)).events == ()
    out = tables.step(table, Tick(), at(180))
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": 1, "cause": "away"}
    ended = plain(of_type(out, "match_ended")[0].data)
    assert ended["winner"] == 0 and ended["forfeited_by"] == 1
    assert out.table.state.status == "finished"


def test_seats_that_left_at_the_same_instant_abandon_the_match() -> None:
    table = started(new(ALL_FIVES), T0)
    out = tables.step(table, Tick(), at(180))
    assert not of_type(out, "forfeit")
    assert out.table.state.status == "abandoned"
    assert of_type(out, "match_ended")[0].data.winner is None


def test_a_live_socket_keeps_the_seat_past_the_limit() -> None:
    table = started(new(ALL_FIVES), T0)
    table = tables.step(table, Connect((0, 1), lease_s=600), at(100)).table
    # Last seen 100 s in, so 280 s in is past the limit of a seat without a socket ...
    assert tables.step(table, Tick(), at(300)).events == ()
    unconnected = started(new(ALL_FIVES), T0)
    unconnected = tables.step(unconnected, Seen("p0"), at(100)).table
    assert of_type(tables.step(unconnected, Tick(), at(300)), "forfeit")
    # ... but the socket's lease runs to 700 s: the limit counts from there.
    table = tables.step(table, Seen("p0"), at(800)).table
    assert tables.step(table, Tick(), at(879)).events == ()
    out = tables.step(table, Tick(), at(880))
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": 1, "cause": "away"}


def test_an_away_deadline_in_an_outage_moves_instead_of_forfeiting() -> None:
    table = started(new(ALL_FIVES), T0)
    table = tables.step(table, Seen("p0"), at(100)).table
    restart = at(1000)
    out = tables.step(table, Tick(Outage(restart)), restart)
    assert not of_type(out, "forfeit")
    moved = of_type(out, "deadline_moved")
    assert moved and all(e.data.clock == "away" for e in moved)
    assert {e.data.seat for e in moved} == {0, 1}
    assert out.table.match.outage_grace_until == restart + timedelta(seconds=120)
    assert out.table.state.status == "playing"


def test_a_seat_on_autopilot_is_never_away() -> None:
    table = started(new(ALL_FIVES), T0)
    table = tables.step(table, Autopilot("p0", 1, True), at(31), chooser).table
    table = tables.step(table, Connect((0,), lease_s=10_000), at(40)).table
    assert tables.away_deadline(table, 1) is None
    out = tables.step(table, Tick(), at(5_000), chooser)
    assert not of_type(out, "forfeit")
    assert out.table.state.status in ("playing", "hand_over", "finished")
    assert not out.table.seats[1].forfeited


@pytest.mark.parametrize(
    ("code", "after"),
    [(CODE, tables.NUMBERED_ABANDON_AFTER), (None, tables.ABANDON_AFTER)],
    ids=["numbered: 30 min", "no number: a day"],
)
def test_a_match_no_human_has_been_at_for_a_while_is_abandoned(
    code: str | None, after: timedelta
) -> None:
    table = started(new(PRESETS["draw"], code=code), T0)
    assert table.match.code == code
    table = tables.step(table, Lapse((0, 1)), at(31)).table  # both gone; Bob comes back
    table = tables.step(table, Seen("p1"), at(60)).table
    assert table.match.due_at == at(60) + after  # the last human seen, plus the wait
    assert tables.step(table, Tick(), at(59) + after).events == ()
    out = tables.step(table, Tick(), at(60) + after)
    assert out.table.state.status == "abandoned"
    assert out.table.match.code is None  # the number is given back with the end
    assert of_type(out, "match_ended")[0].data.winner is None
