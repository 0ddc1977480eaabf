"""The sweeper: one pass applies everything due (RULES 10, API.md abandonment) to every match.

Matches are claimed in batches, `SELECT ... WHERE due_at <= now ORDER BY due_at LIMIT n FOR
UPDATE SKIP LOCKED`, and each goes through the same `timeouts.enforce` a request runs; the
batch's writes (match rows with their NOTIFYs, events, finishes and records) are then issued
together, one statement each, and the batch commits once (see `sweep_batch`). A match whose
handling needs more than those writes (a tournament hook, an error) is handed back and handled
alone in its own transaction, as every match used to be. A few claimers run side by side on
separate connections and any number of sweepers may run at once: a locked match (a move in
flight, another sweeper) is skipped, and a match claimed after someone else handled it is
simply no longer due.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Insert, TextClause, Update, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api import engine, metrics
from domino_api.clock import Clock
from domino_api.jobs import liveness
from domino_api.matches import timeouts
from domino_api.matches.table import Table, table_of
from domino_api.players import records
from domino_api.store import matches_repo, sweep_repo
from domino_api.store.db import transaction
from domino_api.store.matches_repo import EVENTS, MATCHES, SessionStandIn
from domino_api.store.models import Match, Seat
from domino_api.store.sweep_repo import SEATS

log = logging.getLogger(__name__)

# A match whose handling failed is left alone this long (the error is logged and reported).
RETRY_AFTER = timedelta(seconds=60)
CONCURRENCY = 4
# Matches claimed and committed together: one statement per kind of write for the whole batch.
BATCH = 200
MATCH_COLUMNS = tuple(column.key for column in MATCHES.columns)
SEAT_COLUMNS = tuple(column.key for column in SEATS.columns)

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
    batch: int = BATCH,
) -> PassReport:
    """Apply (or with `dry_run` list) everything due now; one transaction per `batch` matches."""
    started = time.perf_counter()
    now = clock.now()
    report = PassReport(now=now, dry_run=dry_run)
    async with transaction(maker) as session:
        report.held_since = await liveness.api_down_since(session, now)
        lifetimes = await liveness.lifetimes(session)
    if report.held_since is None:
        if dry_run:
            report.outcomes = await _plan(maker, now, limit, lifetimes, batch)
        else:
            await _expire_presence(maker, clock, now, report)
            with _rare_full_collections():
                report.outcomes = await _sweep_due(
                    maker, clock, now, concurrency, limit, lifetimes, batch
                )
    report.elapsed_s = time.perf_counter() - started
    if not dry_run:
        _count(report)
    return report


@contextlib.contextmanager
def _rare_full_collections() -> Iterator[None]:
    """Make the garbage collector's full collections rare while a pass runs.

    A batch keeps its rows, snapshots and events alive until it commits, so they survive the
    young collections and soon trigger a full one, which walks the whole heap (~100-180 ms
    in a process that has imported the service). Measured on 4,000 due matches with the
    default thresholds: 9 full collections took 1.6 s of the pass's 2.5 s of CPU. With a full
    collection after 300 middle ones instead of 10 (about every 14,000 matches swept), the
    cyclic garbage left meanwhile (~1.7 KB per match, the ORM's attribute states) stays
    bounded at some 25 MB. The process's own thresholds come back when the pass ends.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], max(thresholds[2], 300))
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


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
    batch: int = BATCH,
) -> list[Outcome]:
    outcomes: list[Outcome] = []
    budget = [limit if limit is not None else -1]  # -1: no limit

    async def claimer() -> None:
        # One connection per claimer for the whole pass; one transaction per batch.
        async with maker() as session:
            while budget[0] != 0:
                size = batch if budget[0] < 0 else min(batch, budget[0])
                if budget[0] > 0:
                    budget[0] -= size  # reserved before the await: claimers share the budget
                claimed, done = await sweep_batch(session, clock, now, size, lifetimes)
                if budget[0] >= 0:
                    budget[0] += size - claimed  # give back what was not claimed
                outcomes.extend(done)
                if claimed < size:
                    return  # nothing else is due, or what is due is held by others

    await asyncio.gather(*(claimer() for _ in range(max(1, concurrency))))
    return outcomes


