"""Moments as the contract writes them: ISO 8601 in UTC, `Z` for +00:00 (one spelling for the
view, the events and the ledger)."""

from __future__ import annotations

from datetime import datetime
from typing import overload


@overload
def iso(moment: datetime) -> str: ...
@overload
def iso(moment: datetime | None) -> str | None: ...
def iso(moment: datetime | None) -> str | None:
    if not moment:
        return None
    # A step stamps each of its events with the same moment: the last one's text is kept
    # (isoformat takes several microseconds, a few times per move).
    # Read once into a local: another thread may replace it meanwhile.
    global _last
    last = _last
    if last[0] != moment or last[0].tzinfo is not moment.tzinfo:
        last = _last = (moment, moment.isoformat().replace("+00:00", "Z"))
    return last[1]


_last: tuple[datetime, str] = (datetime.min, datetime.min.isoformat())
