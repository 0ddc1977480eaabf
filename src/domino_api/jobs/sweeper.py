"""The sweeper: one pass applies everything due (RULES 10, docs/API.md abandonment) to every match.

Matches are claimed in batches (`SELECT ... WHERE due_at <= now ORDER BY due_at LIMIT n FOR
UPDATE SKIP LOCKED`, store/matches_repo.claim_due), each is stepped by the table reducer with
the same `Tick` a request runs (engine/table), and the batch is written by the one write driver
(matches/writes.py) in the claim's transaction: every match of the batch, its seats and events
in one guarded statement, the finishes of those that ended (records, tournaments), committed
once and announced after the commit. A match whose turn then passes to a computer is carried in
the same pass: its committed table is the core's copy, and the computers reply to it as a step
of the write core (`Core.run`: bots/computers.py decides outside the batch's locks). A match
whose handling fails is handled alone, as a step of its own.

Several claimers run side by side on separate connections and any number of sweepers (each
API process runs one, as does `domino-api worker`: jobs/loop.py) may run at once: a locked match is
skipped, a step computed elsewhere cannot overwrite a claimed one (its save is guarded by the
row version), and a match handled by someone else first is simply no longer due.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from collections.abc import Iterator
from datetime import datetime, timedelta

from domino_api import engine, metrics
from domino_api.engine import table as tables
from domino_api.engine.clock_text import iso
from domino_api.engine.event_types import ForfeitData, MatchEndedData
from domino_api.engine.table import Stepped, Table
from domino_api.jobs import CONCURRENCY, liveness
from domino_api.jobs.report import ACTIONS, Outcome, PassReport
from domino_api.matches import presence
from domino_api.matches.unit import Core, Stage
from domino_api.matches.writes import Write
from domino_api.store import match_reads
from domino_api.store import matches_repo as repo
from domino_api.store.db import transaction
from domino_api.store.matches_repo import Change, Read

log = logging.getLogger(__name__)

# A match whose handling failed is left alone this long (the error is logged and reported).
RETRY_AFTER = timedelta(seconds=60)
# Matches claimed and committed together: one statement per kind of write for the whole batch.
BATCH = 200

__all__ = ["BATCH", "CONCURRENCY", "RETRY_AFTER", "Outcome", "PassReport", "sweep_pass"]


async def sweep_pass(
    core: Core,
    *,
    dry_run: bool = False,
    concurrency: int = CONCURRENCY,
    limit: int | None = None,
    batch: int = BATCH,
    expire_presence: bool = True,
    only_if_due: bool = False,
) -> PassReport:
    """Apply (or with `dry_run` list) everything due now; one transaction per `batch` matches.

    `expire_presence`: expire lapsed socket leases first (an API process's own loop leaves that to
    its presence refresher, realtime/lifecycle.py, which runs it every few seconds).
    `only_if_due`: first one read of the earliest `due_at`; when nothing is due, the pass ends
    there (presence included) and its report's `next_due` is that moment. Most passes of an
    idle process are such: one statement instead of two transactions (bench/sockets.py)."""
    started = time.perf_counter()
    now = core.clock.now()
    report = PassReport(now=now, dry_run=dry_run)
    if only_if_due:
        async with core.pool.acquire() as connection:
            report.next_due = await repo.earliest_due(connection)
        if report.next_due is None or report.next_due > now:
            report.elapsed_s = time.perf_counter() - started
            _count(report)  # a pass all the same: operators watch the passes rise
            return report
        report.next_due = None
    async with transaction(core.maker) as session:
        report.held_since = await liveness.api_down_since(session, now)
        lifetimes = await liveness.lifetimes(session)
    if report.held_since is None:
        if dry_run:
            report.outcomes = await _plan(core, now, limit, lifetimes)
        else:
            if expire_presence:
                report.presence_available = True
                report.presence_expired = len(await presence.expire_presence(core, now))
            with _rare_full_collections():
                report.outcomes = await _sweep_due(core, now, concurrency, limit, lifetimes, batch)
    report.elapsed_s = time.perf_counter() - started
    if not dry_run:
        _count(report)
    return report


@contextlib.contextmanager
def _rare_full_collections() -> Iterator[None]:
    """Make the garbage collector's full collections rare while a pass runs.

    A batch keeps its rows, snapshots and events alive until it commits, so they survive the
    young collections and soon trigger a full one, which walks the whole heap (~100-180 ms in
    a process that has imported the service; bench/README.md, "Sweep"). The process's own
    thresholds come back when the pass ends.
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


