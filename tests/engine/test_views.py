"""The per-seat view and SeatView: the right keys, and nothing a seat may not see."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec

from domino_api.engine import (
    PRESETS,
    MatchState,
    NextHand,
    SeatView,
    Start,
    apply,
    full_set,
    new_match,
    seat_view,
)
from domino_api.engine import view as typed_view
from tests.engine.helpers import SECRET, position, random_match, ruleset, run, to_action


def view(state: MatchState, seat: int | None) -> Any:
    """The engine's view as JSON, as the service sends it."""
    return msgspec.json.decode(msgspec.json.encode(typed_view(state, seat)))


VIEW_KEYS = {
    "status",
    "ruleset",
    "seq",
    "hand_number",
    "seats",
    "you_hand",
    "board",
    "stock",
    "turn",
    "legal",
    "last_hand",
    "result",
}


def pairs(value: Any) -> set[tuple[int, int]]:
    """Every [a, b] pair of small ints anywhere inside a JSON-ish value."""
    found: set[tuple[int, int]] = set()
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(type(x) is int for x in value):
            found.add((value[0], value[1]))
        for item in value:
            found |= pairs(item)
    elif isinstance(value, dict):
        for item in value.values():
            found |= pairs(item)
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            found |= pairs(getattr(value, name))
    return found


def test_view_keys_and_waiting_shape() -> None:
    state = new_match(PRESETS["draw"], SECRET)
    v = view(state, 0)
    assert set(v) == VIEW_KEYS
    assert v["status"] == "waiting" and v["turn"] is None and v["legal"] == []
    assert v["board"] == {"tiles": [], "ends": [], "ends_total": 0}
    assert v["you_hand"] == [] and view(state, None)["you_hand"] is None
    assert v["seats"][1] == {"seat": 1, "score": 0, "hands_won": 0, "tiles": 0, "forfeited": False}
    json.dumps(v)


def test_view_in_play_hides_other_hands_the_stock_and_the_secret() -> None:
    state = apply(new_match(PRESETS["draw"], SECRET), None, Start("x")).state
    state = apply(state, 0, to_action(random.Random(1).choice(state.hand.legal))).state  # type: ignore[union-attr]
    hand = state.hand
    assert hand is not None
    for seat in (0, 1, None):
        v = view(state, seat)
        text = json.dumps(v)
        assert SECRET.hex() not in text
        hidden = set(hand.stock) | {t for s, h in enumerate(hand.hands) if s != seat for t in h}
        assert not pairs(v) & hidden
    v = view(state, 1)
    assert v["turn"] == {"seat": 1, "deadline": None, "must_cover": None}
    assert v["you_hand"] == [list(t) for t in hand.hands[1]]
    assert v["stock"] == 14 and v["seats"][0]["tiles"] == 6
    assert view(state, 0)["legal"] == [] and view(state, None)["legal"] == []
    assert v["legal"] == [
        msgspec.to_builtins(o) | {"tile": o.tile and list(o.tile)} for o in hand.legal
    ]


def test_view_board_and_must_cover() -> None:
    rules = ruleset(PRESETS["house-nines"], players=2)
    state = position(rules, [[(9, 9), (5, 9), (1, 1)], [(8, 9), (2, 3)]], opening_tile=(9, 9))
    state, _ = run(state, ((9, 9), None))
    v = view(state, 0)
    assert v["board"]["tiles"] == [{"tile": [9, 9], "end": None, "outer": None, "spinner": True}]
    assert [e["end"] for e in v["board"]["ends"]] == ["left", "right", "up", "down"]
    assert v["turn"]["must_cover"] == {"tile": [9, 9], "ends": ["left", "right", "up", "down"]}


def test_hand_over_offers_no_move() -> None:
    """`legal` holds moves only: once a hand is over, `status` tells a seat it may start the
    next (POST .../hands), which is no move."""
    state = position(PRESETS["draw"], [[(1, 2)], [(2, 4), (3, 4)]])
    state, _ = run(state, ((1, 2), None))
    v = view(state, 1)
    assert v["status"] == "hand_over" and v["turn"] is None
    assert v["legal"] == []
    assert view(state, None)["legal"] == []
    assert v["last_hand"] == {
        "number": 1,
        "reason": "domino",
        "winner": 0,
        "tied": False,
        "pips": [0, 13],
        "points": 13,
        "hands": [[], [[2, 4], [3, 4]]],
    }
    state = apply(state, None, NextHand()).state
    assert view(state, 0)["last_hand"]["number"] == 1


def test_finished_view_has_the_result() -> None:
    state, _ = random_match(PRESETS["draw-50"], random.Random(3))
    v = view(state, 0)
    assert v["status"] == "finished" and v["result"]["reason"] == "target"
    assert v["legal"] == [] and v["turn"] is None


def test_seat_view_holds_only_what_the_seat_may_see() -> None:
    rng = random.Random(7)
    rules = PRESETS["house-nines"]
    state = apply(new_match(rules, SECRET), None, Start("x")).state
    for _ in range(12):
        state = apply(state, state.turn, to_action(rng.choice(state.hand.legal))).state  # type: ignore[union-attr]
    hand = state.hand
    assert hand is not None
    for seat in range(4):
        sv = seat_view(state, seat)
        assert isinstance(sv, SeatView)
        hidden = set(hand.stock[hand.drawn :]) | {
            t for s, h in enumerate(hand.hands) if s != seat for t in h
        }
        assert not pairs(sv) & hidden - set(sv.unseen)
        field_names = set(SeatView.__struct_fields__)
        assert not field_names & {"hands", "stock_tiles", "dealt", "secret"}
        assert set(sv.hand) == set(hand.hands[seat])
        board_tiles = {p.tile for p in hand.board.tiles}
        assert set(sv.unseen) == set(full_set(9)) - set(sv.hand) - board_tiles
        assert sv.counts == tuple(len(h) for h in hand.hands)
        assert sv.stock == hand.stock_left
        assert len(sv.history) == len(hand.moves)
        assert all(e.tile is None for e in sv.history if e.kind == "draw")
        assert sv.legal == (hand.legal if seat == state.turn else ())


def test_seat_view_history_records_the_pips_a_seat_lacked() -> None:
    state = position(PRESETS["block"], [[(1, 2), (0, 0)], [(5, 5), (4, 5)]])
    state, _ = run(state, ((1, 2), None), "pass")
    history = seat_view(state, 0).history
    assert [(e.seat, e.kind, e.tile, e.pips) for e in history] == [
        (0, "play", (1, 2), ()),
        (1, "pass", None, (1, 2)),
    ]
