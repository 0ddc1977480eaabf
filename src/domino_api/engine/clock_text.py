"""Moments as the contract writes them: ISO 8601 in UTC, `Z` for +00:00 (one spelling for the
view, the events and the ledger)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import overload


@overload
def iso(moment: datetime) -> str: ...
@overload
def iso(moment: datetime | None) -> str | None: ...
def iso(moment: datetime | None) -> str | None:
    if not moment:
        return None
    return _text(moment, moment.utcoffset())


# A step stamps each of its events with the same moment: the last moments' texts are kept
# (isoformat takes several microseconds, a few times per move). A pure function's cache, no
# state of the app's; the offset is part of the key, as one instant in two zones is equal.
@lru_cache(maxsize=8)
def _text(moment: datetime, offset: timedelta | None) -> str:
    return moment.isoformat().replace("+00:00", "Z")
