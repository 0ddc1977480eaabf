"""What the table reducer's rule tests share: a clock at T0, tables of known holders, a first
legal move, a three-seat clocked ruleset and an outage that answers every moment."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from msgspec.structs import replace

from domino_api.bots import get_strategy
from domino_api.engine import (
    PRESETS,
    Action,
    Ruleset,
    SeatView,
    TurnClock,
    legal_actions,
    make_ruleset,
)
from domino_api.engine import table as tables
from domino_api.engine.table import (
    Move,
    Staged,
    Start,
    Stepped,
    Table,
)
from domino_api.engine.table.new import NewSeat
from tests.engine.helpers import to_action

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "1234"
HOLDERS = {"p0": ("Ann", "moon"), "p1": ("Bob", "sun"), "p2": ("Cid", "sea")}
CLASSIC = PRESETS["classic"]  # turn clock 180 s + 120 s grace
ALL_FIVES = PRESETS["all-fives"]  # away forfeit 180 s


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def chooser(name: str, view: SeatView, seed: str) -> tuple[Action, str]:
    return get_strategy(name).choose(view, random.Random(seed))


def humans(*players: str | None) -> list[NewSeat]:
    return [NewSeat(type="human", player_id=p) for p in players]


def new(
    rules: Ruleset = CLASSIC,
    seats: Sequence[NewSeat] | None = None,
    **facts: object,
) -> Table:
    facts = {"code": CODE, "host_player_id": "p0", **facts}
    seated = humans("p0", "p1") if seats is None else list(seats)
    holders = {p: HOLDERS[p] for s in seated if (p := s.player_id) in HOLDERS}
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
    return replace(nines, turn_clock=TurnClock(allowance_s=180, grace_s=120))


class Outage:
    """The service was down over every moment asked about, and came back at `restart`."""

    def __init__(self, restart: datetime) -> None:
        self.restart = restart
        self.asked: list[datetime] = []

    def outage_restart(self, moment: datetime) -> datetime | None:
        self.asked.append(moment)
        return self.restart
