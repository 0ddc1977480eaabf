"""The table reducer's rules for holding a seat (docs/RULES.md section 10): joins and claims by
number, locks and releases, the host's hold on seats and autopilot. No database: a table is a
value."""

from __future__ import annotations

import pytest

from domino_api.engine import (
    PRESETS,
    make_ruleset,
)
from domino_api.engine import table as tables
from domino_api.engine.errors import (
    CodeNotFound,
    MatchFull,
    NotHost,
    SeatForfeited,
    SeatInUse,
    SeatUnavailable,
)
from domino_api.engine.table import (
    Autopilot,
    Connect,
    Join,
    Lock,
    Release,
    Resign,
    Seen,
    Start,
    Table,
    Tick,
)
from tests.engine.helpers import plain
from tests.engine.table_helpers import (
    CODE,
    T0,
    at,
    chooser,
    humans,
    kinds,
    new,
    of_type,
    started,
)

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
    assert refused.value.extra.retry_after == 30
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
    assert refused.value.extra.retry_after == 30
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
