"""What the service could see: a seat's holder is away only when the service could have seen
them and did not (issue 48). Time in which no process could write (PostgreSQL stopped or
frozen, a process's loop stalled) does not age a lease.

The service (jobs/witness.py) hands each step that may find a holder gone a `Witness`:

- `looked`: every API process that may hold sockets has renewed its sockets' leases at or after
  this moment (each records when it did, after renewing: a lease that ran out before `looked`
  was not renewed by anyone who could). A socket's lease that ran out later is still held: the
  process holding that socket has not looked since, whatever the clock says.
- `since`: the start of the service's current unbroken watch (no process missed a renewal
  since). A request's sighting counts only the time after it: an outage gives every sighting
  made before it a fresh lease from the end of the outage, but for a seat whose lapse was
  recorded (seats.py `holder_present`): a watch that starts again after a late pass must not
  bring back a holder the table already shows away.

`Witness()` (both None) is a service that always watched: the clock alone decides, as in a
process with no presence loop (tests of the engine, a single in-process app).
"""

from __future__ import annotations

from datetime import datetime

from msgspec import Struct


class Witness(Struct, frozen=True):
    looked: datetime | None = None
    since: datetime | None = None

    def socket_held(self, until: datetime | None, now: datetime) -> bool:
        """A socket's lease running to `until` still holds the seat: it has not run out, or
        some process that may hold that socket has not looked since it did."""
        if until is None:
            return False
        return until > now or (self.looked is not None and until > self.looked)

    def watched_since(self, moment: datetime) -> datetime:
        """From when the time after `moment` counts: the later of it and the watch's start."""
        return moment if self.since is None or self.since <= moment else self.since


ALWAYS = Witness()
