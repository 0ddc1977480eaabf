"""The table reducer: `step(table, command, now)` returns the next table and its events.

Every rule of a table (docs/RULES.md sections 9 and 10, and the seats: joins, claims, the
host's hold, autopilot, check-in, presence) is applied here and nowhere else; the services
only load a table, step it, save the result and announce it. Nothing is changed in place, and
a refused command raises an EngineError.

Computers are injected as a `chooser`: with one, the computer seats that get the turn reply
within the step (tests, simulations); without, the caller asks its own (the service's decide
in worker processes, bots/computers.py) and feeds each choice back as `ComputerMove`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

from domino_api.engine import actions, rules
from domino_api.engine.events import Event
from domino_api.engine.kinds import Json
from domino_api.engine.state import MatchState
from domino_api.engine.table import commands, play, seating
from domino_api.engine.table.model import Staged, Stepped, Table
from domino_api.engine.table.transitions import Steps, act
from domino_api.engine.view import SeatView, seat_view

# A computer streak is bounded so a rules bug can never spin a step forever.
MAX_COMPUTER_MOVES = 2_000

# (strategy, the seat's view, seed) -> (action, reason)
Chooser = Callable[[str, SeatView, str], tuple[actions.Action, str]]


def _step_one(table: Table, command: commands.Command, now: datetime) -> Stepped:
    # The commands most steps carry first: a class pattern is one isinstance check.
    match command:
        case commands.Move():
            return play.move(table, command, now)
        case commands.Tick():
            return play.tick(table, command, now)
        case commands.ComputerMove():
            return play.computer_move(table, command, now)
        case commands.Seen():
            return seating.seen(table, command, now)
        case commands.Connect():
            return seating.connect(table, command, now)
        case commands.Lapse():
            return seating.lapse(table, command, now)
        case commands.Start():
            return play.start(table, command, now)
        case commands.NextHand():
            return play.next_hand(table, command, now)
        case commands.Resign():
            return play.resign(table, command, now)
        case commands.Ready():
            return seating.ready(table, command, now)
        case commands.Chat():
            return seating.chat(table, command, now)
        case commands.Autopilot():
            return seating.autopilot(table, command, now)
        case commands.Join():
            return seating.join(table, command, now)
        case commands.Lock():
            return seating.lock(table, command, now)
        case commands.Talk():
            return seating.talk(table, command, now)
        case commands.Release():
            return seating.release(table, command, now)
        case commands.OfferRematch():
            return seating.offer_rematch(table, command, now)
        case commands.RematchCreated():
            return seating.rematch_created(table, command, now)
        case commands.TileBack():
            return seating.tile_back(table, command, now)
    raise TypeError(f"not a command: {command!r}")


def step(
    table: Table, command: commands.Command, now: datetime, chooser: Chooser | None = None
) -> Stepped:
    """The table after `command` at `now`, and the events it made; with a `chooser`, after the
    computer seats' replies too."""
    stepped = _step_one(table, command, now)
    if chooser is None:
        return stepped
    return stepped.then(reply(stepped.table, now, chooser))


class Decision(NamedTuple):
    """What a computer seat must decide: its strategy, its view (nothing else) and the seed."""

    strategy: str
    view: SeatView
    seed: str


# The computers' replies, one decision at a time: send each Decision its (action, reason).
Replies = Generator[Decision, tuple[actions.Action, str], Stepped]


def replies(table: Table, now: datetime) -> Replies:
    """Every computer seat that has the turn moves, until a human's turn or the end: the one
    loop of the computers' replies. It yields each decision it needs and is sent the choice, so
    a caller decides in process (`reply`) or awaits worker processes (matches/unit.py)."""
    steps = Steps(table)
    for _ in range(MAX_COMPUTER_MOVES):
        steps.add(next_hand_for_computers(steps.table, now))
        seat = computer_turn(steps.table)
        if seat is None:
            break
        choice = seat_view(steps.table.state, seat)
        strategy = steps.table.strategy_of(seat)
        action, reason = yield Decision(strategy, choice, computer_seed(steps.table))
        steps.add(step(steps.table, commands.ComputerMove(seat, action, reason), now))
    return steps.result()


def reply(table: Table, now: datetime, chooser: Chooser) -> Stepped:
    """`replies` with every decision made by `chooser`, in process."""
    loop = replies(table, now)
    try:
        decision = next(loop)
        while True:
            decision = loop.send(chooser(*decision))
    except StopIteration as done:
        finished = done.value  # the generator's return value (typed Any by StopIteration)
        assert isinstance(finished, Stepped)
        return finished


def computer_seed(table: Table) -> str:
    # By match and seq, so a replayed decision (a retried unit) is the same decision.
    return f"{table.match.id}:{table.state.seq}"


def computer_turn(table: Table) -> int | None:
    """The computer seat that must decide now, if any."""
    state = table.state
    if state.status == "playing" and state.turn is not None and table.is_computer(state.turn):
        return state.turn
    return None


def computers_due(table: Table) -> bool:
    """Whether a computer must act before a human can: a decision, or the next hand of a table
    where no human is in play."""
    between_hands = table.state.status == "hand_over" and not table.humans_in_play()
    return between_hands or computer_turn(table) is not None


def next_hand_for_computers(table: Table, now: datetime) -> Stepped:
    """A hand is over and no human is in play: nobody is there to ask, so the next one starts."""
    if table.state.status != "hand_over" or table.humans_in_play():
        return Stepped(table)
    return act(table, now, None, actions.NextHand())


class StoredEvent(Protocol):
    """An event as the store keeps it (store/models.py's MatchEvent)."""

    @property
    def seq(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> Mapping[str, Json]: ...
    @property
    def action(self) -> Mapping[str, Json] | None: ...


def replay(events: Sequence[Staged] | Sequence[StoredEvent], initial: MatchState) -> MatchState:
    """Fold stored events back into a state: the snapshot must equal this (a tested property)."""
    state = initial
    for event in events:
        if isinstance(event, Staged):
            note = event.action
        else:
            note = None if event.action is None else actions.note_from_json(event.action)
        if isinstance(note, actions.Recorded):
            if isinstance(event, Staged):
                public = event.event.public
            else:
                public = Event.stored(event.seq, event.type, "", event.data, {}).public
            state = rules.record(state, public).state
        elif isinstance(note, actions.Acted):
            state = rules.apply(state, note.seat, note.action).state
    return state
