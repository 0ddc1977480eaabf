"""Operating it: every command in --help, text access logs that say what happened, and
`serve` stopping the embedded PostgreSQL it started."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
from typer.testing import CliRunner

from domino_api import cli
from domino_api.logs import TextFormatter, match_id
from tests.support.servers import ROOT, free_port


def test_help_lists_every_command() -> None:
    cli._register_optional()
    names = {command.name or command.callback.__name__ for command in cli.app.registered_commands}
    names |= {group.name for group in cli.app.registered_groups if group.name}
    assert {"serve", "openapi", "deal-vectors", "simulate", "bot", "sweep", "plan"} <= names
    shown = CliRunner().invoke(cli.app, ["--help"], terminal_width=200).output
    for name in names:
        assert f" {name.replace('_', '-')} " in shown, name


def test_help_names_a_type_only_beside_an_option_that_takes_a_value() -> None:
    cli._register_optional()
    shown = CliRunner().invoke(cli.app, ["serve", "--help"], terminal_width=200).output
    lines = {line.split()[0]: line for line in shown.splitlines() if line.strip().startswith("--")}
    assert "<int>" in lines["--port"] and "<str>" in lines["--host"]
    for flag in ("--migrate", "--help"):
        assert "<" not in lines[flag], lines[flag]
    assert "<bool>" not in CliRunner().invoke(cli.app, ["--help"], terminal_width=200).output


def test_a_text_access_line_names_method_path_status_and_duration() -> None:
    record = logging.LogRecord("domino_api.access", logging.INFO, __file__, 1, "request", (), None)
    extra = {"method": "POST", "path": "/v1/matches/x/moves", "status": 409}
    for key, value in {**extra, "duration_ms": 3.25, "client": "10.0.0.7"}.items():
        setattr(record, key, value)
    token = match_id.set("m-1")
    try:
        line = TextFormatter().format(record)
    finally:
        match_id.reset(token)
    assert "request POST /v1/matches/x/moves 409 3.25ms client=10.0.0.7 match=m-1" in line
    plain = logging.LogRecord("x", logging.WARNING, __file__, 1, "hello %s", ("you",), None)
    assert TextFormatter().format(plain).endswith("WARNING x: hello you")


def _postgres_pid(pgdata: Path) -> int | None:
    pidfile = pgdata / "postmaster.pid"
    return int(pidfile.read_text().split()[0]) if pidfile.exists() else None


def test_serve_stops_the_embedded_postgres_it_started(tmp_path: Path) -> None:
    pgdata = tmp_path / "pgdata"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DOMINO_DATABASE_URL"}
    env |= {"DOMINO_EMBEDDED_PGDATA": str(pgdata), "DOMINO_LOG_JSON": "false"}
    argv = [sys.executable, "-m", "domino_api.cli", "serve", "--port", str(port)]
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        ready = False
        while not ready and process.poll() is None:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz").status_code == 200
            except httpx.HTTPError:
                time.sleep(0.2)
        assert ready, (tmp_path / "serve.log").read_text()
        postgres = _postgres_pid(pgdata)
        assert postgres is not None and psutil.pid_exists(postgres)
        process.send_signal(signal.SIGTERM)
        assert process.wait() == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert not psutil.pid_exists(postgres) or psutil.Process(postgres).status() == "zombie"
    assert _postgres_pid(pgdata) is None
    assert "stopped the embedded PostgreSQL" in (tmp_path / "serve.log").read_text()
