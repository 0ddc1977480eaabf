"""Property test of the table reducer's seats (issue 41): whatever the host and its second
accounts send, in any order and at any pace,

- a seat changes hands only once its holder has been away for the presence lease (no socket's
  lease and no sighting within it), by this test's own account of when each holder was last
  at the table, never by the reducer's;
- a hand is shown only to the account that holds its seat.

The attack it holds: the host released a connected opponent's seat, a second account of the
host joined by the number and read the whole hand."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.engine import EngineError, legal_actions, make_ruleset
from domino_api.engine import table as tables
from domino_api.engine.table import (
    Autopilot,
    Command,
    Connect,
    Join,
    Lapse,
    Lock,
    Move,
    Release,
    Resign,
    Seen,
    Start,
    Table,
    Tick,
)
from domino_api.engine.table.new import NewSeat
from domino_api.matches.views import build_view
from tests.engine.helpers import to_action

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "4711"
LEASE = 30.0
HOST = "p0"
ALTS = ("h1", "h2")  # the host's second accounts
VICTIMS = ("v1", "v2", "v3")
ACCOUNTS = (HOST, *ALTS, *VICTIMS, "x")
NAMES = {account: f"Name-{account}" for account in ACCOUNTS}

Here = dict[tuple[int, str], datetime]  # (seat, holder) -> until when it was at the table


def build(players: int, held: list[bool]) -> tuple[Table, Here]:
    seats = [NewSeat(type="human", player_id=HOST)]
    holders = {HOST: (NAMES[HOST], "moon")}
    here: Here = {(0, HOST): T0 + timedelta(seconds=LEASE)}
    for number in range(1, players):
        if held[number - 1]:
            victim = VICTIMS[number - 1]
            seats.append(NewSeat(type="human", player_id=victim))
            holders[victim] = (NAMES[victim], "sun")
            here[(number, victim)] = T0 + timedelta(seconds=LEASE)  # seen at creation
        else:
            seats.append(NewSeat(type="human"))
    ruleset = make_ruleset("house-nines", {"players": players})
    made = tables.new_table(
        "m1", ruleset, bytes(range(32)), T0, seats, holders, code=CODE, host_player_id=HOST
    )
    return made.table, here


def command_of(table: Table, roll: tuple[int, int, int], rng: random.Random) -> Command:
    kind, who, pick = roll
    account = ACCOUNTS[who % len(ACCOUNTS)]
    seat = pick % len(table.seats)
    if kind == 0:
        return Seen(account, every_s=0)
    if kind == 1:
        return Connect(tuple(table.seats_of(account)), LEASE, account)
    if kind == 2:
        return Release(HOST, seat, LEASE)
    if kind == 3:  # a join by number, under a seat's name or one's own
        names = [NAMES[a] for a in ACCOUNTS]
        name = rng.choice([*names, None])
        return Join(account, NAMES[account], "sun", CODE, name, LEASE)
    if kind == 4:
        return Autopilot(HOST, seat, pick % 3 != 0, LEASE)
    if kind == 5:
        return Lapse(tuple(range(len(table.seats))), LEASE)
    if kind == 6:
        return Lock(HOST, pick % 2 == 0)
    if kind == 7:
        return Start(HOST, f"cut-{pick}", fill_with_bots=False)
    if kind == 8:
        state = table.state
        turn = state.turn
        if state.status == "playing" and turn is not None and table.seats[turn].player_id:
            option = rng.choice(legal_actions(state, turn))
            return Move(str(table.seats[turn].player_id), to_action(option), state.seq, turn)
        return Tick()
    if kind == 9:
        return Resign(account)
    return Tick()


def note_presence(before: Table, after: Table, command: Command, now: datetime, here: Here) -> None:
    """This test's own record of when each holder was at the table (the rule of docs/API.md:
    a socket's lease, or a request within the lease)."""
    lease = timedelta(seconds=LEASE)
    if isinstance(command, Seen) and not before.over:
        for seat in before.seats_of(command.by):
            here[(seat, command.by)] = max(here.get((seat, command.by), now), now + lease)
    if isinstance(command, Connect) and command.by is not None:
        for seat in command.seats:
            if before.seats[seat].player_id == command.by:
                here[(seat, command.by)] = max(here.get((seat, command.by), now), now + lease)
    for row, was in zip(after.seats, before.seats, strict=True):
        if row.player_id is not None and row.player_id != was.player_id:
            here[(row.seat, row.player_id)] = now + lease  # the joiner's own request


def check_holders(before: Table, after: Table, now: datetime, here: Here) -> None:
    for row, was in zip(after.seats, before.seats, strict=True):
        if was.player_id is None or row.player_id == was.player_id:
            continue
        away_since = here[(was.seat, was.player_id)]
        assert now >= away_since, (
            f"seat {was.seat} went from {was.player_id} to {row.player_id} at {now}, its holder"
            f" at the table until {away_since}"
        )
        assert not was.forfeited


def check_hands(table: Table, now: datetime) -> None:
    hand = table.state.hand
    for account in ACCOUNTS:
        mine = table.seats_of(account)
        view = build_view(table, tables.viewer_seat(table, mine, None), mine, now)
        you = view.you
        if you is None or not you.hand:
            continue
        assert table.seats[you.seat].player_id == account
        assert hand is not None
        assert you.hand == hand.hands[you.seat]


ROLLS = st.tuples(st.integers(0, 10), st.integers(0, 20), st.integers(0, 11))


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 4),
    held=st.lists(st.booleans(), min_size=3, max_size=3),
    steps=st.lists(st.tuples(ROLLS, st.sampled_from([0.0, 1.0, 5.0, 29.0, 31.0])), max_size=80),
    seed=st.integers(0, 2**32),
)
def test_a_seat_changes_hands_only_once_its_holder_has_gone(
    players: int,
    held: list[bool],
    steps: list[tuple[tuple[int, int, int], float]],
    seed: int,
) -> None:
    rng = random.Random(seed)
    table, here = build(players, held)
    now = T0
    for roll, pause in steps:
        now += timedelta(seconds=pause)
        command = command_of(table, roll, rng)
        try:
            out = tables.step(table, command, now)
        except EngineError:
            continue
        check_holders(table, out.table, now, here)
        note_presence(table, out.table, command, now, here)
        table = out.table
        check_hands(table, now)


def test_the_host_cannot_hand_a_present_players_seat_to_its_second_account() -> None:
    """The attack as it was run: release while the victim's socket is open, then a second
    account of the host joins by the number."""
    table, _ = build(2, [True, False, False])
    table = tables.step(table, Start(HOST, "cut"), T0).table
    table = tables.step(table, Connect((1,), LEASE, "v1"), T0 + timedelta(seconds=5)).table
    for moment in (6, 20, 34):  # the socket's lease runs to 35 s
        at = T0 + timedelta(seconds=moment)
        for attempt in (Release(HOST, 1, LEASE), Autopilot(HOST, 1, True, LEASE)):
            try:
                tables.step(table, attempt, at)
            except EngineError as refused:
                assert refused.code == "seat_in_use"
            else:
                raise AssertionError(f"{attempt} was accepted at +{moment} s")
        joined = Join("h1", NAMES["h1"], "sun", CODE, NAMES["v1"], LEASE)
        try:
            tables.step(table, joined, at)
        except EngineError as refused:
            assert refused.code == "code_not_found"
        else:
            raise AssertionError(f"a claim by name was accepted at +{moment} s")
