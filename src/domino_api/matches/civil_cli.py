"""`domino-api reports [--limit N] [--json]`: the messages players reported, newest first.

Operators read them here; nothing in the API shows one player's report to another."""

from __future__ import annotations

import asyncio

import msgspec
import typer


class ReportLine(msgspec.Struct, frozen=True, kw_only=True):
    """A report as `domino-api reports --json` prints it."""

    id: int
    at: str
    match_id: str
    seq: int
    seat: int
    name: str | None
    reported_id: str | None
    reporter_id: str
    text: str
    reason: str


async def read_reports(database_url: str, limit: int) -> list[ReportLine]:
    from sqlalchemy.ext.asyncio import create_async_engine

    from domino_api.store import civil_repo
    from domino_api.store.db import make_sessionmaker, to_asyncpg_url, transaction

    engine = create_async_engine(to_asyncpg_url(database_url))
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            found = await civil_repo.reports(session, limit)
            return [
                ReportLine(
                    id=r.id,
                    at=r.created_at.isoformat(),
                    match_id=r.match_id,
                    seq=r.seq,
                    seat=r.seat,
                    name=r.name,
                    reported_id=r.reported_id,
                    reporter_id=r.reporter_id,
                    text=r.text,
                    reason=r.reason,
                )
                for r in found
            ]
    finally:
        await engine.dispose()


def _line(report: ReportLine) -> str:
    reason = f"  (reason: {report.reason})" if report.reason else ""
    return (
        f"#{report.id} {report.at} match {report.match_id} seq {report.seq}"
        f" seat {report.seat} {report.name or '?'} [{report.reported_id or '-'}]:"
        f" {report.text!r}{reason}  reported by {report.reporter_id}"
    )


def register(app: typer.Typer) -> None:
    @app.command("reports")
    def reports_command(
        limit: int = typer.Option(50, min=1, max=10_000, help="At most this many, newest first"),
        as_json: bool = typer.Option(False, "--json", help="One JSON object per line"),
    ) -> None:
        """The messages players reported (table talk), newest first: operators only."""
        from domino_api.config import get_settings
        from domino_api.store.db import resolve_database_url

        found = asyncio.run(read_reports(resolve_database_url(get_settings()), limit))
        for report in found:
            typer.echo(msgspec.json.encode(report).decode() if as_json else _line(report))
        if not found and not as_json:
            typer.echo("no reports")
