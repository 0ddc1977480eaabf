"""`domino-api sweep [--dry-run] [--json]` and `domino-api worker` (SIGTERM ends it, exit 0)."""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import httpx
import pytest
import typer
from sqlalchemy import update
from typer.testing import CliRunner

from domino_api.app import job_commands as jobs_cli
from domino_api.clock import FakeClock
from domino_api.config import Settings
from domino_api.engine.clock_text import iso
from domino_api.jobs.sweeper import sweep_pass
from domino_api.store.db import to_plain_url
from domino_api.store.models import Seat
from tests.api.helpers import view
from tests.jobs.factory import BLITZ, event_types, events, parse, two_seat_match


@pytest.fixture
async def due(client: httpx.AsyncClient, clock: FakeClock) -> dict[str, Any]:
    """Two clocked matches, both past the deadline."""
    ana, bob, first = await two_seat_match(client, options=BLITZ)
    _, _, second = await two_seat_match(client, options=BLITZ, names=("Cy", "Di"))
    clock.set(parse(first["turn"]["deadline"]) + timedelta(seconds=1))
    return {"ana": ana, "ids": [first["id"], second["id"]], "seat": first["turn"]["seat"]}


def _in_thread(call: Any) -> Any:
    """Run a command the way the CLI does (its own event loop), beside the tests' loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def _settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, log_json=False)


def test_dry_run_lists_one_line_per_match_and_changes_nothing(
    due: dict[str, Any], clock: FakeClock, database_url: str
) -> None:
    lines: list[str] = []
    _in_thread(
        lambda: asyncio.run(
            jobs_cli.sweep_once(
                _settings(database_url), clock, dry_run=True, as_json=False, echo=lines.append
            )
        )
    )
    assert len(lines) == 3
    by_id = {line.split()[0]: line for line in lines[:2]}
    assert set(by_id) == set(due["ids"])
    for line in by_id.values():
        assert "would forfeit seat" in line and "(clock)" in line and "now playing" in line
    assert lines[2].startswith("would sweep 2 matches: 2 forfeits (2 clock, 0 away)")
    assert "not run (dry run)" in lines[2]
    again = _in_thread(
        lambda: asyncio.run(
            jobs_cli.sweep_once(
                _settings(database_url), clock, dry_run=False, as_json=True, echo=lines.append
            )
        )
    )
    document = json.loads(lines[-1])
    assert document["dry_run"] is False and again.counts()["forfeits"] == 2
    assert {m["match_id"] for m in document["matches"]} == set(due["ids"])
    assert {(m["action"], m["due"], m["events"]) for m in document["matches"]} == {
        ("forfeit", "clock", 3)
    }
    assert document["summary"]["forfeits"] == 2 and document["summary"]["errors"] == 0


async def test_dry_run_leaves_the_match_alone(
    client: httpx.AsyncClient, due: dict[str, Any], clock: FakeClock, maker: Any, core: Any
) -> None:
    report = await sweep_pass(core, dry_run=True)
    first = next(o for o in report.outcomes if o.match_id == due["ids"][0])
    assert (first.action, first.seat) == ("forfeit", due["seat"])
    # Read the log directly: any request about the match would enforce the deadline itself.
    assert "forfeit" not in [kind for _, kind in await event_types(maker, due["ids"][0])]
    assert len((await sweep_pass(core, dry_run=True)).outcomes) == 2


def test_the_sweep_command_json(
    due: dict[str, Any], clock: FakeClock, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", database_url)
    monkeypatch.setenv("DOMINO_LOG_JSON", "false")
    monkeypatch.setattr(jobs_cli, "make_clock", lambda: clock)
    app = typer.Typer()
    jobs_cli.register(app)
    result = _in_thread(lambda: CliRunner().invoke(app, ["sweep", "--dry-run", "--json"]))
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["dry_run"] is True and document["summary"]["matches"] == 2
    assert all(m["detail"].startswith("would forfeit seat ") for m in document["matches"])


async def test_presence_expiry_runs_in_the_pass(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    ana, _, v = await two_seat_match(client, "draw-50")
    async with maker() as session, session.begin():
        await session.execute(
            update(Seat)
            .where(Seat.match_id == v["id"], Seat.seat == 0)
            .values(
                connected=True,
                connected_until=clock.now() - timedelta(seconds=1),
                last_seen_at=clock.now() - timedelta(seconds=31),  # no request in the lease
            )
        )
    report = await sweep_pass(core)
    assert report.presence_available and report.presence_expired == 1
    kinds = [(e["type"], e["data"]) for e in await events(client, ana, v["id"])]
    gone = [data for kind, data in kinds if kind == "seat_disconnected"]
    assert [data["seat"] for data in gone] == [0]
    # The event carries the away rule's moments (clients apply them, docs/API.md): the lease
    # ran out a second ago; this ruleset has no away forfeit.
    lease_end = iso(clock.now() - timedelta(seconds=1))
    assert (gone[0]["away_since"], gone[0]["away_deadline"]) == (lease_end, None)
    assert (await view(client, ana, v["id"]))["status"] == "playing"


def test_the_worker_stops_on_sigterm_after_its_pass(clean_db: str) -> None:
    env = {**os.environ, "DOMINO_DATABASE_URL": to_plain_url(clean_db), "DOMINO_LOG_JSON": "false"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "domino_api.cli", "worker", "--interval", "0.2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        ready, _, _ = select.select([worker.stdout], [], [], 30)
        assert ready, "the worker printed no pass"
        first = json.loads(worker.stdout.readline())  # type: ignore[union-attr]
        assert first["summary"]["errors"] == 0
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, worker.stderr.read()  # type: ignore[union-attr]
    finally:
        if worker.poll() is None:
            worker.kill()
