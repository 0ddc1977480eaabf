"""`domino-api sweep` and `domino-api worker`: the recovery job operators run."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import msgspec
import typer

from domino_api.clock import Clock
from domino_api.jobs import CONCURRENCY
from domino_api.jobs.report import PassReport

if TYPE_CHECKING:
    from domino_api.config import Settings
    from domino_api.matches.unit import Core

R = TypeVar("R")
# What the commands print with (typer.echo; tests collect the lines).
Echo = Callable[[str], object]


def make_clock() -> Clock:
    """The clock the commands use (tests put a FakeClock here)."""
    return Clock()


def _echo_report(report: PassReport, as_json: bool, echo: Echo) -> None:
    if as_json:
        echo(json.dumps(msgspec.to_builtins(report.to_json()), sort_keys=True))
        return
    for outcome in report.outcomes:
        echo(outcome.line())
    echo(report.summary_line())


async def _with_database(
    settings: Settings, clock: Clock, job: Callable[[Core], Awaitable[R]]
) -> R:
    """Run `job(core)` on the write core of the configured database (domino_api/app/wiring.py)."""
    from domino_api.app.wiring import write_core
    from domino_api.jobs.liveness import outages_of
    from domino_api.jobs.witness import witness_of
    from domino_api.store.db import resolve_database_url

    url = await asyncio.to_thread(resolve_database_url, settings)
    async with write_core(url, settings, clock, outages_of, witness_from=witness_of) as (core, _):
        return await job(core)


async def sweep_once(
    settings: Settings,
    clock: Clock,
    *,
    dry_run: bool,
    as_json: bool,
    concurrency: int = CONCURRENCY,
    echo: Echo = typer.echo,
) -> PassReport:
    async def job(core: Core) -> PassReport:
        from domino_api.jobs.sweeper import sweep_pass  # the service stack: not for --help

        return await sweep_pass(core, dry_run=dry_run, concurrency=concurrency)

    report = await _with_database(settings, clock, job)
    _echo_report(report, as_json, echo)
    return report


async def work(
    settings: Settings,
    clock: Clock,
    interval_s: float,
    *,
    as_json: bool,
    concurrency: int = CONCURRENCY,
    echo: Echo = typer.echo,
    stop: asyncio.Event | None = None,
) -> int:
    """Sweep until SIGTERM or SIGINT; the pass under way finishes first. Returns the passes."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)

    def on_report(report: PassReport) -> None:
        if as_json:
            echo(json.dumps(msgspec.to_builtins(report.to_json()), sort_keys=True))
        elif report.outcomes or report.held_since is not None:
            for outcome in report.outcomes:
                echo(outcome.line())
            echo(report.summary_line())

    async def job(core: Core) -> int:
        from domino_api.jobs.loop import run_worker  # the service stack: not for --help

        return await run_worker(core, interval_s, stop, on_report, concurrency)

    try:
        passes = await _with_database(settings, clock, job)
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
    return passes


def register(app: typer.Typer) -> None:
    @app.command()
    def sweep(
        dry_run: bool = typer.Option(False, "--dry-run", help="List what is due; change nothing"),
        as_json: bool = typer.Option(False, "--json", help="One JSON document, for machines"),
        concurrency: int = typer.Option(CONCURRENCY, min=1, help="Matches handled at once"),
    ) -> None:
        """Apply due timeouts, presence expiry, abandonment and check-in rules once; exit 0."""
        settings = _settings()
        asyncio.run(
            sweep_once(
                settings, make_clock(), dry_run=dry_run, as_json=as_json, concurrency=concurrency
            )
        )

    @app.command()
    def worker(
        interval: float = typer.Option(None, min=0.1, help="Seconds between passes [default: 5]"),
        as_json: bool = typer.Option(False, "--json", help="A JSON document per pass"),
        concurrency: int = typer.Option(CONCURRENCY, min=1, help="Matches handled at once"),
        metrics_port: int = typer.Option(
            0, min=0, max=65535, help="Serve Prometheus metrics on this port (0: off)"
        ),
    ) -> None:
        """Sweep every few seconds until stopped (SIGTERM finishes the pass, then exits 0)."""
        settings = _settings()
        if metrics_port:
            from domino_api.metrics import serve_standalone

            serve_standalone(metrics_port)
        interval_s = interval if interval is not None else settings.worker_interval_s
        asyncio.run(
            work(settings, make_clock(), interval_s, as_json=as_json, concurrency=concurrency)
        )


def _settings() -> Settings:
    """The settings, with logging configured from them."""
    from domino_api.config import get_settings
    from domino_api.logs import configure_logging

    settings = get_settings()
    configure_logging(settings)
    return settings