class _Alone(Exception):
    """The match needs more than a batch can defer: it is handled on its own."""


class _StandIn(SessionStandIn):
    """Takes the session's place while the one write path handles one match of a batch.

    The write path writes a step as the match row, its events and a NOTIFY (matches/table.py
    `flush`), plus the seats at `session.flush()` and the finishes (players/records.py). Here
    those writes are let through without a round trip each: `sweep_batch` writes every row
    the batch changed, every event and every finish once for the batch, from what the write
    path left in memory (the rows) and returned (the events). Anything else that needs the
    database (a read, a tournament hook) raises `_Alone` before anything of the match is
    written, and the match is then handled alone.
    """

    # No driver connection to offer: the write path then uses `execute` (store/matches_repo).
    driver_connection = None

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.info: dict[str, Any] = {records.BATCHED: []}

    @property
    def finishes(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.info[records.BATCHED]
        return rows

    async def execute(self, statement: Any, params: Any = None) -> None:
        if not self._ours(statement, params):
            raise _Alone(f"not deferred: {str(statement)[:80]!r}")

    def _ours(self, statement: Any, params: Any) -> bool:
        """A write of this match's row, its events or its NOTIFY: the batch writes those."""
        if isinstance(statement, Update) and statement.table is MATCHES:
            return isinstance(params, dict) and self.match_id in params.values()
        if isinstance(statement, Insert) and statement.table is EVENTS:
            return isinstance(params, list) and all(r["match_id"] == self.match_id for r in params)
        if isinstance(statement, TextClause) and "pg_notify(" in statement.text:
            return isinstance(params, dict) and f"{self.match_id}:" in str(params.get("payload"))
        return False

    async def flush(self) -> None:
        """Changed seats are written by the batch."""

    def __getattr__(self, name: str) -> Any:
        raise _Alone(f"session.{name} is not deferred")


def _values(row: Any, columns: tuple[str, ...]) -> dict[str, Any]:
    state = row.__dict__
    return {name: state.get(name) for name in columns}


def _changed(row: Any, before: dict[str, Any]) -> dict[str, Any]:
    """The columns changed on a row since `before` was taken (compared as values)."""
    state = row.__dict__
    changes = {}
    for name, old in before.items():
        new = state.get(name)
        if new is not old and new != old:
            changes[name] = new
    return changes


@dataclass
class _BatchWrites:
    """Everything a batch's matches changed, written with one statement per kind."""

    matches: list[tuple[str, dict[str, Any], str | None]] = field(default_factory=list)
    seats: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    finishes: list[dict[str, Any]] = field(default_factory=list)

    async def enforce(
        self,
        clock: Clock,
        match: Match,
        seats: list[Seat],
        now: datetime,
        lifetimes: liveness.Lifetimes | None,
    ) -> Outcome:
        """Enforce what is due on one claimed match, its writes kept for `write`.

        Raises (`_Alone` or the error) with nothing of the match kept.
        """
        table = _table(match, seats)
        before = _values(match, MATCH_COLUMNS)
        seats_before = [_values(seat, SEAT_COLUMNS) for seat in seats]
        stand_in = _StandIn(match.id)
        outcome, rows = await _enforce_rows(
            cast(AsyncSession, stand_in), clock, table, now, lifetimes
        )
        # As the write path announces a step: `match_id:seq`, sent by PostgreSQL at commit.
        payload = f"{match.id}:{table.state.seq}" if rows else None
        self.matches.append((match.id, _changed(match, before), payload))
        for seat, old in zip(seats, seats_before, strict=True):
            self.seats.append((seat.match_id, seat.seat, _changed(seat, old)))
        self.events += rows
        self.finishes += stand_in.finishes
        return outcome

    async def write(self, session: AsyncSession) -> None:
        await sweep_repo.write_matches(session, self.matches)
        await sweep_repo.write_seats(session, self.seats)
        await matches_repo.insert_events(session, self.events)
        await records.write_finishes(session, self.finishes)


async def sweep_batch(
    session: AsyncSession,
    clock: Clock,
    now: datetime,
    size: int,
    lifetimes: liveness.Lifetimes | None = None,
) -> tuple[int, list[Outcome]]:
    """In one transaction: claim up to `size` due matches, enforce what is due, commit once.

    Returns how many matches were claimed and the outcomes. Each match goes through the same
    `timeouts.enforce` a request runs, with a `_StandIn` for the session; then the batch
    writes every changed match row (with its NOTIFY), every changed seat, every event and
    every finish, one statement each, and commits. A match that needs more (`_Alone`, or any
    error) is left out of the batch, and every match of a batch whose writes failed is put
    back; those are then handled one by one (`sweep_one`), each with its own error handling.
    """
    outcomes: list[Outcome] = []
    alone: list[str] = []
    claimed = 0
    try:
        async with session.begin():
            matches = await sweep_repo.claim_due(session, now, size)
            claimed = len(matches)
            seats = await sweep_repo.seats_of(session, [match.id for match in matches])
            writes = _BatchWrites()
            for match in matches:
                try:
                    outcome = await writes.enforce(clock, match, seats[match.id], now, lifetimes)
                except Exception as exc:
                    if not isinstance(exc, _Alone):
                        log.info("match %s is handled alone: %r", match.id, exc)
                    for row in (match, *seats[match.id]):
                        session.expunge(row)  # its changes are dropped, never written
                    alone.append(match.id)
                    continue
                outcomes.append(outcome)
            await writes.write(session)
            # Every change of every row loaded is written: nothing is left for the unit of
            # work to flush at the commit.
            session.expunge_all()
    except Exception:
        if not claimed:
            raise  # the claim itself failed: nothing to retry match by match
        log.exception("a sweep batch failed; its %d matches are handled one by one", claimed)
        alone += [outcome.match_id for outcome in outcomes]
        outcomes = []
    finally:
        session.expunge_all()  # the next batch starts from a clean identity map
    for match_id in alone:
        one = await sweep_one(session, clock, now, lifetimes, match_id=match_id)
        if one is not None:
            outcomes.append(one)
    return claimed, outcomes


async def sweep_one(
    session: AsyncSession,
    clock: Clock,
    now: datetime,
    lifetimes: liveness.Lifetimes | None = None,
    *,
    match_id: str | None = None,
) -> Outcome | None:
    """In one transaction: claim the most overdue match nobody holds (or the given one, if it
    is still due and free) and enforce what is due.

    None when no due match is left. A failure rolls the match back, is logged, and leaves the
    match alone for RETRY_AFTER so one bad match cannot stall the pass.
    """
    claimed: str | None = None
    try:
        async with session.begin():
            if match_id is None:
                found = await sweep_repo.claim_due(session, now, 1)
                match = found[0] if found else None
            else:
                match = await sweep_repo.claim(session, match_id, now)
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
    return (await _enforce_rows(session, clock, table, now, lifetimes))[0]


async def _enforce_rows(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    now: datetime,
    lifetimes: liveness.Lifetimes | None,
) -> tuple[Outcome, list[dict[str, Any]]]:
    """What is due, enforced: the outcome and the event rows stored (or, batched, to store)."""
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
    return outcome, rows


async def _plan(
    maker: async_sessionmaker[AsyncSession],
    now: datetime,
    limit: int | None,
    lifetimes: liveness.Lifetimes,
    batch: int = BATCH,
) -> list[Outcome]:
    """Dry run: what a pass would do, read without locks; nothing is written."""
    outcomes: list[Outcome] = []
    async with maker() as session:
        stmt = select(Match.id).where(Match.due_at <= now).order_by(Match.due_at)
        if limit is not None:
            stmt = stmt.limit(limit)
        due = list((await session.execute(stmt)).scalars())
        for start in range(0, len(due), batch):  # rows and seats read a batch at a time
            matches = await sweep_repo.matches_by_ids(session, due[start : start + batch])
            seats = await sweep_repo.seats_of(session, due[start : start + batch])
            for match in matches:
                table = _table(match, seats[match.id])
                outcomes.append(await _describe(session, table, now, lifetimes))
            session.expunge_all()
        await session.rollback()
    return outcomes


def _table(match: Match, seats: list[Seat]) -> Table:
    """The table of a match read with its seats (its snapshot parsed; holders not needed)."""
    return Table(match, seats, engine.from_json(match.snapshot))


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
