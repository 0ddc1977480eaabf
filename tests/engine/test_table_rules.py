"""The table reducer's rules, one by one (docs/RULES.md sections 9 and 10, and the seats):
the start, moves, the clocks, absence, joins and claims, the host's hold on seats, autopilot,
check-in, presence, table talk and rematches. No database: a table is a value."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from domino_api.bots import get_strategy
from domino_api.engine import (
    PRESETS,
    Action,
    EngineError,
    MatchInProgress,
    Ruleset,
    SeatView,
    TurnClock,
    legal_actions,
    make_ruleset,
)
from domino_api.engine import table as tables
from domino_api.engine.errors import (
    CodeNotFound,
    MatchFull,
    NotHost,
    NotSeated,
    NotYourSeat,
    SeatForfeited,
    SeatInUse,
    SeatsEmpty,
    SeatUnavailable,
    StaleSeq,
)
from domino_api.engine.table import (
    Autopilot,
    Chat,
    Connect,
    Join,
    Lapse,
    Lock,
    Move,
    OfferRematch,
    Ready,
    Release,
    RematchCreated,
    Resign,
    Seen,
    Staged,
    Start,
    Stepped,
    Table,
    Tick,
    TileBack,
)
from tests.engine.helpers import plain, to_action

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "1234"
HOLDERS = {"p0": ("Ann", "moon"), "p1": ("Bob", "sun"), "p2": ("Cid", "sea")}
CLASSIC = PRESETS["classic"]  # turn clock 180 s + 120 s grace
ALL_FIVES = PRESETS["all-fives"]  # away forfeit 180 s


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def chooser(name: str, view: SeatView, seed: str) -> tuple[Action, str]:
    return get_strategy(name).choose(view, random.Random(seed))


def humans(*players: str | None) -> list[dict[str, object]]:
    return [{"type": "human", "player_id": p} if p else {"type": "human"} for p in players]


def new(
    rules: Ruleset = CLASSIC,
    seats: Sequence[dict[str, object]] | None = None,
    **facts: object,
) -> Table:
    facts = {"code": CODE, "host_player_id": "p0", **facts}
    seated = humans("p0", "p1") if seats is None else list(seats)
    holders = {p: HOLDERS[p] for s in seated if (p := s.get("player_id")) in HOLDERS}
    return tables.new_table("m1", rules, bytes(range(32)), T0, seated, holders, **facts).table


def started(table: Table, now: datetime = T0) -> Table:
    return tables.step(table, Start("p0", "the cut"), now).table


def of_type(stepped: Stepped, kind: str) -> list[Staged]:
    return [e for e in stepped.events if e.type == kind]


def kinds(stepped: Stepped) -> list[str]:
    return [e.type for e in stepped.events]


def first_move(table: Table) -> Move:
    seat = table.state.turn
    assert seat is not None
    holder = table.seats[seat].player_id
    assert holder is not None
    return Move(holder, to_action(legal_actions(table.state, seat)[0]), table.state.seq, seat)


def three_with_clock() -> Ruleset:
    # No preset seats three with a turn clock; the reducer's rule for it is tested alike.
    nines = make_ruleset("house-nines", {"players": 3})
    return dataclasses.replace(nines, turn_clock=TurnClock(allowance_s=180, grace_s=120))


class Outage:
    """The service was down over every moment asked about, and came back at `restart`."""

    def __init__(self, restart: datetime) -> None:
        self.restart = restart
        self.asked: list[datetime] = []

    def outage_restart(self, moment: datetime) -> datetime | None:
        self.asked.append(moment)
        return self.restart


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
    assert refused.value.extra["seq"] == played.state.seq
    future = Move(again.by, again.action, played.state.seq + 1, again.seat)
    with pytest.raises(StaleSeq) as refused:
        tables.step(played, future, at(2))
    assert refused.value.extra["seq"] == played.state.seq


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


def test_a_match_no_human_has_been_at_for_a_day_is_abandoned() -> None:
    table = started(new(PRESETS["draw"]), T0)
    table = tables.step(table, Lapse((0, 1)), at(31)).table  # both gone; Bob comes back
    table = tables.step(table, Seen("p1"), at(60)).table
    day = tables.ABANDON_AFTER
    assert table.match.due_at == at(60) + day  # the last human seen, plus a day
    assert tables.step(table, Tick(), at(59) + day).events == ()
    out = tables.step(table, Tick(), at(60) + day)
    assert out.table.state.status == "abandoned"
    assert of_type(out, "match_ended")[0].data.winner is None


# ---------------------------------------------------------------- joins by number


def waiting_for_one() -> Table:
    return new(seats=humans("p0", None))


def test_a_join_takes_the_free_seat() -> None:
    out = tables.step(waiting_for_one(), Join("p1", "Bob", "sun", CODE), at(1))
    after = out.table
    assert after.seats[1].player_id == "p1"
    assert after.seats[1].last_seen_at == at(1)
    assert after.names["p1"] == "Bob" and after.tile_backs["p1"] == "sun"
    assert [plain(e.data) for e in of_type(out, "seat_joined")] == [
        {"seat": 1, "name": "Bob", "type": "human", "strategy": None}
    ]
    assert after.match.code == CODE


def test_a_full_waiting_table_refuses_a_new_name() -> None:
    full = tables.step(waiting_for_one(), Join("p1", "Bob", "sun", CODE), at(1)).table
    with pytest.raises(MatchFull) as refused:
        tables.step(full, Join("p2", "Cid", "sea", CODE), at(2))
    assert refused.value.code == "match_full"


def test_a_seat_is_claimed_by_name_only_once_its_holder_has_gone() -> None:
    full = tables.step(waiting_for_one(), Join("p1", "Bob", "sun", CODE), at(1)).table
    with pytest.raises(SeatInUse) as refused:
        tables.step(full, Join("p2", "Bob", "sea", CODE), at(20))
    assert refused.value.extra["retry_after"] == 30
    out = tables.step(full, Join("p2", "Bob", "sea", CODE), at(31))
    assert out.table.seats[1].player_id == "p2"
    assert of_type(out, "seat_joined")[0].data.claimed is True
    assert out.table.seats_of("p1") == []


def test_a_started_table_answers_a_claim_of_a_present_holder_as_an_unknown_number() -> None:
    table = started(new(rules=PRESETS["draw"]))
    table = tables.step(table, Seen("p1"), at(10)).table
    with pytest.raises(CodeNotFound) as refused:
        tables.step(table, Join("p2", "Bob", "sea", CODE), at(30))
    assert refused.value.code == "code_not_found"
    assert refused.value.extra["retry_after"] == 30
    with pytest.raises(CodeNotFound):  # no free seat, whatever the name
        tables.step(table, Join("p2", "Cid", "sea", CODE), at(30))
    out = tables.step(table, Join("p2", "Bob", "sea", CODE), at(41))
    assert out.table.seats[1].player_id == "p2"
    assert out.table.seats[1].connected_until is None


def test_host_rights_go_with_seat_zero() -> None:
    table = new()
    out = tables.step(table, Join("p9", "Ann", "sun", CODE), at(31))
    after = out.table
    assert after.seats[0].player_id == "p9"
    assert after.match.host_player_id == "p9"
    with pytest.raises(NotHost):
        tables.step(after, Start("p0", "cut"), at(32))
    assert tables.step(after, Start("p9", "cut"), at(32)).table.state.status == "playing"


def test_a_lock_blocks_claims_by_name() -> None:
    table = new()
    with pytest.raises(NotHost):
        tables.step(table, Lock("p1", True), T0)
    locked = tables.step(table, Lock("p0", True), T0).table
    assert locked.match.claims_locked
    with pytest.raises(SeatInUse):
        tables.step(locked, Join("p2", "Bob", "sea", CODE), at(60))
    with pytest.raises(CodeNotFound):
        tables.step(started(locked), Join("p2", "Bob", "sea", CODE), at(60))
    unlocked = tables.step(locked, Lock("p0", False), at(1)).table
    assert (
        tables.step(unlocked, Join("p2", "Bob", "sea", CODE), at(60)).table.seats[1].player_id
        == "p2"
    )


def test_a_released_seat_goes_to_the_next_join() -> None:
    table = tables.step(started(new()), Lock("p0", True), at(1)).table
    with pytest.raises(SeatUnavailable):
        tables.step(table, Release("p0", 0), at(2))  # the host's own seat
    with pytest.raises(NotHost):
        tables.step(table, Release("p1", 0), at(2))
    with pytest.raises(SeatInUse):  # Bob was seen at the start: he is still at the table
        tables.step(table, Release("p0", 1), at(2))
    out = tables.step(table, Release("p0", 1), at(31))  # away for the lease (30 s)
    released = out.table
    assert released.seats[1].player_id is None
    assert of_type(out, "seat_joined")[0].data.released is True
    assert released.match.code == CODE
    joined = tables.step(released, Join("p5", "Eve", "sun", CODE), at(32))  # locked or not
    assert joined.table.seats[1].player_id == "p5"
    assert joined.table.match.code == CODE


def test_a_sockets_late_renewal_never_holds_a_seat_its_player_lost() -> None:
    table = tables.step(started(new()), Connect((1,), lease_s=30, by="p1"), at(1)).table
    assert table.seats[1].connected_until == at(31)
    with pytest.raises(SeatInUse):  # the socket holds it
        tables.step(table, Release("p0", 1), at(30))
    released = tables.step(table, Release("p0", 1), at(31)).table
    taken = tables.step(released, Join("p5", "Eve", "sun", CODE), at(32)).table
    late = tables.step(taken, Connect((1,), lease_s=30, by="p1"), at(40))  # p1's old socket
    assert late.table == taken and late.events == ()
    mine = tables.step(taken, Connect((1,), lease_s=30, by="p5"), at(40)).table
    assert mine.seats[1].connected_until == at(70)


def test_a_holders_own_join_changes_nothing_but_the_version() -> None:
    table = new()
    out = tables.step(table, Join("p1", "Someone else", "sun", CODE), T0)
    assert out.events == ()
    assert out.table.seats == table.seats
    assert out.table.match.updated_at > table.match.updated_at  # even at the same moment
    later = tables.step(table, Join("p1", "Bob", "sun", CODE), at(5)).table
    assert later.match.updated_at == at(5)


def test_a_table_that_is_over_takes_no_join() -> None:
    """An over table's number is freed (code None): a join that reaches it anyway (the match
    ended after the number was looked up, e.g. by the timeout the unit applies first) is
    refused like an unknown number, and nobody takes a seat of a finished match."""
    table = started(new())
    loser = table.state.turn
    assert loser is not None
    over = tables.step(table, Tick(), at(300)).table  # the clock forfeits the seat on turn
    assert over.state.status == "finished" and over.match.code is None
    winner = over.seats[1 - loser]
    name = tables.seat_name(over, winner)
    assert name is not None
    with pytest.raises(CodeNotFound):  # the winner's holder has been gone a lease: 300 s
        tables.step(over, Join("p9", name, "sun", CODE), at(301))


# ---------------------------------------------------------------- autopilot


def test_autopilot_waits_until_the_holder_has_gone() -> None:
    table = started(new(rules=PRESETS["draw"]))
    with pytest.raises(NotHost):
        tables.step(table, Autopilot("p1", 0, True), at(1))
    with pytest.raises(SeatInUse) as refused:
        tables.step(table, Autopilot("p0", 1, True), at(10))
    assert refused.value.code == "seat_in_use"
    out = tables.step(table, Autopilot("p0", 1, True), at(31), chooser)
    # The lapse first, so the dot shows what autopilot decided on (issue 41).
    assert kinds(out)[:2] == ["seat_disconnected", "autopilot_on"]  # the host's lapse first
    assert plain(of_type(out, "autopilot_on")[0].data) == {"seat": 1}
    after = out.table
    assert after.seats[1].autopilot and after.is_computer(1)
    assert after.humans_in_play() == [0]
    assert tables.computer_turn(after) is None  # the computer answered at once if on turn
    back = tables.step(after, Autopilot("p1", 1, False), at(40))
    assert kinds(back) == ["autopilot_off"] and not back.table.is_computer(1)


def test_a_live_socket_holds_the_seat_against_claims_and_autopilot() -> None:
    table = started(new(rules=PRESETS["draw"]))
    table = tables.step(table, Connect((1,), lease_s=100), T0).table
    # Last seen at the start, but the socket's lease runs to 100 s.
    with pytest.raises(SeatInUse):
        tables.step(table, Autopilot("p0", 1, True), at(50))
    with pytest.raises(CodeNotFound):
        tables.step(table, Join("p2", "Bob", "sea", CODE), at(50))
    on = tables.step(table, Autopilot("p0", 1, True), at(100))
    assert kinds(on) == ["seat_disconnected", "seat_disconnected", "autopilot_on"]
    claimed = tables.step(table, Join("p2", "Bob", "sea", CODE), at(100)).table
    assert claimed.seats[1].player_id == "p2"


def test_the_host_hands_its_own_seat_to_the_computer_at_once() -> None:
    table = started(new(rules=PRESETS["draw"]))
    out = tables.step(table, Autopilot("p0", 0, True), at(1))
    assert kinds(out) == ["autopilot_on"]


def test_a_forfeited_seat_stays_with_the_computer() -> None:
    three = make_ruleset("house-nines", {"players": 3})
    table = started(new(three, humans("p0", "p1", "p2")))
    resigned = tables.step(table, Resign("p2"), at(1), chooser).table
    assert resigned.seats[2].forfeited
    with pytest.raises(SeatForfeited):
        tables.step(resigned, Autopilot("p2", 2, False), at(2))
    with pytest.raises(SeatForfeited):
        tables.step(resigned, Autopilot("p0", 2, False), at(2))


# ---------------------------------------------------------------- tournament check-in


def tournament_table(deadline_s: float = 600) -> Table:
    return new(
        PRESETS["draw"],
        host_player_id=None,
        code=None,
        tournament_id="t1",
        check_in_deadline=at(deadline_s),
    )


def test_a_tournament_match_starts_once_both_seats_are_ready() -> None:
    table = tournament_table()
    with pytest.raises(NotSeated):
        tables.step(table, Ready("stranger", "server cut"), at(1))
    one = tables.step(table, Ready("p0", "server cut"), at(1))
    assert kinds(one) == ["ready"] and plain(one.events[0].data) == {"seat": 0}
    assert one.table.state.status == "waiting" and one.table.seats[0].ready
    assert tables.step(one.table, Ready("p0", "server cut"), at(2)).events == ()
    both = tables.step(one.table, Ready("p1", "server cut"), at(3))
    assert kinds(both)[:2] == ["ready", "match_started"]
    after = both.table
    assert after.state.status == "playing" and after.state.cut == "server cut"
    assert after.match.check_in_deadline is None and after.match.started_at == at(3)
    with pytest.raises(MatchInProgress):
        tables.step(after, Ready("p0", "server cut"), at(4))


def test_check_in_closing_with_one_seat_ready_forfeits_the_other_before_any_deal() -> None:
    table = tables.step(tournament_table(), Ready("p1", "cut"), at(10)).table
    assert table.match.due_at == at(600)
    assert tables.step(table, Tick(), at(599)).events == ()
    out = tables.step(table, Tick(), at(600))
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": 0, "cause": "check_in"}
    ended = plain(of_type(out, "match_ended")[0].data)
    assert ended["winner"] == 1 and ended["forfeited_by"] == 0
    assert "hand_ended" not in kinds(out) and "hand_started" not in kinds(out)
    after = out.table
    assert after.state.status == "finished" and after.state.hand is None
    assert after.match.check_in_deadline is None


def test_check_in_closing_with_nobody_ready_cancels_the_match() -> None:
    table = tournament_table(deadline_s=2 * 3600)
    # A tournament table does not expire like a waiting table nobody starts.
    assert tables.step(table, Tick(), at(3600)).events == ()
    out = tables.step(table, Tick(), at(2 * 3600))
    assert out.table.state.status == "cancelled"
    assert of_type(out, "match_ended")[0].data.reason == "cancelled"
    assert not of_type(out, "forfeit")


def test_a_waiting_table_nobody_starts_is_abandoned() -> None:
    table = new()
    assert table.match.due_at == T0 + tables.WAITING_EXPIRES
    out = tables.step(table, Tick(), T0 + tables.WAITING_EXPIRES)
    assert out.table.state.status == "abandoned"
    assert out.table.match.code is None


# ---------------------------------------------------------------- presence


def test_seen_announces_a_seat_only_when_it_was_not_connected() -> None:
    table = new()
    assert not table.seats[1].connected
    first = tables.step(table, Seen("p1"), at(1))
    assert [(e.type, plain(e.data)) for e in first.events] == [("seat_connected", {"seat": 1})]
    assert first.table.seats[1].connected and first.table.seats[1].last_seen_at == at(1)
    again = tables.step(first.table, Seen("p1"), at(5))
    assert again.events == ()
    assert again.table.seats[1].last_seen_at == at(5)
    assert tables.step(first.table, Seen("stranger"), at(5)).events == ()


def test_lapse_announces_a_seat_gone_once_its_lease_has_run_out() -> None:
    table = tables.step(new(), Seen("p1"), at(1)).table
    assert tables.step(table, Lapse((1,)), at(30)).events == ()  # still within the lease
    out = tables.step(table, Lapse((1,)), at(31))
    assert [(e.type, plain(e.data)) for e in out.events] == [("seat_disconnected", {"seat": 1})]
    gone = out.table.seats[1]
    assert not gone.connected and gone.away_since == at(31)  # last seen + the lease
    assert tables.step(out.table, Lapse((1,)), at(60)).events == ()


def test_connect_announces_a_seat_only_when_it_was_not_connected() -> None:
    table = new()
    out = tables.step(table, Connect((1,), lease_s=30), at(1))
    assert [(e.type, plain(e.data)) for e in out.events] == [("seat_connected", {"seat": 1})]
    assert out.table.seats[1].connected_until == at(31)
    again = tables.step(out.table, Connect((1,), lease_s=30), at(11))
    assert again.events == ()
    assert again.table.seats[1].connected_until == at(41)
    # The lease holds the seat: no Lapse before it runs out.
    assert tables.step(again.table, Lapse((1,)), at(40)).events == ()
    assert kinds(tables.step(again.table, Lapse((1,)), at(41))) == ["seat_disconnected"]


def test_seen_marks_closer_than_every_s_are_not_rewritten() -> None:
    table = tables.step(new(), Seen("p1", every_s=1.0), at(1)).table
    assert table.seats[1].last_seen_at == at(1)
    assert tables.step(table, Seen("p1", every_s=1.0), at(1.5)).table.seats[1].last_seen_at == at(1)
    assert tables.step(table, Seen("p1", every_s=1.0), at(2)).table.seats[1].last_seen_at == at(2)


def test_a_new_tile_back_is_told_at_each_of_the_holders_seats() -> None:
    seats: list[dict[str, object]] = [
        {"type": "human", "player_id": "p0", "name": "Ann"},
        {"type": "human", "player_id": "p0", "name": "Guest"},
    ]
    table = new(PRESETS["draw"], seats)
    out = tables.step(table, TileBack("p0", "stars"), at(1))
    assert [(e.type, plain(e.data)) for e in out.events] == [
        ("tile_back_changed", {"seat": 0, "tile_back": "stars"}),
        ("tile_back_changed", {"seat": 1, "tile_back": "stars"}),
    ]
    assert out.table.tile_backs["p0"] == "stars"
    assert table.tile_backs["p0"] == "moon"


# ---------------------------------------------------------------- talk, rematch


def test_chat_carries_the_name_the_seat_goes_by_at_the_table() -> None:
    seats: list[dict[str, object]] = [
        {"type": "human", "player_id": "p0", "name": "Ann at home"},
        {"type": "human", "player_id": "p0", "name": "Grandpa"},
        {"type": "human", "player_id": "p1"},
    ]
    table = new(make_ruleset("house-nines", {"players": 3}), seats)
    out = tables.step(table, Chat("p0", "hello", seat=1), at(1))
    assert [(e.type, plain(e.data)) for e in out.events] == [
        ("message", {"seat": 1, "name": "Grandpa", "text": "hello"})
    ]
    assert tables.step(table, Chat("p0", "hi"), at(1)).events[0].data.name == "Ann at home"
    assert tables.step(table, Chat("p1", "hi"), at(1)).events[0].data.name == "Bob"
    with pytest.raises(NotSeated):
        tables.step(table, Chat("stranger", "hi"), at(1))
    with pytest.raises(NotYourSeat):
        tables.step(table, Chat("p1", "hi", seat=0), at(1))


def test_a_rematch_is_agreed_once_every_human_offered() -> None:
    table = started(new(rules=PRESETS["draw"]))
    with pytest.raises(MatchInProgress):
        tables.step(table, OfferRematch("p0"), at(1))
    over = tables.step(table, Resign("p1"), at(2)).table
    assert over.state.status == "finished"
    assert not tables.rematch_agreed(over)
    one = tables.step(over, OfferRematch("p0"), at(3))
    assert [(e.type, plain(e.data)) for e in one.events] == [("rematch_offered", {"seat": 0})]
    assert not tables.rematch_agreed(one.table)
    assert tables.step(one.table, OfferRematch("p0"), at(4)).events == ()
    both = tables.step(one.table, OfferRematch("p1"), at(4))
    assert kinds(both) == ["rematch_offered"]
    assert tables.rematch_agreed(both.table)
    made = tables.step(both.table, RematchCreated("m2"), at(5))
    assert [(e.type, plain(e.data)) for e in made.events] == [
        ("rematch_created", {"match_id": "m2"})
    ]
    assert made.table.match.rematch_match_id == "m2"
    assert not tables.rematch_agreed(made.table)


def test_a_resignation_frees_the_number_and_ends_the_clocks() -> None:
    table = started(new())
    assert table.match.code == CODE
    out = tables.step(table, Resign("p0"), at(5))
    assert plain(of_type(out, "forfeit")[0].data) == {"seat": 0, "cause": "resign"}
    after = out.table
    assert after.match.code is None and after.match.finished_at == at(5)
    assert after.match.turn_deadline is None and after.match.due_at is None


def test_a_refused_command_leaves_the_table_as_it_was() -> None:
    table = started(new())
    before = msgspec.to_builtins(table)
    commands = (
        Start("p0", "cut"),
        Move("stranger", first_move(table).action, table.state.seq),
        Join("p2", "Bob", "sea", CODE),
        Release("p0", 0),
    )
    for command in commands:
        with pytest.raises(EngineError):
            tables.step(table, command, at(1))
    assert msgspec.to_builtins(table) == before
    assert table.state.seq == 5  # two seats joined, then the deal's three events
