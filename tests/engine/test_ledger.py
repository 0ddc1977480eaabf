"""The ledger (`LedgerOut`, openapi/openapi.json) and verify_ledger, with tampered records."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import msgspec
import pytest

from domino_api.engine import (
    PRESETS,
    Abandon,
    Forfeit,
    LedgerSealed,
    Start,
    apply,
    commitment,
    ledger,
    new_match,
    verify_ledger,
)
from domino_api.engine.event_types import SeatJoinedData
from tests.engine.helpers import random_match, ruleset


def finished_ledger(name: str = "all-fives", seed: int = 11) -> dict[str, Any]:
    state, _ = random_match(PRESETS[name], random.Random(seed))
    return json.loads(msgspec.json.encode(ledger(state, match_id="m-1")))


def test_ledger_shape() -> None:
    record = finished_ledger()
    assert set(record) == {"match_id", "ruleset", "seats", "deal", "hands", "result"}
    assert record["match_id"] == "m-1" and record["ruleset"]["name"] == "all-fives"
    assert record["seats"][0] == {
        "seat": 0,
        "name": "Seat 0",
        "type": "human",
        "strategy": None,
        "forfeited": False,
    }
    deal = record["deal"]
    assert deal["algorithm"] == "sha256-fy-v1"
    assert commitment(bytes.fromhex(deal["secret"])) == deal["commitment"]
    hand = record["hands"][0]
    assert set(hand) == {"number", "attempt", "opener", "dealt", "stock", "moves", "result"}
    assert set(hand["result"]) == {"reason", "winner", "tied", "pips", "points"}
    first = hand["moves"][0]
    assert first["action"] == "play" and first["end"] is None and "seq" in first
    draws = [m for h in record["hands"] for m in h["moves"] if m["action"] == "draw"]
    assert draws and set(draws[0]) == {"seq", "seat", "action", "tile"}
    seqs = [m["seq"] for h in record["hands"] for m in h["moves"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_ledger_is_sealed_until_the_match_is_over() -> None:
    state = apply(new_match(PRESETS["draw"], b"s" * 32), None, Start("x")).state
    with pytest.raises(LedgerSealed) as info:
        ledger(state)
    assert info.value.code == "ledger_sealed"


def test_ledger_carries_seats_and_reasons() -> None:
    state = apply(new_match(PRESETS["draw"], b"s" * 32), None, Start("x")).state
    option = state.hand.legal[0]  # type: ignore[union-attr]
    from domino_api.engine import Play

    assert option.tile is not None
    state = apply(state, 0, Play(option.tile, None, reason="heaviest first")).state
    state = apply(state, None, Forfeit(seat=1, cause="resign")).state
    seats = [
        SeatJoinedData(seat=0, name="Ana", type="human", strategy=None),
        SeatJoinedData(seat=1, name="Planner", type="bot", strategy="planner"),
    ]
    record = json.loads(msgspec.json.encode(ledger(state, seats)))
    assert record["seats"][1]["forfeited"] is True and record["seats"][1]["name"] == "Planner"
    assert record["hands"][0]["moves"][0]["reason"] == "heaviest first"
    assert record["hands"][0]["result"]["reason"] == "forfeit"
    assert record["result"]["forfeited_by"] == 1 and record["result"]["winner"] == 0
    assert verify_ledger(record) == []


def test_a_match_that_never_started() -> None:
    state = apply(new_match(PRESETS["classic"], b"s" * 32), None, Abandon("cancelled")).state
    record = json.loads(msgspec.json.encode(ledger(state)))
    assert record["deal"]["cut"] is None and record["hands"] == []
    assert record["result"]["reason"] == "cancelled"
    assert verify_ledger(record) == []


def test_abandoned_mid_hand_verifies() -> None:
    state = apply(new_match(PRESETS["draw"], b"s" * 32), None, Start("x")).state
    state = apply(state, None, Abandon()).state
    assert verify_ledger(ledger(state)) == []


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_matches_verify(name: str) -> None:
    assert verify_ledger(finished_ledger(name, 5)) == []


def test_three_seat_match_verifies() -> None:
    state, _ = random_match(ruleset(PRESETS["house-nines"], players=3), random.Random(2))
    assert verify_ledger(json.loads(msgspec.json.encode(ledger(state)))) == []


def test_tampered_points_are_caught() -> None:
    record = finished_ledger()
    plays = [m for h in record["hands"] for m in h["moves"] if m["action"] == "play"]
    plays[3]["points"] += 5
    problems = verify_ledger(record)
    assert any("scores" in p for p in problems)


def test_tampered_hand_points_are_caught() -> None:
    record = finished_ledger()
    record["hands"][0]["result"]["points"] += 1
    assert any("hand 1: result" in p for p in verify_ledger(record))


def test_tampered_stock_is_caught() -> None:
    record = finished_ledger()
    stock = record["hands"][0]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    assert any("stock" in p for p in verify_ledger(record))


def test_wrong_secret_is_caught() -> None:
    record = finished_ledger()
    record["deal"]["secret"] = "00" * 32
    problems = verify_ledger(record)
    assert any("commitment" in p for p in problems)
    assert len(problems) > 1  # the deals no longer match either


def test_tampered_match_result_is_caught() -> None:
    record = finished_ledger()
    record["result"]["winner"] = 1 - record["result"]["winner"]
    assert any("match result" in p for p in verify_ledger(record))


def test_a_move_the_rules_refuse_is_caught() -> None:
    record = finished_ledger()
    move = record["hands"][0]["moves"][1]
    move["seat"] = 1 - move["seat"]
    assert any("refused" in p for p in verify_ledger(record))


def test_malformed_ledgers_do_not_raise() -> None:
    record = finished_ledger()
    broken = copy.deepcopy(record)
    del broken["deal"]
    assert verify_ledger(broken)
    broken = copy.deepcopy(record)
    broken["ruleset"]["players"] = 9
    assert verify_ledger(broken)