async def _sweep_due(
    core: Core,
    now: datetime,
    concurrency: int,
    limit: int | None,
    lifetimes: liveness.Lifetimes,
    batch: int,
) -> list[Outcome]:
    outcomes: list[Outcome] = []
    budget = [limit if limit is not None else -1]  # -1: no limit

    async def claimer(once: bool = False) -> bool:
        """Claim batches until one comes short; True when it stopped after a full one."""
        while budget[0] != 0:
            size = batch if budget[0] < 0 else min(batch, budget[0])
            if budget[0] > 0:
                budget[0] -= size  # reserved before the await: claimers share the budget
            claimed, done = await sweep_batch(core, now, size, lifetimes)
            if budget[0] >= 0:
                budget[0] += size - claimed  # give back what was not claimed
            outcomes.extend(done)
            if claimed < size:
                return False  # nothing else is due, or what is due is held by others
            if once:
                return True
        return False

    # One claimer first: an idle pass (most passes) is then one claim, not one per claimer
    # (bench/sockets.py, an idle process); a full batch (more may be due) brings them all in.
    if await claimer(once=True):
        await asyncio.gather(*(claimer() for _ in range(max(1, concurrency))))
    return outcomes


async def sweep_batch(
    core: Core,
    now: datetime,
    size: int,
    lifetimes: liveness.Lifetimes,
) -> tuple[int, list[Outcome]]:
    """In one transaction: claim up to `size` due matches, enforce what is due, write, commit.

    Returns how many matches were claimed and the outcomes; the batch's steps are announced
    after the commit (queued: sent in few statements while the next batch is claimed), and the
    computers reply where they have the turn (`_carry`). A match left out of the batch (an
    error) and every match of a batch whose write failed are then handled one by one
    (`sweep_one`), each with its own error handling.
    """
    done: list[tuple[Write, Outcome]] = []
    alone: list[tuple[str, int]] = []  # (match, the version claimed)
    claimed, saved, read_at = 0, {}, core.clock.monotonic()
    try:
        async with core.writer.transaction() as tx:
            reads = await repo.claim_due(tx.connection, now, size)
            claimed = len(reads)
            for read in reads:
                try:
                    before = _table(read)
                    stepped, outcome = enforce(before, now, lifetimes)
                except Exception as exc:
                    log.info("match %s is handled alone: %r", read.info.id, exc)
                    alone.append((read.info.id, read.version))
                    continue
                change = Change(before, stepped.table, read.version, stepped.events, now)
                done.append((Write(change), outcome))
            saved = await tx.write([write for write, _ in done if write.change.changed()])
    except Exception:
        if not claimed:
            raise  # the claim itself failed: nothing to retry match by match
        log.exception("a sweep batch failed; its %d matches are handled one by one", claimed)
        alone += [(write.change.id, write.change.version) for write, _ in done]
        done = []
    outcomes = [outcome for _, outcome in done]
    for write, _ in done:
        change = write.change
        version = saved.get(change.id, change.version)
        if tables.computers_due(change.after):
            core.keep(change.after, version, read_at)
            await _carry(core, change.id, version)
    for match_id, version in alone:
        one = await sweep_one(core, match_id, now, lifetimes, version)
        if one is not None:
            outcomes.append(one)
    for outcome in outcomes:  # committed by now: each line tells what did happen
        _log_ends(outcome)
    return claimed, outcomes


async def _carry(core: Core, match_id: str, version: int) -> None:
    """The computers that have the turn of a match just swept reply, as a step of the write
    core on the table the sweep committed (its copy). One that fails is left due again after
    RETRY_AFTER, so a later pass carries it (its Tick finds nothing else due)."""
    try:
        await core.run(match_id, _nothing, due_first=False)
    except Exception:
        log.exception("the computers of match %s did not reply", match_id)
        async with core.pool.acquire() as connection:
            await repo.retry_later(connection, match_id, version, core.clock.now() + RETRY_AFTER)


def _nothing(stage: Stage) -> None:
    """A step that only lets the computers reply (the unit does after every step)."""


def _log_ends(outcome: Outcome) -> None:
    """One structured line per forfeit, abandonment or cancellation the sweep committed."""
    for what, seat, cause in outcome.ends:
        fields = {"match_id": outcome.match_id, "seat": seat, "cause": cause, "outcome": what}
        log.info(
            "sweep: %s match %s seat %s (%s)", what, outcome.match_id, seat, cause, extra=fields
        )


