"""Events (`EventOut`, openapi/openapi.json), refusals with their codes, is_stale, action JSON."""

from __future__ import annotations

import copy
import json
import pickle

import msgspec
import pytest
from msgspec import structs

from domino_api.engine import (
    PRESETS,
    Abandon,
    Deal,
    Draw,
    EngineError,
    Event,
    Forfeit,
    HandInProgress,
    HandResult,
    IllegalMove,
    MatchInProgress,
    MatchNotStarted,
    MatchOver,
    MatchResult,
    NextHand,
    NotYourTurn,
    Pass,
    Play,
    Start,
    action_from_json,
    action_to_json,
    apply,
    is_stale,
    new_match,
    record,
)
from domino_api.engine.event_types import (
    AutopilotOnEvent,
    MessageData,
    MessageEvent,
    PassedEvent,
    SeatData,
    TurnData,
    TurnEvent,
)
from domino_api.errors import ENGINE_STATUS, engine_status
from tests.engine.helpers import SECRET, plain, position, run, wire

DRAW = PRESETS["draw"]


def started() -> tuple[object, tuple[Event, ...]]:
    transition = apply(new_match(DRAW, SECRET), None, Start("moon"))
    return transition.state, transition.events


def test_start_events_and_seq_numbering() -> None:
    state, events = started()
    assert [e.type for e in events] == ["match_started", "hand_started", "turn"]
    assert [e.seq for e in events] == [1, 2, 3]
    assert state.seq == 3 and state.game_seq == 3  # type: ignore[attr-defined]
    assert plain(events[0].data) == {"cut": "moon", "seats": 2}
    hand_started = events[1]
    assert plain(hand_started.data) == {
        "hand_number": 1,
        "attempt": 0,
        "opener": 0,
        "tiles": (7, 7),
        "stock": 14,
    }
    mine = wire(hand_started.for_seat(0))["data"]["hand"]
    theirs = wire(hand_started.for_seat(1))["data"]["hand"]
    assert (
        len(mine) == 7 and len(theirs) == 7 and not set(map(tuple, mine)) & set(map(tuple, theirs))
    )
    assert "hand" not in wire(hand_started.for_seat(None))["data"]
    turn = events[2]
    assert wire(turn.for_seat(0))["data"]["legal"][0]["action"] == "play"
    assert "legal" not in wire(turn.for_seat(1))["data"]


def test_every_event_is_json_for_every_viewer() -> None:
    _, events = started()
    for event in events:
        for seat in (None, 0, 1):
            copy = wire(event.for_seat(seat))
            assert set(copy) == {"seq", "type", "at", "data"}  # `at`: stamped by the table
            assert json.loads(json.dumps(copy)) == copy
        # As the store keeps it (public data and private parts apart) and reads it back.
        private = {str(seat): wire(part) for seat, part in event.private.items()}
        back = Event.stored(event.seq, event.type, "", plain(event.data), private)
        assert back == event and back.for_seat(0) == event.for_seat(0)


def test_drawn_tile_is_private_to_the_drawer() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]], stock=[(3, 3), (2, 6)])
    state, events = run(state, ((1, 2), None), "draw")
    drawn = events[-1]
    assert drawn.type == "tile_drawn"
    # The drawer keeps the turn ([3,3] does not fit 1-2), so its copy also carries what it may do.
    assert wire(drawn.for_seat(1))["data"] == {
        "seat": 1,
        "stock": 1,
        "tile": [3, 3],
        "legal": [{"action": "draw"}],
    }
    assert wire(drawn.for_seat(0))["data"] == {"seat": 1, "stock": 1}
    assert wire(drawn.for_seat(None))["data"] == {"seat": 1, "stock": 1}


def test_tile_played_and_passed_payloads() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(5, 5), (4, 5)]])
    state, events = run(state, ((1, 2), None), "pass")
    assert wire(events[0].for_seat(None))["data"] == {
        "seat": 0,
        "tile": [1, 2],
        "end": None,
        "outer": None,
        "spinner": False,
        "points": 0,
        "ends_total": 3,
    }
    assert events[2].type == "passed" and plain(events[2].data) == {"seat": 1}


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [
        (NotYourTurn, "not_your_turn", 409),
        (IllegalMove, "illegal_move", 409),
        (MatchOver, "match_over", 409),
        (MatchNotStarted, "match_not_started", 409),
        (MatchInProgress, "match_in_progress", 409),
        (HandInProgress, "hand_in_progress", 409),
    ],
)
def test_error_codes(error: type[EngineError], code: str, status: int) -> None:
    """The engine's errors carry only their code; the API layer maps the code to a status."""
    assert issubclass(error, EngineError) and error.code == code
    assert not hasattr(error, "status") and engine_status(code) == status


def test_every_engine_error_code_has_a_status() -> None:
    def subclasses(cls: type[EngineError]) -> list[type[EngineError]]:
        return [cls, *(s for sub in cls.__subclasses__() for s in subclasses(sub))]

    codes = {error.code for error in subclasses(EngineError)}
    assert len(codes) == len(subclasses(EngineError)) == 24  # one class per cause
    assert codes == set(ENGINE_STATUS)


