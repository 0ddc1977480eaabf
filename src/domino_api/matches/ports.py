"""What the write core is handed where a process is wired (domino_api/app/wiring.py), so that it
imports nothing above it: who hears of a commit, who decides for the computers, and when the
service was down."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

from domino_api import engine
from domino_api.engine import table as tables


class Committed(NamedTuple):
    """A committed step of one match: the seq it reached and the events it made (in seq order,
    as stored at `at`), and the table it left (None: only its seq is known). The process's own
    sockets are sent these; other processes read them; read models follow them (`Follows`)."""

    match_id: str
    seq: int
    events: Sequence[tables.Staged]
    at: datetime
    table: tables.Table | None = None


class Announces(Protocol):
    """The announcer of realtime/announce.py, as the write core uses it."""

    async def announce_committed(self, steps: Sequence[Committed]) -> None:
        """After the commit: hand each step to this process's sockets, and announce it to the
        others; returns at once and never raises."""

    async def announce_visibility(self, match_id: str) -> None:
        """After a committed mute or unmute: who sees the match's talk as what changed."""

    async def announce_lobby(self) -> None:
        """After a commit that stored lobby events: every process's lobby feed reads them."""


class Follows(Protocol):
    """A read model that follows committed steps (the lobby: lobby/follower.py)."""

    def follow(self, steps: Sequence[Committed]) -> None:
        """After the commit and its announcement: take note of the steps; returns at once and
        never raises (the work, if any, is the read model's own task)."""


# (strategy, the seat's view, seed) -> (action, reason): bots/computers.Computers.choose.
Decide = Callable[[str, engine.SeatView, str], Awaitable[tuple[engine.Action, str]]]
# The service's outages, read when due: jobs/liveness.py.
OutagesOf = Callable[[], Awaitable[tables.Outages]]
# What the service could see, read before a step that may find a holder gone: jobs/witness.py.
WitnessOf = Callable[[], Awaitable[tables.Witness]]


async def always_witnessed() -> tables.Witness:
    """A process with no presence loop (an in-process test app): the clock alone decides."""
    return tables.Witness()
