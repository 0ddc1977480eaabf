"""docker-compose.yml and the Dockerfile agree with the command line and the settings.

Docker cannot run here, so the files are read as data: every command a service runs must be
a registered `domino-api` command with options it really has, and every DOMINO_ variable must
be a field of `config.Settings`.
"""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
import yaml

from domino_api import cli
from domino_api.config import Settings

ROOT = Path(__file__).resolve().parents[2]
NATS_NODES = ("nats-1", "nats-2", "nats-3")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


@pytest.fixture(scope="module")
def commands() -> dict[str, Any]:
    cli._register_optional()
    group: Any = typer.main.get_command(cli.app)  # typer ships its own click: duck-typed here
    return dict(group.commands)


def check_command(argv: list[str], commands: dict[str, Any]) -> None:
    """`domino-api NAME --opt value ...`: NAME is registered and each option belongs to it."""
    assert argv[0] == "domino-api", argv
    name, *rest = argv[1:]
    assert name in commands, f"{name!r} is not a domino-api command: {sorted(commands)}"
    options = {opt for param in commands[name].params for opt in param.opts + param.secondary_opts}
    flags = {
        opt
        for param in commands[name].params
        if getattr(param, "is_flag", False) or getattr(param, "count", False)
        for opt in param.opts + param.secondary_opts
    }
    args = iter(rest)
    for arg in args:
        assert arg.startswith("--"), f"unexpected argument {arg!r} in {argv}"
        assert arg in options, f"{name} has no option {arg}: {sorted(options)}"
        if arg not in flags:
            value = next(args, None)
            assert value is not None and not value.startswith("--"), f"{arg} needs a value"


def test_services_and_their_order(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {
        "postgres",
        "pgbouncer",
        *NATS_NODES,
        "redis",
        "migrate",
        "api",
        "worker",
    }
    assert "healthcheck" in services["postgres"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"
    for name in ("api", "worker"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["postgres"]["condition"] == "service_healthy"
    assert services["api"]["deploy"]["replicas"] == 2
    for name in ("api", "worker"):  # both announce; the API also listens
        for node in NATS_NODES:
            assert services[name]["depends_on"][node]["condition"] == "service_healthy"


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_nats_is_a_three_node_cluster(compose: dict[str, Any]) -> None:
    """Each node names itself, joins one cluster and routes to the other two on the port
    they listen on for routes."""
    services = compose["services"]
    commands = {node: services[node]["command"] for node in NATS_NODES}
    route_ports = {node: option(c, "--cluster").rsplit(":", 1)[1] for node, c in commands.items()}
    assert len({option(c, "--cluster_name") for c in commands.values()}) == 1
    for node, command in commands.items():
        assert services[node]["image"].startswith("nats:")
        assert option(command, "-n") == node
        assert option(command, "--cluster").startswith("nats://0.0.0.0:")
        routes = set(option(command, "--routes").split(","))
        assert routes == {f"nats://{n}:{route_ports[n]}" for n in NATS_NODES if n != node}
        assert "-js" not in command  # core subjects only: nothing to store
        monitor = option(command, "-m")
        assert f"127.0.0.1:{monitor}/healthz" in json.dumps(services[node]["healthcheck"]["test"])


def test_processes_know_every_nats_node(compose: dict[str, Any]) -> None:
    services = compose["services"]
    ports = {node: option(services[node]["command"], "-p") for node in NATS_NODES}
    for name in ("api", "worker"):
        env = services[name]["environment"]
        assert env["DOMINO_ANNOUNCE_BACKEND"] == "nats"
        settings = Settings(announce_backend="nats", nats_url=env["DOMINO_NATS_URL"])
        assert settings.nats_servers == [f"nats://{node}:{ports[node]}" for node in NATS_NODES]
    assert "readyz" in json.dumps(services["api"]["healthcheck"]["test"])


def test_api_replicas_share_their_rate_limits_in_redis(compose: dict[str, Any]) -> None:
    """Every replica counts in the one Redis (docs/OPERATING.md): a client's budget is the
    deployment's, not one per replica."""
    services = compose["services"]
    redis = services["redis"]
    assert redis["image"].startswith("redis:")
    port = option(redis["command"], "--port")
    assert option(redis["command"], "--save") == ""  # budgets live minutes: nothing persisted
    assert (
        port in json.dumps(redis["healthcheck"]["test"]) and "ping" in redis["healthcheck"]["test"]
    )
    api = services["api"]
    assert api["deploy"]["replicas"] > 1
    settings = Settings(rate_limit_storage=api["environment"]["DOMINO_RATE_LIMIT_STORAGE"])
    assert settings.rate_limit_storage == f"redis://redis:{port}/0"
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"


def test_api_and_worker_reach_postgres_through_pgbouncer(compose: dict[str, Any]) -> None:
    """Transaction pooling in front of PostgreSQL; migrations go straight to it."""
    services = compose["services"]
    ini = configparser.ConfigParser()
    ini.read(ROOT / services["pgbouncer"]["build"] / "pgbouncer.ini")
    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    listen = f"pgbouncer:{ini['pgbouncer']['listen_port']}/"
    pools = 0
    for name in ("api", "worker"):
        env = services[name]["environment"]
        assert listen in env["DOMINO_DATABASE_URL"]
        settings = Settings(**{key[len("DOMINO_") :].lower(): v for key, v in env.items()})
        assert settings.db_transaction_pooler
        assert services[name]["depends_on"]["pgbouncer"]["condition"] == "service_healthy"
        replicas = services[name].get("deploy", {}).get("replicas", 1)
        pools += replicas * (settings.db_pool_size + settings.db_max_overflow)
    assert "@postgres:5432/" in services["migrate"]["environment"]["DOMINO_DATABASE_URL"]
    # docs/ARCHITECTURE.md, "Connections": every client connection fits, and PostgreSQL keeps
    # room within its default max_connections (100) beside PgBouncer's.
    assert pools <= int(ini["pgbouncer"]["max_client_conn"])
    assert int(ini["pgbouncer"]["max_db_connections"]) < 100


def test_commands_exist_in_the_cli(compose: dict[str, Any], commands: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["migrate"]["command"] == ["domino-api", "migrate"]
    assert services["api"]["command"][:2] == ["domino-api", "serve"]
    assert "--no-migrate" in services["api"]["command"]
    assert services["worker"]["command"][:4] == ["domino-api", "worker", "--interval", "5"]
    assert "--metrics-port" in services["worker"]["command"]  # its counters must be scraped
    for name in ("migrate", "api", "worker"):
        check_command(services[name]["command"], commands)


def test_environment_keys_are_settings(compose: dict[str, Any]) -> None:
    fields = set(Settings.model_fields)
    prefix = Settings.model_config.get("env_prefix", "")
    seen = 0
    for name in ("migrate", "api", "worker"):
        env = compose["services"][name]["environment"]
        assert env["DOMINO_DATABASE_URL"].startswith("postgresql://")
        for key in env:
            assert key.startswith(prefix), key
            assert key[len(prefix) :].lower() in fields, f"{key} is not a Settings field"
            seen += 1
    assert seen >= 3


def test_dockerfile_serves_without_migrating(commands: dict[str, Any]) -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd is not None
    argv = json.loads(cmd.group(1))
    assert argv[:2] == ["domino-api", "serve"]
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    assert "--no-migrate" in argv
    check_command(argv, commands)