def test_refusals() -> None:
    waiting = new_match(DRAW, SECRET)
    with pytest.raises(MatchNotStarted):
        apply(waiting, 0, Pass())
    with pytest.raises(MatchNotStarted):
        apply(waiting, None, NextHand())
    state, _ = started()
    with pytest.raises(MatchInProgress):
        apply(state, None, Start("again"))  # type: ignore[arg-type]
    with pytest.raises(HandInProgress):
        apply(state, None, NextHand())  # type: ignore[arg-type]
    with pytest.raises(NotYourTurn, match="seat 0's turn"):
        apply(state, 1, Draw())  # type: ignore[arg-type]
    with pytest.raises(NotYourTurn):
        apply(state, None, Draw())  # type: ignore[arg-type]
    over = apply(state, None, Abandon()).state  # type: ignore[arg-type]
    for action in (Pass(), Start("x"), NextHand(), Forfeit(0, "clock")):
        with pytest.raises(MatchOver):
            apply(over, 0, action)


@pytest.mark.parametrize(
    ("tile", "end", "message"),
    [
        ((7, 7), "left", "not in a double-six set"),
        ((5, 3), "left", "not canonical"),
        ((1, 2, 3), "left", "pair"),
        (("a", 1), "left", "whole numbers"),
        ((1, 2), "middle", "end must be one of"),
        ((3, 3), "left", "does not hold"),
        ((2, 5), None, "name the end"),
        ((2, 5), "up", "not open"),
        ((4, 5), "left", "does not fit left"),
    ],
)
def test_illegal_plays_say_why(tile: object, end: str | None, message: str) -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 5), (4, 5), (6, 6)]])
    state, _ = run(state, ((1, 2), None))
    with pytest.raises(IllegalMove, match=message):
        apply(state, 1, Play(tile, end))  # type: ignore[arg-type]


def test_opening_mistakes() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 5)]], opening_tile=(1, 2))
    with pytest.raises(IllegalMove, match="end null"):
        apply(state, 0, Play((1, 2), "left"))
    with pytest.raises(IllegalMove, match=r"must open with \[1, 2\]"):
        apply(state, 0, Play((0, 0), None))


def test_a_list_tile_is_accepted_like_a_tuple() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 5)]])
    state = apply(state, 0, Play([1, 2], None)).state  # type: ignore[arg-type]
    assert state.turn == 1


def test_record_numbers_service_events_and_staleness() -> None:
    state, _ = started()
    said = MessageEvent(seq=0, data=MessageData(seat=0, name="Ana", text="hi"))
    joined = record(state, said)
    assert joined.events[0].seq == 4 and joined.state.seq == 4 and joined.state.game_seq == 3
    assert not is_stale(joined.state, 3) and not is_stale(joined.state, 4)
    assert is_stale(joined.state, 2) and is_stale(joined.state, 5)
    auto = record(joined.state, AutopilotOnEvent(seq=0, data=SeatData(seat=1)))
    assert auto.state.game_seq == 5 and is_stale(auto.state, 4)
    with pytest.raises(ValueError):
        record(state, PassedEvent(seq=0, data=SeatData(seat=0)))


@pytest.mark.parametrize(
    "action",
    [
        Start("cut"),
        Play((1, 2), None),
        Play((1, 2), "left", "keeps the sixes"),
        Draw(),
        Draw("nothing fits"),
        Pass(),
        NextHand(),
        Forfeit(1, "away"),
        Abandon("cancelled"),
    ],
)
def test_action_json_round_trip(action: object) -> None:
    data = json.loads(msgspec.json.encode(action_to_json(action)))  # type: ignore[arg-type]
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        {"action": "fly"},
        {"action": "play", "tile": [1]},
        {"action": "play", "tile": [1, True], "end": None},
        {"action": "forfeit", "seat": 0, "cause": "boredom"},
        {"action": "abandon", "reason": "tired"},
        {"action": "start"},
        [],
    ],
)
def test_malformed_action_json(data: object) -> None:
    with pytest.raises(IllegalMove):
        action_from_json(data)  # type: ignore[arg-type]


def test_engine_records_are_plain_frozen_values() -> None:
    """Events, actions, results and transitions are built by their constructors and frozen."""
    event = Event(TurnEvent(seq=3, data=TurnData(seat=1, deadline=None, must_cover=None)))
    with pytest.raises(AttributeError):
        event.public.seq = 4  # type: ignore[misc]
    play = Play(tile=(1, 2), end="left")
    assert play == Play((1, 2), "left", None) and play.reason is None
    assert structs.replace(play, reason="bot") == Play((1, 2), "left", "bot")
    assert Play.__match_args__ == ("tile", "end", "reason")
    with pytest.raises(AttributeError):
        play.end = "right"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Play((1, 2))  # type: ignore[call-arg]
    assert pickle.loads(pickle.dumps(play)) == play and copy.deepcopy(play) == play
    for value in (
        Deal(hands=(((0, 0),),), stock=()),
        HandResult(
            number=1,
            reason="domino",
            winner=0,
            tied=False,
            pips=(0, 3),
            points=3,
            hands=((), ((1, 2),)),
        ),
        MatchResult(
            winner=0, reason="target", scores=(100, 3), hands_won=(1, 0), forfeited_by=None
        ),
    ):
        fields = structs.asdict(value)
        assert value == type(value)(**fields) and structs.replace(value) == value
        with pytest.raises(AttributeError):
            setattr(value, value.__struct_fields__[0], None)
        with pytest.raises(TypeError):  # every field by name
            type(value)(*fields.values())
    transition = apply(new_match(DRAW, SECRET), None, Start("moon"))
    with pytest.raises(AttributeError):
        transition.state = transition.state  # type: ignore[misc]
    assert transition.events == transition.events  # built again on each read, equal
    copied = pickle.loads(pickle.dumps(transition))
    assert copied == transition and copied.events == transition.events
