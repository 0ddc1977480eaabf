"""How a table takes one engine transition: the new match state, its deadlines and its events.

Every change of a table's match state passes through `transit`, so the table's deadlines, its
due moment and its game number always follow the state they belong to.
"""

from __future__ import annotations

from datetime import datetime

from msgspec.structs import replace

from domino_api.engine import rules
from domino_api.engine.actions import Acted, Action, Note, Recorded, action_to_json
from domino_api.engine.clock_text import iso
from domino_api.engine.event_types import AnyEvent, TurnEvent
from domino_api.engine.events import Event, Transition
from domino_api.engine.table import clocks
from domino_api.engine.table.model import Staged, Stepped, Table
from domino_api.engine.table.seats import needs_number


def transit(table: Table, now: datetime, transition: Transition, note: Note) -> Stepped:
    """The table after one transition: status, deadlines and due moment follow the new state;
    its events are staged, the first carrying `note` (what replays it)."""
    before = table.state
    moved = replace(table, state=transition.state)
    match = moved.match
    before_turn = (before.status, before.turn, before.hand_number)
    changes: dict[str, datetime | None] = {
        "turn_deadline": clocks.turn_deadline(moved, before_turn, now),
        "next_hand_at": clocks.next_hand_at(moved, now),
        "updated_at": now,
    }
    if before.status == "waiting" and moved.state.status == "playing":
        changes["started_at"] = now
    if moved.over and match.finished_at is None:
        changes |= {"finished_at": now, "turn_deadline": None, "next_hand_at": None}
    moved = replace(moved, match=replace(match, **changes))
    moved = replace(moved, match=replace(moved.match, due_at=clocks.due_at(moved)))
    if moved.match.code is not None and not needs_number(moved):
        # Nobody can join or rejoin by it any more: the number is free for another table.
        moved = replace(moved, match=replace(moved.match, code=None))
    events = [_staged(moved, event, now) for event in transition.events]
    if events:
        events[0] = replace(events[0], action=note)
    return Stepped(moved, tuple(events))


def _staged(table: Table, event: Event, now: datetime) -> Staged:
    public = event.public
    if isinstance(public, TurnEvent) and public.data.seat == table.state.turn:
        deadline = iso(table.match.turn_deadline)
        public = replace(public, data=replace(public.data, deadline=deadline))
    return Staged(event=Event(replace(public, at=iso(now) or ""), event.private))


def act(table: Table, now: datetime, seat: int | None, action: Action) -> Stepped:
    """Apply one engine action and stage it."""
    transition = rules.apply(table.state, seat, action)
    return transit(table, now, transition, Acted(seat, action_to_json(action)))


def record(table: Table, now: datetime, event: AnyEvent) -> Stepped:
    """A table event (chat, presence, seats), built with seq 0: numbered by the engine, stored
    alike."""
    transition = rules.record(table.state, event)
    return transit(table, now, transition, Recorded(str(event.__struct_config__.tag)))


class Steps:
    """A step's running result: each change of the table adds its events in order."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[Staged] = []

    def add(self, stepped: Stepped) -> Table:
        self.table = stepped.table
        self.events += stepped.events
        return self.table

    def change(self, table: Table) -> Table:
        """A change that makes no event (a seat's flag, a deadline)."""
        self.table = table
        return table

    def result(self) -> Stepped:
        return Stepped(self.table, tuple(self.events))