def _ends(stepped: Stepped, due: tables.Due | None) -> list[tuple[str, int | None, str]]:
    """The forfeits and abandoned or cancelled ends among a step's events."""
    found: list[tuple[str, int | None, str]] = []
    for event in stepped.events:
        data = event.data
        if isinstance(data, ForfeitData):
            found.append(("forfeit", data.seat, data.cause))
        elif isinstance(data, MatchEndedData) and data.reason in ("abandoned", "cancelled"):
            found.append((data.reason, None, due.kind if due is not None else "unknown"))
    return found


def _table(read: Read) -> Table:
    assert read.snapshot is not None  # a claim reads the snapshot with the row
    return read.table(engine.from_json(read.snapshot))


async def sweep_one(
    core: Core, match_id: str, now: datetime, lifetimes: liveness.Lifetimes, claimed: int
) -> Outcome | None:
    """One match as a step of the write core, if it is still due (None: someone else did it).

    A failure is logged and leaves the match alone for RETRY_AFTER so one bad match cannot
    stall the pass, if it is still at the version `claimed` (the claim read it due).
    """

    def step(stage: Stage) -> Outcome | None:
        due_at = stage.table.match.due_at
        if due_at is None or due_at > now:
            return None
        stepped, outcome = enforce(stage.table, now, lifetimes)
        stage.add(stepped)
        return outcome

    try:
        return await core.run(match_id, step, due_first=False, fresh=True)
    except Exception as exc:
        log.exception("sweeping match %s failed", match_id)
        async with core.pool.acquire() as connection:
            await repo.retry_later(connection, match_id, claimed, core.clock.now() + RETRY_AFTER)
        return Outcome(match_id, None, "", "error", f"error: {type(exc).__name__}: {exc}"[:300])


def enforce(table: Table, now: datetime, lifetimes: liveness.Lifetimes) -> tuple[Stepped, Outcome]:
    """What is due, enforced by the table reducer (`Tick`), and what it was."""
    match = table.match
    due = tables.next_due(table, now)
    stepped = tables.step(table, tables.Tick(lifetimes, secrets.token_hex(8)), now)
    after = stepped.table
    outcome = Outcome(
        match.id, match.code, match.ruleset, "none", "nothing due", events=len(stepped.events)
    )
    outcome.status = after.state.status
    outcome.ends = _ends(stepped, due)
    if due is not None:
        outcome.due, outcome.seat, outcome.due_at = due.kind, due.seat, due.moment
        outcome.action, outcome.detail = ACTIONS[due.kind], due.describe()
        moved_only = all(event.type == "deadline_moved" for event in stepped.events)
        if moved_only and due.kind in ("clock", "away", "away_tie") and not after.over:
            outcome.action = "extend"
            info = after.match
            moved = info.turn_deadline if due.kind == "clock" else info.outage_grace_until
            outcome.detail = f"outage: {due.kind} deadline moved to {iso(moved)}"
    else:
        outcome.detail = f"nothing due; next at {iso(after.match.due_at)}"
    if after.match.due_at is not None and after.match.due_at <= now:
        # Nothing could be done about it now: keep the pass (and the next ones) moving.
        log.warning("match %s stays due after enforce; retried later", match.id)
        stepped = Stepped(tables.with_info(after, due_at=now + RETRY_AFTER), stepped.events)
    return stepped, outcome


async def _plan(
    core: Core, now: datetime, limit: int | None, lifetimes: liveness.Lifetimes
) -> list[Outcome]:
    """Dry run: what a pass would do, read without locks; nothing is written."""
    outcomes: list[Outcome] = []
    async with transaction(core.maker) as session:
        due = await match_reads.due_ids(session, now, limit)
    async with core.pool.acquire() as connection:
        for match_id in due:
            found = await repo.read(connection, match_id)
            if found is None:
                continue  # gone meanwhile
            snapshot = await repo.snapshot(connection, match_id, found.version)
            if snapshot is None:
                continue  # moved on meanwhile
            table = found.table(engine.from_json(snapshot))
            outcomes.append(_describe(table, now, lifetimes))
    return outcomes


def _describe(table: Table, now: datetime, lifetimes: liveness.Lifetimes) -> Outcome:
    match = table.match
    due = tables.next_due(table, now)
    outcome = Outcome(match.id, match.code, match.ruleset, "none", "nothing due")
    outcome.status = table.state.status
    if due is None:
        return outcome
    outcome.due, outcome.seat, outcome.due_at = due.kind, due.seat, due.moment
    outcome.action, outcome.detail = ACTIONS[due.kind], f"would {due.describe()}"
    if due.kind in ("clock", "away", "away_tie"):
        extended = tables.outage_extension(table, due, lifetimes)
        if extended is not None and extended > due.moment:
            outcome.action = "extend"
            outcome.detail = f"would move the {due.kind} deadline to {iso(extended)} (outage)"
    return outcome
