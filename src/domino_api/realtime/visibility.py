"""Who sees an event as what, decided once per event where it is fanned out (realtime/hub.py).

As lila's `VersionedEvent.visibleBy`: the event carries its visibility and the socket only
sends. Each copy is the seat's projection (`views.event_for`: public data and that seat's
private part); a table talk `message` is marked `muted` in the copies of the players who muted
its seat (matches/civil.py), from the mutes the match's feed holds, never read per socket.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from domino_api.engine.event_types import AnyEvent, MessageEvent
from domino_api.engine.table import Staged
from domino_api.matches.views import event_for, mark_muted
from domino_api.store.models import MatchEvent

# Player id -> the seats of this match whose talk it muted.
Mutes = Mapping[str, frozenset[int]]
MutesReader = Callable[[str], Awaitable[Mutes]]
NO_MUTES: Mutes = {}


def muted_by(row: Staged | MatchEvent, mutes: Mutes) -> frozenset[str]:
    """The players whose copy of this event is marked muted: those who muted the seat of a
    message (nobody for any other event)."""
    if row.type != "message" or not mutes:
        return frozenset()
    seat = row.data.get("seat") if isinstance(row.data, dict) else getattr(row.data, "seat", None)
    return frozenset(player for player, seats in mutes.items() if seat in seats)


def copy_for(row: Staged | MatchEvent, seat: int | None, muted: bool) -> AnyEvent:
    """The event as one seat sees it, marked muted when its receiver muted the speaker."""
    event = event_for(row, seat)
    if muted and isinstance(event, MessageEvent):
        return mark_muted([event], [event.data.seat])[0]
    return event
