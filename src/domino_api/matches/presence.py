"""Presence in the database: a seat is connected while any of its sockets, or a request about
the match, was seen within the lease (docs/ARCHITECTURE.md, "Presence").

The lease lives in the seats table (`connected_until` for sockets, `last_seen_at` for requests),
so it is right across server processes and when a process dies: each process extends the leases
of the seats its sockets hold (`hold_leases`: steps of the write core, its matches read together
and saved 200 to a statement), a request marks its seats seen (matches/unit.py), and whoever
runs `expire_presence` (the recovery job, or any process) records the lapses. The rules that
turn a lease into `seat_connected` and `seat_disconnected` events are the table reducer's
(engine/table/seating.py); the view shows the flag those events set, so a view and the event
stream never disagree. Presence events are steps of the write core, so they never make a move
stale.

A lease runs out only in time the service could see (issue 48): after each pass of renewals
a process records it (jobs/witness.py), and the lapses, like a release, a claim or autopilot,
are decided with the service's `Witness` (engine/table/witness.py), so an outage of the
database never makes a holder whose socket is still open look gone.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from domino_api.engine import table as tables
from domino_api.engine.table import LEASE_S
from domino_api.store import presence_repo
from domino_api.store.db import transaction
from domino_api.store.presence_repo import SeatKey

if TYPE_CHECKING:  # a type only: these are units the write core runs
    from domino_api.matches.unit import Core, Stage


HeldSeat = tuple[str, int, str]  # match, seat, the player whose socket holds it


async def connect_seats(
    core: Core,
    match_id: str,
    seats: Iterable[int],
    lease_s: float = LEASE_S,
    by: str | None = None,
) -> None:
    """Extend the seats' leases (`by`'s seats only, if given) and announce the ones that were
    not connected (a step of the write core)."""
    command = tables.Connect(tuple(seats), lease_s, by)

    def step(stage: Stage) -> None:
        stage.do(command)

    await core.run(match_id, step)


async def hold_leases(core: Core, held: Iterable[HeldSeat], lease_s: float = LEASE_S) -> None:
    """Renew the leases of the seats this process's sockets hold, each only while its player
    still holds it; a seat that had lapsed is announced back (`Connect`)."""
    seats: dict[tuple[str, str], list[int]] = {}
    for match_id, seat, player_id in sorted(set(held)):
        seats.setdefault((match_id, player_id), []).append(seat)
    commands: dict[str, list[tables.Command]] = {}
    for (match_id, player_id), numbers in seats.items():
        connect = tables.Connect(tuple(numbers), lease_s, player_id)
        commands.setdefault(match_id, []).append(connect)
    await core.step_many(commands)


async def expire_presence(core: Core, now: datetime) -> list[SeatKey]:
    """Record `seat_disconnected` for every seat whose lease lapsed, as far as the service
    could see (engine/table/witness.py); returns those seats.

    Safe to run from several processes at once: each match is a step of the write core, which
    re-checks the lapse on the row it saves over (a process that got there first leaves
    nothing to do).
    """
    async with transaction(core.maker) as session:
        found = await presence_repo.lapsed_seats(session, now, core.lease_s)
    if not found:
        return []
    witness = await core.witness()  # the clock's lapses, as far as the service could see

    by_match: dict[str, list[int]] = {}
    for match_id, seat in found:
        by_match.setdefault(match_id, []).append(seat)
    done: list[SeatKey] = []
    for match_id, numbers in by_match.items():

        def step(stage: Stage, numbers: list[int] = numbers) -> list[int]:
            table = stage.table
            lease = core.lease_s
            gone = [n for n in numbers if tables.lapsed(table.seats[n], now, lease, witness)]
            stage.do(tables.Lapse(tuple(gone), lease, witness))
            return gone

        # Presence only: what is due is the sweep's to apply and report (jobs/sweeper.py).
        done += [(match_id, n) for n in await core.run(match_id, step, due_first=False)]
    return done


__all__ = [
    "LEASE_S",
    "connect_seats",
    "expire_presence",
    "hold_leases",
]
