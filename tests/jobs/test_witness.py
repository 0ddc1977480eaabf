"""What the service could see (jobs/witness.py, engine/table/witness.py, issue 48): a lease runs
out only in time a process could have renewed it, and a process gone silent while others
watched stops holding its sockets' seats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domino_api.engine.table import Witness
from domino_api.engine.table.model import Seat
from domino_api.engine.table.seats import holder_present
from domino_api.jobs.witness import witness_from

T0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
REFRESH_S = 10.0
LEASE_S = 30.0


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def seat(until: float | None = None, seen: float | None = None, away: float | None = None) -> Seat:
    """A held seat; `away`: its lapse recorded then (not connected since)."""
    return Seat(
        seat=1,
        type="human",
        player_id="v",
        connected=away is None,
        connected_until=None if until is None else at(until),
        last_seen_at=None if seen is None else at(seen),
        away_since=None if away is None else at(away),
    )


def test_a_socket_lease_holds_until_its_process_has_looked_since_it_ran_out() -> None:
    held = seat(until=30, seen=0)
    # The database was away from 5 to 45: nobody has looked since 0.
    assert holder_present(held, at(46), LEASE_S, Witness(looked=at(0), since=at(46)))
    # Every process looked after the lease ran out and renewed nothing: gone.
    assert not holder_present(held, at(46), LEASE_S, Witness(looked=at(31), since=at(0)))
    # Without a witness (no presence loop), the clock alone decides, as before.
    assert not holder_present(held, at(46), LEASE_S, Witness())


def test_a_requests_sighting_counts_only_watched_time() -> None:
    seen = seat(seen=0)
    assert holder_present(seen, at(50), LEASE_S, Witness(since=at(45)))
    assert not holder_present(seen, at(76), LEASE_S, Witness(since=at(45)))
    assert not holder_present(seen, at(31), LEASE_S, Witness(since=at(-5)))


def test_a_recorded_lapse_stands_when_the_watch_starts_again() -> None:
    # The watch started again at 45 (a pass came late): a sighting at 0 whose lapse nobody
    # recorded counts from 45, but one recorded away at 30 stays away until seen again.
    again = Witness(looked=at(45), since=at(45))
    assert holder_present(seat(until=10, seen=0), at(50), LEASE_S, again)
    assert not holder_present(seat(until=10, seen=0, away=30), at(50), LEASE_S, again)


def test_after_an_outage_nobody_watching_means_nothing_lapses() -> None:
    # (started, witnessed, watching since, stopped): both processes' last pass at 0.
    rows = ((at(-100), at(0), at(-100), None), (at(-100), at(1), at(-90), None))
    witness = witness_from(rows, at(45), REFRESH_S)
    assert witness.since == at(45) and witness.looked == at(0)
    assert holder_present(seat(until=30, seen=0), at(45), LEASE_S, witness)


def test_a_process_silent_while_others_watched_is_gone() -> None:
    crashed = (at(-100), at(0), at(-100), None)
    watching = (at(-100), at(50), at(-100), None)
    stopped = (at(-200), at(-150), at(-200), at(-140))
    witness = witness_from((crashed, watching, stopped), at(50), REFRESH_S)
    assert witness.looked == at(50) and witness.since == at(-100)
    assert not holder_present(seat(until=30), at(50), LEASE_S, witness)
    # Silent for less than three refreshes of watching: it may still hold its sockets.
    early = witness_from((crashed, (at(-100), at(25), at(-100), None)), at(25), REFRESH_S)
    assert early.looked == at(0)
    assert holder_present(seat(until=20), at(25), LEASE_S, early)
