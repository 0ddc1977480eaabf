"""A test-only fault around a real announcer: the process dies after a step's commit and before
its announcement (tests/realtime/test_lost_announcement.py holds the repair of that loss)."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from domino_api.config import Settings
from domino_api.matches.ports import Committed

if TYPE_CHECKING:
    from domino_api.realtime.announce import Announcer, LocalDelivery, LocalVisibility

log = logging.getLogger(__name__)

# Test-only fault (tests/realtime/test_lost_announcement.py), `Settings.fault_kill_before_announce`
# (this variable): while the file it names exists, the process SIGKILLs itself after a step's
# commit and before its announcement. Nothing else can put a real crash at that exact point, and
# the repair of exactly that loss is what is tested.
FAULT_ENV = "DOMINO_FAULT_KILL_BEFORE_ANNOUNCE"


class KillBeforeAnnounce:
    """The test-only fault of `FAULT_ENV` around a real announcer: called after a commit, it
    kills the process before the announcement is even queued."""

    def __init__(self, inner: Announcer, armed_path: str) -> None:
        self._inner = inner
        self._armed_path = armed_path

    async def start(self) -> None:
        await self._inner.start()

    async def close(self) -> None:
        await self._inner.close()

    def deliver_locally(
        self, hook: LocalDelivery | None, visibility: LocalVisibility | None = None
    ) -> None:
        self._inner.deliver_locally(hook, visibility)

    async def announce_visibility(self, match_id: str) -> None:
        await self._inner.announce_visibility(match_id)

    async def announce_lobby(self) -> None:
        await self._inner.announce_lobby()

    async def announce(self, match_id: str, seq: int) -> None:
        self._maybe_die(match_id, seq)
        await self._inner.announce(match_id, seq)

    async def announce_many(self, steps: Iterable[tuple[str, int]]) -> None:
        steps = list(steps)
        if steps:
            self._maybe_die(*steps[0])
        await self._inner.announce_many(steps)

    async def announce_committed(self, steps: Sequence[Committed]) -> None:
        if steps:
            self._maybe_die(steps[0].match_id, steps[0].seq)
        await self._inner.announce_committed(steps)

    async def announce_tournament(self, tournament_id: str, seq: int) -> None:
        # The fault is about a match's step; its tournament's feed is announced as usual.
        await self._inner.announce_tournament(tournament_id, seq)

    async def announce_revoked(self, token_hash: str) -> None:
        await self._inner.announce_revoked(token_hash)

    def _maybe_die(self, match_id: str, seq: int) -> None:
        if os.path.exists(self._armed_path):
            log.warning("fault: killed after the commit of %s:%s, before announcing", match_id, seq)
            os.kill(os.getpid(), signal.SIGKILL)


def with_fault(announcer: Announcer, settings: Settings) -> Announcer:
    """`announcer`, inside the fault when `Settings.fault_kill_before_announce` arms it."""
    armed = settings.fault_kill_before_announce
    return KillBeforeAnnounce(announcer, armed) if armed else announcer
