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
    return moment.isoformat().replace("+00:00", "Z") if moment else None
