"""An API process's sweep pass (`only_if_due`, jobs/loop.py): one read of the earliest due
moment, and nothing more while nothing is due; at the moment itself the pass enforces it as a
full pass does, and the loop's next pass is timed to a due moment nearer than its interval."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
from prometheus_client import REGISTRY

from domino_api.clock import FakeClock
from domino_api.jobs.loop import MIN_WAIT_S, _until_next
from domino_api.jobs.report import PassReport
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import view
from tests.jobs.factory import BLITZ, parse, two_seat_match

TICK = timedelta(microseconds=1)


async def test_before_the_deadline_the_pass_reads_only_the_earliest_due_moment(
    client: httpx.AsyncClient, clock: FakeClock, core: Any
) -> None:
    _, _, v = await two_seat_match(client, options=BLITZ)
    deadline = parse(v["turn"]["deadline"])
    clock.set(deadline - TICK)
    passes = _passes()
    report = await sweep_pass(core, expire_presence=False, only_if_due=True)
    assert report.outcomes == [] and report.held_since is None
    assert report.next_due == deadline
    # Counted as a pass: an idle sweeper's passes still rise (docs/OPERATING.md, its alert).
    assert _passes() == passes + 1


async def test_at_the_deadline_the_pass_forfeits_as_a_full_one(
    client: httpx.AsyncClient, clock: FakeClock, core: Any
) -> None:
    ana, _, v = await two_seat_match(client, options=BLITZ)
    clock.set(parse(v["turn"]["deadline"]))
    report = await sweep_pass(core, expire_presence=False, only_if_due=True)
    assert [o.action for o in report.outcomes] == ["forfeit"]
    assert report.next_due is None  # a pass that ran looks no further ahead
    assert (await view(client, ana, v["id"]))["status"] == "finished"


async def test_with_no_match_the_pass_finds_nothing_ahead(clock: FakeClock, core: Any) -> None:
    report = await sweep_pass(core, expire_presence=False, only_if_due=True)
    assert report.outcomes == [] and report.next_due is None


def test_the_next_pass_comes_at_a_nearer_due_moment(clock: FakeClock) -> None:
    now = clock.now()
    soon = PassReport(now=now, next_due=now + timedelta(seconds=0.2))
    assert _until_next(soon, 0.5) == 0.2
    later = PassReport(now=now, next_due=now + timedelta(seconds=30))
    assert _until_next(later, 0.5) == 0.5
    assert _until_next(PassReport(now=now), 0.5) == 0.5  # a pass that ran, or nothing ahead
    # A due moment a microsecond ahead: the next pass comes after the shortest wait.
    imminent = PassReport(now=now, next_due=now + TICK)
    assert _until_next(imminent, 0.5) == MIN_WAIT_S


def _passes() -> float:
    return REGISTRY.get_sample_value("domino_sweeper_passes_total") or 0.0
