"""Presence in the database: a seat is connected while any of its sockets, or a request about
the match, was seen within the lease (docs/ARCHITECTURE.md, "Presence").

The lease lives in the seats table (`connected_until` for sockets, `last_seen_at` for requests),
so it is right across server processes and when a process dies: each process extends the leases
of the seats its sockets hold (`hold_leases`: one statement per batch of seats for the ones
connected, which touches only their marks; a step of the write core for a seat that comes
back), a request marks its seats seen (matches/unit.py), and whoever
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
# Seats one renewal statement extends.
RENEW_BATCH = 1000


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
    still holds it: the connected ones by one statement per `RENEW_BATCH` seats that touches
    only their lease marks (no match is read, none's version moves; this process's copies
    take the new marks); the rest (a seat that had lapsed is announced back, `Connect`) as
    steps of the write core."""
    seats = sorted(set(held))
    now, renewed = core.clock.now(), set[tuple[str, int]]()
    for start in range(0, len(seats), RENEW_BATCH):
        async with core.pool.acquire() as connection:
            rows = await presence_repo.renew_leases(
                connection, seats[start : start + RENEW_BATCH], now, lease_s
            )
        core.renewed(rows, now)
        renewed.update((match_id, seat) for match_id, seat, _ in rows)
    await _connect_steps(core, [h for h in seats if (h[0], h[1]) not in renewed], lease_s)


async def _connect_steps(core: Core, held: list[HeldSeat], lease_s: float) -> None:
    """`Connect` steps for seats the renewal left (their matches read together)."""
    by_player: dict[tuple[str, str], list[int]] = {}
    for match_id, seat, player_id in held:
        by_player.setdefault((match_id, player_id), []).append(seat)
    commands: dict[str, list[tables.Command]] = {}
    for (match_id, player_id), numbers in by_player.items():
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
