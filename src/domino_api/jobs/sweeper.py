"""The sweeper: one pass applies everything due (RULES 10, API.md abandonment) to every match.

Each match is claimed and handled in its own transaction, through the same `timeouts.enforce`
a request runs: `SELECT ... WHERE due_at <= now ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
then the write path, then commit. A few claimers run side by side on separate connections and
any number of sweepers may run at once: a locked match (a move in flight, another sweeper) is
skipped, and a match claimed after someone else handled it is simply no longer due.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api import metrics
from domino_api.clock import Clock
from domino_api.jobs import liveness
from domino_api.matches import timeouts
from domino_api.matches.table import Table, load, table_of
from domino_api.store.db import transaction
from domino_api.store.models import Match

log = logging.getLogger(__name__)

# A match whose handling failed is left alone this long (the error is logged and reported).
RETRY_AFTER = timedelta(seconds=60)
CONCURRENCY = 4

ACTIONS = {
    "clock": "forfeit",
    "away": "forfeit",
    "away_tie": "abandon",
    "abandon_waiting": "abandon",
    "abandon_absent": "abandon",
    "next_hand": "next_hand",
    "check_in": "check_in",
}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


@dataclass
class Outcome:
    """What one pass did (or, dry, would do) to one match."""

    match_id: str
    code: str | None
    ruleset: str
    action: str  # forfeit | abandon | next_hand | check_in | extend | none | error
    detail: str
    due: str | None = None  # the Due kind found first
    seat: int | None = None
    due_at: datetime | None = None  # when it fell due
    events: int = 0
    status: str = ""

    def line(self) -> str:
        events = f"{self.events} event{'s' if self.events != 1 else ''}"
        tail = f"({events}, now {self.status})" if self.status else ""
        return f"{self.match_id}  {self.code or '----'}  {self.ruleset:<11}  {self.detail}  {tail}"

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "code": self.code,
            "ruleset": self.ruleset,
            "action": self.action,
            "due": self.due,
            "seat": self.seat,
            "due_at": _iso(self.due_at),
            "detail": self.detail,
            "events": self.events,
            "status": self.status,
        }


@dataclass
class PassReport:
    now: datetime
    dry_run: bool = False
    outcomes: list[Outcome] = field(default_factory=list)
    presence_expired: int = 0
    presence_available: bool = False
    held_since: datetime | None = None
    elapsed_s: float = 0.0

    def counts(self) -> dict[str, int]:
        counted = Counter(o.action for o in self.outcomes)
        causes = Counter(o.due for o in self.outcomes if o.action == "forfeit")
        return {
            "matches": len(self.outcomes),
            "forfeits": counted["forfeit"],
            "clock": causes["clock"],
            "away": causes["away"],
            "abandoned": counted["abandon"],
            "next_hands": counted["next_hand"],
            "check_ins": counted["check_in"],
            "extended": counted["extend"],
            "nothing_due": counted["none"],
            "errors": counted["error"],
            "events": sum(o.events for o in self.outcomes),
        }

    def rate(self) -> float:
        return len(self.outcomes) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def summary_line(self) -> str:
        if self.held_since is not None:
            return (
                f"sweep held: no API process alive since {_iso(self.held_since)}; "
                "deadlines wait for the service to come back"
            )
        c = self.counts()
        verb = "would sweep" if self.dry_run else "swept"
        if self.dry_run:
            presence = "not run (dry run)"
        elif self.presence_available:
            presence = f"{self.presence_expired} seats disconnected"
        else:
            presence = "expiry not available"
        return (
            f"{verb} {c['matches']} matches: {c['forfeits']} forfeits ({c['clock']} clock, "
            f"{c['away']} away), {c['abandoned']} abandoned, {c['next_hands']} next hands, "
            f"{c['check_ins']} check-ins, {c['extended']} extended (outage), "
            f"{c['nothing_due']} nothing due, {c['errors']} errors; presence: {presence}; "
            f"{self.elapsed_s:.2f} s ({self.rate():.0f} matches/s)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "now": _iso(self.now),
            "held_since": _iso(self.held_since),
            "matches": [o.to_json() for o in self.outcomes],
            "summary": {
                **self.counts(),
                "presence_expired": self.presence_expired if self.presence_available else None,
                "elapsed_s": round(self.elapsed_s, 4),
                "matches_per_s": round(self.rate(), 1),
            },
        }


# ---------------------------------------------------------------- one pass


async def sweep_pass(
    maker: async_sessionmaker[AsyncSession],
    clock: Clock,
    *,
    dry_run: bool = False,
    concurrency: int = CONCURRENCY,
    limit: int | None = None,
) -> PassReport:
    """Apply (or with `dry_run` list) everything due now; one transaction per match."""
    started = time.perf_counter()
    now = clock.now()
    report = PassReport(now=now, dry_run=dry_run)
    async with transaction(maker) as session:
        report.held_since = await liveness.api_down_since(session, now)
        lifetimes = await liveness.lifetimes(session)
    if report.held_since is None:
        if dry_run:
            report.outcomes = await _plan(maker, now, limit, lifetimes)
        else:
            await _expire_presence(maker, clock, now, report)
            report.outcomes = await _sweep_due(maker, clock, now, concurrency, limit, lifetimes)
    report.elapsed_s = time.perf_counter() - started
    if not dry_run:
        _count(report)
    return report


def _count(report: PassReport) -> None:
    """Feed the operator metrics (GET /metrics; the worker's --metrics-port)."""
    actions = [outcome.action for outcome in report.outcomes]
    metrics.sweep_pass(
        actions.count("forfeit"), abandoned=actions.count("abandon"), seconds=report.elapsed_s
    )
    for _ in range(actions.count("error")):
        metrics.sweep_failed()


async def _expire_presence(
    maker: async_sessionmaker[AsyncSession], clock: Clock, now: datetime, report: PassReport
) -> None:
    try:
        from domino_api.matches.presence import expire_presence
    except ImportError:  # presence lands separately; the sweep works without it
        return
    report.presence_available = True
    async with transaction(maker) as session:
        expired = await expire_presence(session, clock, now)
    report.presence_expired = len(expired)


async def _sweep_due(
    maker: async_sessionmaker[AsyncSession],
    clock: Clock,
    now: datetime,
    concurrency: int,
    limit: int | None,
    lifetimes: liveness.Lifetimes | None = None,
) -> list[Outcome]:
    outcomes: list[Outcome] = []
    budget = [limit if limit is not None else -1]

    async def claimer() -> None:
        # One connection per claimer for the whole pass; still one transaction per match.
        async with maker() as session:
            while budget[0] != 0:
                budget[0] -= 1
                outcome = await sweep_one(session, clock, now, lifetimes)
                if outcome is None:
                    return
                outcomes.append(outcome)

    await asyncio.gather(*(claimer() for _ in range(max(1, concurrency))))
    return outcomes


async def _claim(session: AsyncSession, now: datetime) -> Match | None:
    """The most overdue match nobody holds, locked for this transaction."""
    stmt = (
        select(Match)
        .where(Match.due_at <= now)
        .order_by(Match.due_at)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    found: Match | None = (await session.execute(stmt)).scalar_one_or_none()
    return found


async def sweep_one(
    session: AsyncSession,
    clock: Clock,
    now: datetime,
    lifetimes: liveness.Lifetimes | None = None,
) -> Outcome | None:
    """In one transaction: claim the most overdue match nobody holds and enforce what is due.

    None when no due match is left. A failure rolls the match back, is logged, and leaves the
    match alone for RETRY_AFTER so one bad match cannot stall the pass.
    """
    claimed: str | None = None
    try:
        async with session.begin():
            match = await _claim(session, now)
            if match is None:
                return None
            claimed = match.id
            table = await table_of(session, match)
            return await _enforce(session, clock, table, now, lifetimes)
    except Exception as exc:
        if claimed is None:
            raise
        log.exception("sweeping match %s failed", claimed)
        async with session.begin():
            retry = clock.now() + RETRY_AFTER
            await session.execute(update(Match).where(Match.id == claimed).values(due_at=retry))
        return Outcome(claimed, None, "", "error", f"error: {type(exc).__name__}: {exc}"[:300])
    finally:
        session.expunge_all()  # the next match starts from a clean identity map


async def _enforce(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    now: datetime,
    lifetimes: liveness.Lifetimes | None,
) -> Outcome:
    match = table.match
    due = timeouts.next_due(table, clock.now())
    rows = await timeouts.enforce(session, clock, table, lifetimes)
    outcome = Outcome(match.id, match.code, match.ruleset, "none", "nothing due", events=len(rows))
    outcome.status = table.state.status
    if due is not None:
        outcome.due, outcome.seat, outcome.due_at = due.kind, due.seat, due.moment
        outcome.action, outcome.detail = ACTIONS[due.kind], due.describe()
        if not rows and due.kind in ("clock", "away", "away_tie") and not table.over:
            outcome.action = "extend"
            moved = match.turn_deadline if due.kind == "clock" else match.outage_grace_until
            outcome.detail = f"outage: {due.kind} deadline moved to {_iso(moved)}"
    else:
        outcome.detail = f"nothing due; next at {_iso(match.due_at)}"
    if match.due_at is not None and match.due_at <= now:
        # Nothing could be done about it now: keep the pass (and the next ones) moving.
        log.warning("match %s stays due after enforce; retried later", match.id)
        match.due_at = clock.now() + RETRY_AFTER
    return outcome


async def _plan(
    maker: async_sessionmaker[AsyncSession],
    now: datetime,
    limit: int | None,
    lifetimes: liveness.Lifetimes,
) -> list[Outcome]:
    """Dry run: what a pass would do, read without locks; nothing is written."""
    outcomes: list[Outcome] = []
    async with maker() as session:
        stmt = select(Match.id).where(Match.due_at <= now).order_by(Match.due_at)
        if limit is not None:
            stmt = stmt.limit(limit)
        for match_id in list((await session.execute(stmt)).scalars()):
            table = await load(session, match_id, for_update=False)
            outcomes.append(await _describe(session, table, now, lifetimes))
        await session.rollback()
    return outcomes


async def _describe(
    session: AsyncSession, table: Table, now: datetime, lifetimes: liveness.Lifetimes
) -> Outcome:
    match = table.match
    due = timeouts.next_due(table, now)
    outcome = Outcome(match.id, match.code, match.ruleset, "none", "nothing due")
    outcome.status = table.state.status
    if due is None:
        return outcome
    outcome.due, outcome.seat, outcome.due_at = due.kind, due.seat, due.moment
    outcome.action, outcome.detail = ACTIONS[due.kind], f"would {due.describe()}"
    if due.kind in ("clock", "away", "away_tie"):
        extended = await timeouts.outage_extension(session, table, due, lifetimes)
        if extended is not None and extended > due.moment:
            outcome.action = "extend"
            outcome.detail = f"would move the {due.kind} deadline to {_iso(extended)} (outage)"
    return outcome


# ---------------------------------------------------------------- the worker


async def run_worker(
    maker: async_sessionmaker[AsyncSession],
    clock: Clock,
    interval_s: float,
    stop: asyncio.Event,
    on_report: Any = None,
    concurrency: int = CONCURRENCY,
) -> int:
    """Sweep every `interval_s` until `stop` is set; the pass under way always finishes."""
    passes = 0
    heartbeat = liveness.Heartbeat(maker, clock, kind=liveness.WORKER)
    await heartbeat.start()
    try:
        while not stop.is_set():
            report = await sweep_pass(maker, clock, concurrency=concurrency)
            passes += 1
            if on_report is not None:
                on_report(report)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval_s)
    finally:
        await heartbeat.stop()
    return passes
