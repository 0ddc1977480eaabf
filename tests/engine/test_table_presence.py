"""The table reducer's rules around the play (docs/RULES.md section 10): tournament check-in,
presence, table talk, tile backs, rematches and resignation. No database: a table is a value."""

from __future__ import annotations

import msgspec
import pytest

from domino_api.engine import (
    PRESETS,
    EngineError,
    MatchInProgress,
    make_ruleset,
)
from domino_api.engine import table as tables
from domino_api.engine.clock_text import iso
from domino_api.engine.errors import (
    NotSeated,
    NotYourSeat,
)
from domino_api.engine.table import (
    Chat,
    Connect,
    Join,
    Lapse,
    Move,
    OfferRematch,
    Ready,
    Release,
    RematchCreated,
    Resign,
    Seen,
    Start,
    Table,
    Tick,
    TileBack,
)
from domino_api.engine.table.new import NewSeat
from tests.engine.helpers import plain
from tests.engine.table_helpers import (
    CODE,
    T0,
    at,
    first_move,
    kinds,
    new,
    of_type,
    started,
)

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
    assert [e.type for e in out.events] == ["seat_disconnected"]
    gone = out.table.seats[1]
    assert not gone.connected and gone.away_since == at(31)  # last seen + the lease
    # The event carries what the view shows of the away rule, so clients need not read it.
    deadline = tables.away_deadline(out.table, 1)
    carried = {"seat": 1, "away_since": iso(at(31)), "away_deadline": iso(deadline)}
    assert plain(out.events[0].data) == carried
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
    seats = [
        NewSeat(type="human", player_id="p0", name="Ann"),
        NewSeat(type="human", player_id="p0", name="Guest"),
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
    seats = [
        NewSeat(type="human", player_id="p0", name="Ann at home"),
        NewSeat(type="human", player_id="p0", name="Grandpa"),
        NewSeat(type="human", player_id="p1"),
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
