"""Property tests of the table reducer (engine/table): random tables under random commands keep
its invariants. No database: a table is a value and `step` a pure function of its inputs.

Humans play random legal moves (and chat, look in, leave, resign, join, hand seats to the
computer ...), computers answer through a chooser, and the clock jumps past deadlines now and
then so that Ticks forfeit, deal the next hand or abandon."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.bots import get_strategy
from domino_api.engine import (
    PRESETS,
    Action,
    EngineError,
    Ruleset,
    SeatView,
    TurnClock,
    legal_actions,
    make_ruleset,
    new_match,
    to_json,
)
from domino_api.engine import table as tables
from domino_api.engine.table import (
    Autopilot,
    Chat,
    Command,
    Connect,
    Join,
    Lapse,
    Lock,
    Move,
    NextHand,
    OfferRematch,
    Release,
    Resign,
    Seen,
    Start,
    Stepped,
    Table,
    Tick,
)
from domino_api.engine.table.new import NewSeat
from tests.engine.helpers import ruleset, to_action
from tests.engine.table_invariants import check_step, check_table

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "4711"
STRATEGIES = ("plain", "random", "planner")
_nines = PRESETS["house-nines"]
CONFIGS: dict[str, Ruleset] = {
    "block": PRESETS["block"],
    "draw": PRESETS["draw"],
    "draw-50": PRESETS["draw-50"],
    "all-fives": make_ruleset("all-fives", {"away_forfeit_s": 40}),
    "classic": make_ruleset("classic", {"turn_clock": {"allowance_s": 20, "grace_s": 10}}),
    "classic-best-of-3": make_ruleset("classic", {"best_of": 3}),
    "house-nines-2": make_ruleset("house-nines", {"players": 2}),
    "house-nines-3": make_ruleset("house-nines", {"players": 3}),
    "house-nines-4": PRESETS["house-nines"],
    # No preset has a clock with more than two seats; the reducer's rules for one still hold.
    "house-nines-3-clock": ruleset(_nines, players=3, turn_clock=TurnClock(20, 10)),
    "house-nines-4-away": ruleset(_nines, away_forfeit_s=40),
}


def fast_chooser(name: str, view: SeatView, seed: str) -> tuple[Action, str]:
    """The computers: the Planner's seats are played by Plain here (the Planner takes seconds
    a match, and which legal move a computer picks is not what these properties are about)."""
    assert name in STRATEGIES
    assert view.legal  # a computer is only asked when it has something to do
    strategy = get_strategy("plain" if name == "planner" else name)
    return strategy.choose(view, random.Random(seed))


class Downtime:
    """The service was down from `start` until `end` (a Tick's outages)."""

    def __init__(self, start: datetime, end: datetime) -> None:
        self.start, self.end = start, end

    def outage_restart(self, moment: datetime) -> datetime | None:
        return self.end if self.start <= moment <= self.end else None


def frozen(table: Table) -> object:
    """Everything the table holds, as plain data: equal before and after a step."""
    return msgspec.to_builtins(table)


# ---------------------------------------------------------------- random tables and commands


SEAT_KINDS = st.sampled_from(["bot", "human", "hot-seat", "open"])


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    name = draw(st.sampled_from(list(CONFIGS)))
    players = CONFIGS[name].players
    kinds = ["human"] + draw(st.lists(SEAT_KINDS, min_size=players - 1, max_size=players - 1))
    strategies = draw(st.lists(st.sampled_from(STRATEGIES), min_size=players, max_size=players))
    return name, kinds, strategies


def build(name: str, kinds: list[str], strategies: list[str], secret: bytes) -> Stepped:
    seats: list[NewSeat] = []
    holders: dict[str, tuple[str, str]] = {}
    for number, kind in enumerate(kinds):
        if kind == "bot":
            seats.append(NewSeat(type="bot", strategy=strategies[number]))
            continue
        if kind == "open":
            seats.append(NewSeat(type="human"))
            continue
        pid = "p0" if kind == "hot-seat" else f"p{number}"
        guest = f"Guest {number}" if kind == "hot-seat" else None
        seats.append(NewSeat(type="human", player_id=pid, name=guest))
        holders.setdefault(pid, (f"Player{number}", "moon"))
    solo = all(s.player_id in ("p0", None) for s in seats if s.type == "human")
    solo = solo and "open" not in kinds
    return tables.new_table(
        "match-1",
        CONFIGS[name],
        secret,
        T0,
        seats,
        holders,
        code=CODE,
        host_player_id="p0",
        solo=solo,
    )


def holders(table: Table) -> list[str]:
    return sorted({row.player_id for row in table.seats if row.player_id})


def next_command(table: Table, rng: random.Random, now: datetime, joins: int) -> Command | None:
    """A random command someone might send now (not always an accepted one)."""
    state = table.state
    people = holders(table) or ["p0"]
    who = rng.choice(people + ["stranger"] if rng.random() < 0.05 else people)
    roll = rng.random()
    if roll < 0.55:  # the game goes on
        if state.status == "waiting":
            open_seat = any(r.type == "human" and r.player_id is None for r in table.seats)
            if open_seat and rng.random() < 0.5:
                return Join(f"q{joins}", f"Joiner{joins}", "sun", CODE)
            return Start("p0", f"cut-{rng.randrange(1000)}", fill_with_bots=rng.random() < 0.8)
        if state.status == "hand_over":
            return NextHand(who)
        turn = state.turn
        if state.status == "playing" and turn is not None:
            holder = table.seats[turn].player_id
            if holder is not None and not table.is_computer(turn):
                option = rng.choice(legal_actions(state, turn))
                seat = turn if rng.random() < 0.5 else None
                return Move(holder, to_action(option), state.seq, seat)
        return None
    if roll < 0.62:
        return Seen(who)
    if roll < 0.68:
        humans = [r.seat for r in table.seats if r.type == "human"]
        return Connect(tuple(rng.sample(humans, rng.randint(0, len(humans)))), lease_s=30)
    if roll < 0.72:
        return Lapse(tuple(range(len(table.seats))))
    if roll < 0.75:
        return Chat(who, "gg")
    if roll < 0.79:
        return Autopilot("p0", rng.randrange(len(table.seats)), rng.random() < 0.6)
    if roll < 0.805:
        return Resign(who)
    if roll < 0.83:
        stale = max(state.game_seq - 1, 0)
        turn = state.turn
        if turn is not None and state.status == "playing":
            return Move(who, to_action(legal_actions(state, turn)[0]), stale, turn)
        return None
    if roll < 0.85:
        return Join(f"q{joins}", rng.choice(["Player1", "Player2", f"Joiner{joins}"]), "sun", CODE)
    if roll < 0.86:
        return Lock("p0", rng.random() < 0.5)
    if roll < 0.87:
        return Release("p0", rng.randrange(len(table.seats)))
    if roll < 0.89:
        return OfferRematch(who)
    return Tick()


def later(table: Table, now: datetime, rng: random.Random) -> datetime:
    """The clock moves on: mostly a little, sometimes past the next deadline."""
    roll = rng.random()
    due = table.match.due_at
    if roll < 0.02 and due is not None and due - now < timedelta(minutes=10):
        return max(now, due) + timedelta(seconds=rng.choice([0, 0.5, 3]))
    if roll < 0.04:
        return now + timedelta(seconds=rng.choice([15, 60, 600]))
    return now + timedelta(seconds=rng.uniform(0, 4))


Log = list[tuple[Command, datetime]]


def run_table(
    name: str, kinds: list[str], strategies: list[str], seed: int, ops: int
) -> tuple[Stepped, Log, Table]:
    """Random commands on a random table, every step checked; returns the new table, the
    commands it took (refused ones too) and the final table."""
    rng = random.Random(seed)
    secret = rng.randbytes(32)
    created = build(name, kinds, strategies, secret)
    table, now = created.table, T0
    assert [e.seq for e in created.events] == list(range(1, len(created.events) + 1))
    check_table(table, now)
    events = list(created.events)
    log: Log = []
    joins = 0
    for _ in range(ops):
        was = now
        now = later(table, now, rng)
        command = next_command(table, rng, now, joins)
        if command is None:
            command = Tick()
        due = table.match.due_at
        if isinstance(command, Tick) and due is not None:
            soon = due - now < timedelta(minutes=10)
            if rng.random() < (0.3 if soon else 0.01):  # 24 h later: abandoned
                now = max(now, due)
            if rng.random() < 0.3:  # nobody was there to tick since the last command
                command = Tick(Downtime(was, now))
        joins += isinstance(command, Join)
        log.append((command, now))
        before = frozen(table)
        try:
            out = tables.step(table, command, now, fast_chooser)
        except EngineError as error:
            assert error.code != "engine_error"  # every refusal has its own stable code
            assert frozen(table) == before
            continue
        assert frozen(table) == before  # the input table is never changed
        check_step(table, out, now, command)
        table = out.table
        events += out.events
        if table.over and rng.random() < 0.3:
            break
    replayed = tables.replay(events, new_match(CONFIGS[name], secret))
    assert to_json(replayed) == to_json(table.state)
    return created, log, table


@settings(max_examples=40, deadline=None)
@given(layout=layouts(), seed=st.integers(0, 2**63))
def test_random_tables_keep_the_invariants(
    layout: tuple[str, list[str], list[str]], seed: int
) -> None:
    name, kinds, strategies = layout
    run_table(name, kinds, strategies, seed, ops=120)


@settings(max_examples=10, deadline=None)
@given(layout=layouts(), seed=st.integers(0, 2**63))
def test_a_step_is_a_function_of_its_inputs(
    layout: tuple[str, list[str], list[str]], seed: int
) -> None:
    """The same commands at the same moments from the same table: the same tables and events
    (nothing random or clock-read inside a step; the computers' seeds come from the table)."""
    name, kinds, strategies = layout
    created, log, final = run_table(name, kinds, strategies, seed, ops=60)
    table = created.table
    for command, now in log:
        try:
            first = tables.step(table, command, now, fast_chooser)
        except EngineError as error:
            with pytest.raises(type(error)):
                tables.step(table, command, now, fast_chooser)
            continue
        second = tables.step(table, command, now, fast_chooser)
        assert msgspec.to_builtins(first) == msgspec.to_builtins(second)
        table = first.table
    assert frozen(table) == frozen(final)


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(list(CONFIGS)),
    strategies=st.lists(st.sampled_from(("plain", "random")), min_size=4, max_size=4),
    secret=st.binary(min_size=1, max_size=32),
)
def test_a_table_of_computers_plays_to_the_end_in_one_step(
    name: str, strategies: list[str], secret: bytes
) -> None:
    rules = CONFIGS[name]
    seats = [NewSeat(type="bot", strategy=s) for s in strategies[: rules.players]]
    created = tables.new_table(
        "match-2", rules, secret, T0, seats, {}, code=CODE, host_player_id="p0"
    )
    assert created.table.match.code is None  # nobody can join a table of computers
    before = frozen(created.table)
    out = tables.step(created.table, Start("p0", "cut"), T0, fast_chooser)
    assert frozen(created.table) == before
    check_step(created.table, out, T0, Start("p0", "cut"))
    assert out.table.state.status == "finished"
    assert out.events[-1].type == "match_ended"
    replayed = tables.replay(list(created.events + out.events), new_match(rules, secret))
    assert to_json(replayed) == to_json(out.table.state)
