"""A per-address sliding-window limiter for joining by code and creating players.

It lives in process memory: each API process limits on its own, which bounds brute force of
4-digit codes to (processes x limit) guesses per window; operators size the limit with that.
"""

from __future__ import annotations

import math
from collections import deque

from domino_api.errors import RateLimited


class RateLimiter:
    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._hits: dict[str, deque[float]] = {}

    def check(self, key: str, now: float) -> None:
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.window_s:
            hits.popleft()
        if len(hits) >= self.limit:
            retry = max(1, math.ceil(hits[0] + self.window_s - now))
            raise RateLimited(
                f"At most {self.limit} requests per {self.window_s:g} s from one address.",
                retry_after=retry,
            )
        hits.append(now)
        if len(self._hits) > 100_000:  # forget idle addresses so memory stays bounded
            self._hits = {k: v for k, v in self._hits.items() if v}
