"""The one injectable clock: tests advance time instead of sleeping."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta


class Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """Seconds for measuring how long ago something was (never moves back)."""
        return time.monotonic()


class FakeClock(Clock):
    """A clock that moves only when told to (tests, simulations)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def monotonic(self) -> float:
        return self._now.timestamp()

    def advance(self, seconds: float) -> datetime:
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, moment: datetime) -> None:
        self._now = moment
