"""Ratings at Mexican Train: the lowest total wins, so three rated seats place by their totals
from the lowest up (ratings/rules.py `outcome`)."""

from __future__ import annotations

from datetime import UTC, datetime

from msgspec.structs import replace

from domino_api import engine
from domino_api.engine import table as tables
from domino_api.engine.table.new import NewSeat
from domino_api.ratings.rules import outcome


def test_three_rated_seats_place_lowest_total_first() -> None:
    now = datetime(2026, 12, 7, tzinfo=UTC)
    holders = ("ana", "bob", "cy")
    seats = [NewSeat(type="human", player_id=holder) for holder in holders]
    names = {holder: (holder, "moon") for holder in holders}
    rules = engine.make_ruleset("mexican-train", {"players": 3, "rounds": 1})
    table = tables.new_table("m", rules, b"s" * 32, now, seats, names, rated=True).table
    state = engine.apply(table.state, None, engine.Start("cut")).state
    result = engine.MatchResult(
        winner=2, reason="rounds", scores=(40, 90, 12), hands_won=(0, 0, 1), forfeited_by=None
    )
    state = replace(state, status="finished", result=result)
    seated = tuple(replace(row, moved=True) for row in table.seats)
    table = replace(table, state=state, seats=seated, match=replace(table.match, started_at=now))
    placed = outcome(table)
    assert [(p.player_id, p.place) for p in placed] == [("ana", 2), ("bob", 3), ("cy", 1)]
